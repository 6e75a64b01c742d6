"""Embeddable TrueType fonts for the zoo (Debian's DejaVu and IPA fonts) and text measuring."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
IPA = Path("/usr/share/fonts/opentype")
# name -> file; a family is (regular, bold)
FILES = {
    "DejaVuSans": DEJAVU / "DejaVuSans.ttf",
    "DejaVuSans-Bold": DEJAVU / "DejaVuSans-Bold.ttf",
    "DejaVuSerif": DEJAVU / "DejaVuSerif.ttf",
    "DejaVuSerif-Bold": DEJAVU / "DejaVuSerif-Bold.ttf",
    "DejaVuSansMono": DEJAVU / "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold": DEJAVU / "DejaVuSansMono-Bold.ttf",
    "DejaVuSansCondensed": DEJAVU / "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold": DEJAVU / "DejaVuSansCondensed-Bold.ttf",
    "IPAGothic": IPA / "ipafont-gothic" / "ipag.ttf",
    "IPAPGothic": IPA / "ipafont-gothic" / "ipagp.ttf",
    "IPAMincho": IPA / "ipafont-mincho" / "ipam.ttf",
}
LATIN = (("DejaVuSans", "DejaVuSans-Bold"), ("DejaVuSerif", "DejaVuSerif-Bold"),
         ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold"), ("DejaVuSansMono", "DejaVuSansMono-Bold"))
# (LATIN[::2]: the faces covering Vietnamese and the dong sign)
# IPA fonts have no bold face: headings differ by size (and the Gothic face) instead.
JAPANESE = (("IPAGothic", "IPAGothic"), ("IPAMincho", "IPAGothic"), ("IPAPGothic", "IPAGothic"))


@dataclass(frozen=True)
class Face:
    """The fonts of one document: body regular/bold and its base size."""

    regular: str
    bold: str
    size: float


@functools.cache
def register(name: str) -> str:
    """Register a font with reportlab once; its name."""
    path = FILES[name]
    if not path.exists():
        raise SystemExit(f"zoo: font {path} missing; run scripts/install.sh "
                         "(fonts-dejavu-core fonts-dejavu-extra fonts-ipafont-gothic fonts-ipafont-mincho)")
    pdfmetrics.registerFont(TTFont(name, str(path)))
    return name


def pick_face(lang: str, rng: random.Random, sizes: tuple[float, ...] = (8, 8.5, 9, 9.5, 10, 11)) -> Face:
    """A random font family and base size fitting the language's script."""
    # DejaVu Serif has no dong sign and Mono lacks Vietnamese's stacked diacritics.
    faces = JAPANESE if lang == "ja" else LATIN[::2] if lang == "vi" else LATIN
    regular, bold = rng.choice(faces)
    return Face(register(regular), register(bold), rng.choice(sizes))


def width(text: str, font: str, size: float, char_space: float = 0.0) -> float:
    """Advance width of one line of text in points."""
    return pdfmetrics.stringWidth(text, font, size) + char_space * max(len(text) - 1, 0)


def is_cjk(ch: str) -> bool:
    """A character of a script written without spaces (kana, CJK ideographs, full-width forms)."""
    o = ord(ch)
    return (0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF
            or 0xFF00 <= o <= 0xFFEF)


def join_lines(lines: list[str]) -> str:
    """The text of a multi-line cell as one string: lines joined by a space, or by nothing where
    the break touches a CJK character (Japanese has no spaces between words)."""
    out = ""
    for line in (ln.strip() for ln in lines):
        if not line:
            continue
        if out and not (is_cjk(out[-1]) or is_cjk(line[0])):
            out += " "
        out += line
    return out


def wrap(text: str, font: str, size: float, max_width: float) -> list[str]:
    """Greedy line breaking at spaces (at any character for CJK text)."""
    tokens = list(text) if any(is_cjk(c) for c in text) else text.split(" ")
    sep = "" if any(is_cjk(c) for c in text) else " "
    return greedy_lines(tokens, sep, lambda line: width(line, font, size) > max_width)


def greedy_lines(tokens: list[str], sep: str, too_wide, may_open=lambda tok: True) -> list[str]:
    """Tokens joined by `sep` into lines, each line as long as `too_wide(line)` allows; a token
    that `may_open` refuses (a closing mark) stays on the line before even past the width."""
    lines: list[str] = []
    cur = ""
    for tok in tokens:
        cand = f"{cur}{sep}{tok}" if cur else tok
        if cur and too_wide(cand) and may_open(tok):
            lines.append(cur)
            cur = tok
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines

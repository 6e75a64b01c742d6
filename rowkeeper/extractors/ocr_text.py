"""Repairs of a recognised text line from its image: word spaces, digit groups, decimal marks.

The recogniser (PP-OCR) is good at glyphs and careless with what numbers hinge on: it drops
word spaces ("Monitorarm"), the space of a thousands group ("1137 Ft" for "1 137 Ft") and
confuses "," with "." at scan resolution. The image settles each: a blank column run wide
enough is a space; a comma's ink reaches below the digits' baseline, a period's does not.
Characters are located by the recogniser's CTC-aligned character centers.
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from rowkeeper.glyphs import is_cjk

Box = tuple[float, float, float, float]


def join_text(parts: list[str]) -> str:
    """Join text pieces with spaces, except between CJK characters (which have none)."""
    out = ""
    for p in parts:
        if not p:
            continue
        if out and not (is_cjk(out[-1]) and is_cjk(p[0])):
            out += " "
        out += p
    return out


_SPECK_TOKENS = set(".,:;'`·‘’")


def drop_speck_tokens(text: str) -> str:
    """Lone dots and ticks at either end of a line ("Stock :") are scanner specks, not text."""
    words = text.split(" ")
    while len(words) > 1 and set(words[-1]) <= _SPECK_TOKENS:
        words.pop()
    while len(words) > 1 and set(words[0]) <= _SPECK_TOKENS:
        words.pop(0)
    return " ".join(words)


def is_speck(text: str) -> bool:
    """A detected 'line' that is only dots and ticks: a speck of scanner noise."""
    return set(text) <= _SPECK_TOKENS


def _ink(gray: np.ndarray, box: Box) -> tuple[np.ndarray, int, int] | None:
    """Binarised ink (1) of a box's crop, with the crop's origin."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    x0, y0 = max(x0, 0), max(y0, 0)
    crop = gray[y0:y1, x0:x1]
    if crop.size == 0 or crop.shape[0] < 4 or crop.shape[1] < 4:
        return None
    _, ink = cv2.threshold(cv2.medianBlur(crop, 3), 0, 1, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    return ink, x0, y0


def ink_gaps(ink: np.ndarray, x0: int) -> list[tuple[float, float]]:
    """Blank column runs (x0, x1 in image pixels) between the first and last ink of a crop."""
    cols = np.flatnonzero(ink.sum(axis=0) > 0)
    return [(float(x0 + a + 1), float(x0 + b)) for a, b in zip(cols[:-1], cols[1:], strict=False) if b - a > 1]


def repair_line(text: str, centers: list[float], gray: np.ndarray, box: Box) -> str:
    """`text` with spaces and decimal marks checked against the line's image."""
    chars = [c for c in text if c != " "]
    if len(centers) != len(chars) or len(chars) < 2:
        return drop_speck_tokens(text)
    got = _ink(gray, box)
    if got is None:
        return drop_speck_tokens(text)
    ink, x0, y0 = got
    chars = fix_decimal_marks(chars, centers, ink, x0)
    spaced = _spaced(text)
    chars = fix_dashes(chars, centers, ink, x0, spaced)
    gaps = ink_gaps(ink, x0)
    spaced |= _inserts(chars, centers, gaps, spaced)
    spaced |= script_spaces(chars, centers, gaps, _em(ink))
    return drop_speck_tokens("".join((" " if i in spaced else "") + ch for i, ch in enumerate(chars)))


_GROUP = re.compile(r"^\d{3}(?:[.,]\d+)?(?!\d)")


def word_spans(text: str, centers: list[float], gray: np.ndarray, box: Box) -> tuple[tuple[str, float, float], ...]:
    """The words of a detected run with the x extent of each one's ink: (word, x0, x1) in
    image pixels, () when the characters cannot be placed. Words part at the text's spaces;
    two neighbours meet at the widest blank between their characters (at the midpoint of their
    centres where none is). The run's own box is padded by a fraction of the font size and
    may reach into the next column's first glyph: each word's ink is taken within a character
    pitch of its own centres."""
    chars = [c for c in text if c != " "]
    got = _ink(gray, box) if chars and len(centers) == len(chars) else None
    if got is None:
        return ()
    ink, x0, _ = got
    cols = np.flatnonzero(ink.sum(axis=0) > 0) + x0
    if not cols.size:
        return ()
    pitch = float(np.median(np.diff(centers))) if len(centers) > 1 else float(box[3] - box[1])
    spaced = sorted(_spaced(text) - {0})
    # a thousands group set off by a space ("340 683", "1 137 Ft") is one word of its number
    starts = [0, *(i for i, j in zip(spaced, [*spaced[1:], len(chars)], strict=False)
                   if not (chars[i - 1].isdigit() and _GROUP.match("".join(chars[i:j]))))]
    ends = [*starts[1:], len(chars)]
    gaps = ink_gaps(ink, x0)
    bounds = [float(cols[cols >= centers[0] - pitch][0]) if (cols >= centers[0] - pitch).any() else box[0]]
    for i in starts[1:]:
        between = [g for g in gaps if centers[i - 1] < (g[0] + g[1]) / 2 < centers[i]]
        if between:
            g0, g1 = max(between, key=lambda g: g[1] - g[0])
            bounds += [g0, g1]
        else:
            mid = (centers[i - 1] + centers[i]) / 2
            bounds += [mid, mid]
    right = cols[cols <= centers[-1] + pitch]
    bounds.append(float(right[-1] + 1) if right.size else box[2])
    return tuple(("".join(chars[a:b]), bounds[2 * k], bounds[2 * k + 1])
                 for k, (a, b) in enumerate(zip(starts, ends, strict=True)))


def _spaced(text: str) -> set[int]:
    """Indices (among non-space characters) that a space precedes."""
    out, n = set(), 0
    for ch in text:
        if ch == " ":
            out.add(n)
        else:
            n += 1
    return out


def _inserts(chars: list[str], centers: list[float], gaps: list[tuple[float, float]],
             spaced: set[int]) -> set[int]:
    """Where a word-sized blank stands between two characters the recogniser ran together.

    Between letters only when the recogniser spaced nothing on the line (where it did space,
    its reading is better than a gap in a wide-bearing glyph such as "r"); between digits only
    where the digits after the gap form whole thousands groups ("1 137") and the gap is well
    wider than the run's other digit gaps (a "1" has wide side bearings of its own).
    """
    if len(gaps) < 2:
        return set()
    pitch = (centers[-1] - centers[0]) / (len(centers) - 1)
    # the tightest ordinary gaps (a word gap in a short line would lift a median)
    typical = float(np.percentile([g1 - g0 for g0, g1 in gaps], 25))
    slot = {}
    for g0, g1 in gaps:
        mid = (g0 + g1) / 2
        i = next((k for k in range(1, len(centers)) if centers[k - 1] < mid < centers[k]), None)
        if i is not None:
            slot[i] = max(slot.get(i, 0.0), g1 - g0)
    out = set()
    for i, width in slot.items():
        a, b = chars[i - 1], chars[i]
        if i in spaced:
            continue
        if not spaced and _word_break(a, b) and width >= max(0.45 * pitch, 2.0 * typical):
            out.add(i)
        elif a.isdigit() and b.isdigit() and _thousands(chars, i):
            others = [w for k, w in slot.items() if k != i and chars[k - 1].isdigit() and chars[k].isdigit()]
            floor = 1.6 * float(np.median(others)) if others else 0.0
            if width >= max(0.5 * pitch, floor):
                out.add(i)
    return out


SCRIPT_SPACE = 0.42
"""Blank between a CJK letter and a Latin letter or digit, in ems, from which a space stands
there ("運営費 2019"). Measured in IPA Gothic, Mincho, P Gothic and Droid Sans Fallback: with
a space 0.36-0.81, without one 0.12-0.33 (0.39 for "Aト" in IPA Gothic); set above both ends
of the overlap: a proportional face's narrow space is left unread."""
CJK_ROW = 0.86
"""Height of a CJK line's ink rows over its font size (line_print.CJK_EM)."""


def _em(ink: np.ndarray) -> float:
    """The font size in pixels of a line of CJK text from its crop: its rows of ink (from 0.15
    of the densest) over CJK_ROW."""
    rows = ink.sum(axis=1)
    if not rows.size or not rows.max():
        return 0.0
    dense = np.nonzero(rows >= 0.15 * rows.max())[0]
    return float(dense[-1] - dense[0] + 1) / CJK_ROW


def script_spaces(chars: list[str], centers: list[float], gaps: list[tuple[float, float]], em: float) -> set[int]:
    """Where a space stands between a CJK letter and a Latin letter or digit: a blank of
    SCRIPT_SPACE em (the recogniser drops it: "運営費2019"). In a line mostly of CJK letters
    only (its ink rows give the em); CJK punctuation carries its own blank and is not asked."""
    cjk = sum(is_cjk(c) for c in chars)
    if not em or 2 * cjk < len(chars):
        return set()
    out = set()
    for g0, g1 in gaps:
        mid = (g0 + g1) / 2
        i = next((k for k in range(1, len(centers)) if centers[k - 1] < mid < centers[k]), None)
        if i is None:
            continue
        a, b = chars[i - 1], chars[i]
        if a.isalnum() and b.isalnum() and is_cjk(a) != is_cjk(b) and g1 - g0 >= SCRIPT_SPACE * em:
            out.add(i)
    return out


def _word_break(a: str, b: str) -> bool:
    if is_cjk(a) or is_cjk(b):
        return False
    return (a.isalpha() and b.isalnum()) or (a.isalnum() and b.isalpha())


def _thousands(chars: list[str], i: int) -> bool:
    """Whether a space before chars[i] splits a digit run into a 1-3 digit head and 3-digit groups."""
    after = 0
    while i + after < len(chars) and chars[i + after].isdigit():
        after += 1
    before = 0
    while i - before - 1 >= 0 and chars[i - before - 1].isdigit():
        before += 1
    return after % 3 == 0 and after > 0 and 1 <= before <= 3


def _mark_of(blob: tuple[int, ...], base: float, tall: int, read: str) -> str:
    """Comma or period from the mark's ink, where the ink is decisive: a comma's tail drops well
    below the digits' baseline; a period is small and on it. At 150 dpi the two often differ by
    a pixel, so anything in between keeps the recogniser's reading (the table's column vote,
    `ocr_figures.harmonize_marks`, settles those)."""
    _, top, w, h = blob[:4]
    below = top + h - base
    if below > 0.1 * tall or h >= 0.3 * tall:
        return ","
    if below <= 0.5 and h <= 0.15 * tall:
        return "."
    return read


def _x_inside(b: tuple[int, ...], d: tuple[int, ...]) -> bool:
    return d[0] <= b[0] + b[2] / 2 <= d[0] + d[2]


def fix_decimal_marks(chars: list[str], centers: list[float], ink: np.ndarray, x0: int) -> list[str]:
    """Each "." or "," between digits decided by its ink (see `_mark_of`)."""
    marks = [k for k in range(1, len(chars) - 1)
             if chars[k] in ".," and chars[k - 1].isdigit() and chars[k + 1].isdigit()]
    if not marks:
        return chars
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    blobs = [tuple(int(v) for v in s) for s in stats[1:n] if s[4] >= 2]
    if not blobs:
        return chars
    tall = max(b[3] for b in blobs)
    digits = [b for b in blobs if b[3] >= 0.6 * tall]
    if not digits:
        return chars
    base = float(np.median([b[1] + b[3] for b in digits]))
    out = list(chars)
    for k in marks:
        lo, hi = (centers[k - 1] + centers[k]) / 2 - x0, (centers[k] + centers[k + 1]) / 2 - x0
        small = [b for b in blobs if lo <= b[0] + b[2] / 2 <= hi and b[3] < 0.6 * tall
                 and not any(_x_inside(b, d) for d in digits)]  # not a broken digit's stroke
        if not small:
            continue  # no mark found: keep the recogniser's reading
        x0m, y0m = min(b[0] for b in small), min(b[1] for b in small)
        x1m, y1m = max(b[0] + b[2] for b in small), max(b[1] + b[3] for b in small)
        out[k] = _mark_of((x0m, y0m, x1m - x0m, y1m - y0m), base, tall, chars[k])
    return out


EN_DASH = 0.5
"""Ink length of a dash over the height of the line's tall glyphs (capitals, digits, ascenders:
about 0.73 of the font size) from which a dash read as a hyphen is an en dash. Measured at
150 dpi, slightly blurred: hyphens 0.33-0.47 (DejaVu Sans, Serif, Condensed, Mono, regular
and bold), en dashes 0.5-0.6 in the proportional faces and 0.8-1.0 monospaced, but 0.40 in
DejaVu Sans Condensed. The faces overlap, so the ink only ever lengthens the recogniser's
reading, which errs the other way (it reads an en dash as "-", seldom the reverse)."""


def _blobs(ink: np.ndarray) -> tuple[list[tuple[int, ...]], float]:
    """Connected pieces of ink (x, y, w, h, area) and the height of the tall glyphs among them."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    blobs = [tuple(int(v) for v in s) for s in stats[1:n] if s[4] >= 2]
    if not blobs:
        return [], 0.0
    top = max(b[3] for b in blobs)
    return blobs, float(np.median([b[3] for b in blobs if b[3] >= 0.6 * top]))


def _dash_between(blobs: list[tuple[int, ...]], tall: float, lo: float, hi: float, read: str) -> str:
    """An en dash where `read` is a hyphen whose ink, the one flat bar centred between `lo` and
    `hi` (crop pixels), is an en dash's length; else `read`."""
    bars = [b for b in blobs if lo <= b[0] + b[2] / 2 <= hi and b[3] < 0.3 * tall and b[2] >= 1.5 * b[3]]
    if read != "-" or len(bars) != 1 or not tall:
        return read
    return "–" if bars[0][2] >= EN_DASH * tall else read


def fix_dashes(chars: list[str], centers: list[float], ink: np.ndarray, x0: int, spaced: set[int]) -> list[str]:
    """Each hyphen standing between spaces ("Table 1 - Costs") whose ink is an en dash's
    length read as an en dash ("Table 1 – Costs").

    The recogniser tells a hyphen from an en dash by a few pixels it often gets wrong at scan
    resolution; the ink's length against the line's tall glyphs tells (see EN_DASH). A dash inside a
    word or a number ("EN-DE", "2019-05") is left as read: a hyphen there is the common case,
    and a misread would change a code."""
    dashes = [k for k in range(1, len(chars) - 1) if chars[k] == "-" and k in spaced and k + 1 in spaced]
    if not dashes:
        return chars
    blobs, tall = _blobs(ink)
    out = list(chars)
    for k in dashes:
        lo, hi = (centers[k - 1] + centers[k]) / 2 - x0, (centers[k] + centers[k + 1]) / 2 - x0
        out[k] = _dash_between(blobs, tall, lo, hi, chars[k])
    return out


def fix_dash_words(words: list[tuple[str, Box]], gray: np.ndarray) -> list[str]:
    """The texts of one line's words (left to right, boxes in image pixels), each lone dash
    between two words read by the length of its ink (see `fix_dashes`)."""
    texts = [t for t, _ in words]
    dashes = [k for k in range(1, len(words) - 1) if texts[k] == "-"]
    if not dashes:
        return texts
    line = (min(b[0] for _, b in words), min(b[1] for _, b in words),
            max(b[2] for _, b in words), max(b[3] for _, b in words))
    got = _ink(gray, line)
    if got is None:
        return texts
    ink, x0, _ = got
    blobs, tall = _blobs(ink)
    for k in dashes:
        box = words[k][1]
        texts[k] = _dash_between(blobs, tall, box[0] - x0, box[2] - x0, texts[k])
    return texts

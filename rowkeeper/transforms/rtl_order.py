"""Right-to-left text (Hebrew, Arabic) read in visual order put back in logical order.

A reader that orders a cell's glyphs left to right (PyMuPDF's and pdfplumber's table text, a
producer that draws RTL words glyph by glyph from the left) hands Hebrew and Arabic out
reversed: `לכה ךס` for `סך הכל`. Which order a text is in is read from the script's own
spelling, whatever reader made it: letters written only at a word's end (Hebrew final forms
ך ם ן ף ץ, Arabic ة ى) stand at a word's start only when the word is reversed, and Arabic's
article ال starts words, so a word ending in لا is a reversed one. A cell with such evidence
is judged by it; a cell without any follows its table. The visual line is then reordered as
the Unicode bidirectional algorithm shows a right-to-left line: its runs of Latin letters and
figures keep their order, everything else is reversed and paired brackets mirrored.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from rowkeeper.models import RawTable

_FINAL_ONLY = frozenset("ךםןףץةى")
_MIRROR = str.maketrans("()[]{}<>«»", ")(][}{><»«")


def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _ltr(ch: str) -> bool:
    """A strong left-to-right letter or a figure: what keeps its order inside an RTL line."""
    return unicodedata.bidirectional(ch) in ("L", "EN", "AN")


def order_evidence(text: str) -> int:
    """Words that read reversed minus words that read in logical order (0: no evidence)."""
    score = 0
    # presentation forms (a producer's shaped glyphs: ﺔ for ة) judged as their letters
    for raw in unicodedata.normalize("NFKC", text).split():
        word = "".join(ch for ch in raw if ch.isalpha())
        if len(word) < 2 or not any(_rtl(ch) for ch in word):
            continue
        score += (word[0] in _FINAL_ONLY) - (word[-1] in _FINAL_ONLY)
        if len(word) >= 4:
            score += word.endswith("لا") - word.startswith("ال")
    return score


def _kinds(line: str) -> list[bool]:
    """Per character: whether it belongs to a left-to-right run (letters, figures, and the
    separators and spaces between two of them, a sign or a per cent touching a figure)."""
    strong = [_ltr(ch) for ch in line]
    out = list(strong)
    for i, ch in enumerate(line):
        if strong[i]:
            continue
        before = next((strong[k] for k in range(i - 1, -1, -1) if strong[k] or _rtl(line[k])), False)
        after = next((strong[k] for k in range(i + 1, len(line)) if strong[k] or _rtl(line[k])), False)
        touches_figure = ch in "+-−%.,/" and (
            (i + 1 < len(line) and line[i + 1].isdigit()) or (i > 0 and line[i - 1].isdigit()))
        out[i] = (before and after) or touches_figure
    return out


def logical_line(line: str) -> str:
    """One line in visual order as its logical order (left alone without RTL letters)."""
    if not any(_rtl(ch) for ch in line):
        return line
    kinds = _kinds(line)
    runs: list[tuple[bool, str]] = []
    for ch, k in zip(line, kinds, strict=True):
        if runs and runs[-1][0] == k:
            runs[-1] = (k, runs[-1][1] + ch)
        else:
            runs.append((k, ch))
    rtl_letters = sum(map(_rtl, line))
    if rtl_letters >= sum(unicodedata.bidirectional(ch) == "L" for ch in line):
        # a right-to-left line: its runs in reverse, each RTL run's characters reversed too
        return "".join(t if k else t[::-1].translate(_MIRROR) for k, t in reversed(runs))
    # a left-to-right line with RTL words in it: each RTL stretch reversed in its place
    return "".join(t if k or not any(map(_rtl, t)) else _rtl_stretch(t) for k, t in runs)


def _rtl_stretch(text: str) -> str:
    """An RTL stretch inside an LTR line reversed, the spaces around it kept where they are."""
    core = text.strip()
    if not core:
        return text
    lead = text[: len(text) - len(text.lstrip())]
    tail = text[len(text.rstrip()):]
    return lead + core[::-1].translate(_MIRROR) + tail


def logical_text(text: str) -> str:
    """A cell's text, line by line, in logical order."""
    return "\n".join(logical_line(ln) for ln in text.split("\n"))


def _reversed_cells(texts: Iterable[str]) -> list[bool]:
    """Per text: whether it is in visual order (its own evidence, else its table's)."""
    texts = list(texts)
    own = [order_evidence(t) for t in texts]
    table = sum(own) > 0
    return [e > 0 or (e == 0 and table) for e in own]


def logical_order(piece: RawTable) -> RawTable:
    """The piece with its RTL cell texts in logical order where they were read reversed."""
    if not any(_rtl(ch) for c in piece.cells for ch in c.text):
        return piece
    flip = _reversed_cells(c.text for c in piece.cells)
    if not any(flip):
        return piece
    cells = tuple(c.model_copy(update={"text": logical_text(c.text)}) if f and any(map(_rtl, c.text)) else c
                  for c, f in zip(piece.cells, flip, strict=True))
    return piece.model_copy(update={"cells": cells})

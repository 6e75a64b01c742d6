"""Full-width glyphs (CJK ideographs, kana, hangul, full-width forms): a whole em wide each,
set with no space between words; a gap between two of them in a line is no word space."""

from __future__ import annotations

import re

WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff60]")


def char_cells(text: str) -> int:
    """`text`'s length in half-width cells: a full-width glyph counts two (as a terminal sets
    it), so a line's median character width reads alike in Latin and in CJK text."""
    return sum(2 if WIDE.match(ch) else 1 for ch in text)

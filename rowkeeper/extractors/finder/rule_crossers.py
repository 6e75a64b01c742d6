"""Words across a ruled grid's column rule: a key a little too long for its column runs over
the rule, and a reader that gives each character to the cell its centre falls in cuts it
(`Payment term` | `s 30 days net`). A word belongs whole to the cell it mostly sits in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.extractors.finder.reads import words_at
from rowkeeper.extractors.finder.row_rules import pad

Box = Sequence[float]
_TOL = 0.5
"""Points a word may touch a rule by without crossing it."""


def whole_words_over_rules(page: pymupdf.Page, bbox: Box, rows: Sequence[Sequence[Box | None]],
                           texts: list[list[str | None]]) -> list[list[str | None]]:
    """`texts` of a ruled grid (`rows`: each row's cell boxes, None inside a span) with the
    two cells beside a rule that a word crosses read again from whole words, the crossing word
    in the cell holding more of its width. Only characters move: when the two cells' letters
    read from words are not the letters they had, the cells are left as they were."""
    crossing = [w for w in words_at(page, pad(bbox, 1.0)) if w[4].strip()]
    out = [list(t) for t in texts]
    for i, row in enumerate(rows):
        cells = [(j, c) for j, c in enumerate(row) if c is not None]
        for (j, a), (k, b) in zip(cells, cells[1:], strict=False):
            x = a[2]
            if abs(b[0] - x) > 1.0:
                continue
            level = [w for w in crossing if a[1] <= (w[1] + w[3]) / 2 <= a[3] and a[0] <= w[2] and w[0] <= b[2]]
            if not any(_crosses(w, x) for w in level):
                continue
            level = [run for w in level for run in (_glyph_runs(page, w) if _crosses(w, x) else [w])]
            left = [w for w in level if _owner_left(w, x) and w[2] > a[0]]
            right = [w for w in level if not _owner_left(w, x) and w[0] < b[2]]
            new_a, new_b = _text(left), _text(right)
            if _letters(new_a + new_b) == _letters((out[i][j] or "") + (out[i][k] or "")):
                out[i][j], out[i][k] = new_a, new_b
    return out


def _crosses(w: Sequence[Any], x: float) -> bool:
    return w[0] < x - _TOL and w[2] > x + _TOL


def _glyph_runs(page: pymupdf.Page, w: Sequence[Any]) -> list[Sequence[Any]]:
    """Word `w` cut where its glyphs stand apart (a key run over the rule up to its value with
    no space between them is one word: `terms30`); [w] when its glyphs do not spell it."""
    chars = [c for b in page.get_text("rawdict", clip=pymupdf.Rect(w[:4]))["blocks"]
             for ln in b.get("lines", ()) for s in ln["spans"] for c in s["chars"]
             if not c["c"].isspace() and w[0] - 0.01 <= (c["bbox"][0] + c["bbox"][2]) / 2 <= w[2] + 0.01]
    chars.sort(key=lambda c: c["bbox"][0])
    if "".join(c["c"] for c in chars) != w[4]:
        return [w]
    runs = [[chars[0]]]
    for a, b in zip(chars, chars[1:], strict=False):
        if b["bbox"][0] - a["bbox"][2] >= _GLYPH_GAP:
            runs.append([])
        runs[-1].append(b)
    return [(r[0]["bbox"][0], w[1], r[-1]["bbox"][2], w[3], "".join(c["c"] for c in r), *w[5:]) for r in runs]


_GLYPH_GAP = 0.5
"""Points between two glyphs of a word that part it (glyph boxes are their advances: letters of
one word touch, kerning moves them by tenths)."""


def _owner_left(w: Sequence[Any], x: float) -> bool:
    """Whether word `w` has more of its width left of `x` than right of it."""
    return x - w[0] >= w[2] - x


def _text(words: Sequence[Sequence[Any]]) -> str:
    """Words read as a cell: lines by their baselines, top to bottom, words left to right."""
    lines: list[list[Sequence[Any]]] = []
    for w in sorted(words, key=lambda w: (w[3], w[0])):
        if lines and abs(lines[-1][0][3] - w[3]) <= 0.5 * (w[3] - w[1]):
            lines[-1].append(w)
        else:
            lines.append([w])
    return "\n".join(" ".join(w[4] for w in sorted(ln, key=lambda w: w[0])) for ln in lines)


def _letters(text: str) -> str:
    return "".join(sorted(ch for ch in text if not ch.isspace()))

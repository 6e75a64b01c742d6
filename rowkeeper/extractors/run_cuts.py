"""An OCR run cut at a table's columns: one piece per column its words stand on.

The detector reads a table's neighbouring cells as one run where they are set close (a header
row of labels wider than the figures under them, "Budget (EUR) Leistung (kW) Menge (Stück)"),
and the recogniser may drop the space at the column gap itself ("(EUR)Leistung"). Pure
geometry on `OcrBox`es in image pixels: no engine, no image.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.fused_figures import fused_at
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_text import join_text
from rowkeeper.glyphs import char_cells, is_cjk, span_x

Span = tuple[float, float]

OPENS = "([（【"
CLOSES = ")]）】%"


def cut_at_columns(run: OcrBox, cols: Sequence[Span]) -> list[OcrBox]:
    """`run` cut into one piece per column its words stand on, each piece as wide as its words'
    ink (the detector's padded box reaches into the next column's footprint). A word read over
    a column gap is first parted where its letters join two labels (`parted`). A word standing
    on no footprint (a header label's first word, left of the right-aligned figures it heads:
    "Số lượng" over "39") goes with the neighbour in the run it stands nearer (`_pass_on`); a
    run standing on none goes to the column nearest its centre."""
    if not run.words:
        return [run]
    words = [p for w in run.word_boxes() for p in parted(w, cols)]
    on: list[int | None] = [max(((min(c[1], w.box[2]) - max(c[0], w.box[0]), i) for i, c in enumerate(cols)),
                                default=(0.0, None))[1] if _on_any(w, cols) else None for w in words]
    if all(k is None for k in on):
        mid = (run.box[0] + run.box[2]) / 2
        on = [min(range(len(cols)), key=lambda i: max(cols[i][0] - mid, mid - cols[i][1], 0.0)) if cols else 0] * len(words)
    _pass_on(words, on)
    groups: dict[int, list[OcrBox]] = {}
    for w, k in zip(words, on, strict=True):
        groups.setdefault(k or 0, []).append(w)
    whole = len(groups) == 1 and len(words) == len(run.words)  # the run's own text, its spaces
    return [OcrBox(run.text if whole else join_text([w.text for w in ws]), (ws[0].box[0], run.box[1], ws[-1].box[2], run.box[3]), run.score,
                   tuple(x for w in ws for x in w.words)) for _, ws in sorted(groups.items())]


def _pass_on(words: Sequence[OcrBox], on: list[int | None]) -> None:
    """Each word on no footprint given the column of the neighbour it stands nearer, again
    until none is left that has a placed neighbour: the blank between two labels' words
    is wider than a word space ("Số lượng  Tỷ trọng", labels wider than their columns, "Tỷ"
    over the gap between them, goes with "trọng"). In place."""
    while True:
        moved = False
        for i, k in enumerate(on):
            if k is not None:
                continue
            near = [(words[i].box[0] - words[i - 1].box[2], i - 1) if i > 0 else None,
                    (words[i + 1].box[0] - words[i].box[2], i + 1) if i + 1 < len(on) else None]
            placed = [n for n in near if n is not None and on[n[1]] is not None]
            if placed:
                on[i] = on[min(placed)[1]]
                moved = True
        if not moved:
            return


def parted(word: OcrBox, cols: Sequence[Span]) -> list[OcrBox]:
    """`word` (one word's ink) parted where it runs across the gap between two columns it stands
    on and its letters show a join there: a closing bracket or a percent sign before the next
    label, an opening bracket after a letter, a small letter before a capital, any two CJK
    characters (a CJK label has no spaces, "人数日付" is "人数" and "日付"), between two
    well-formed figures ("9.353,4688.977", `fused_figures.fused_at`). The recogniser
    drops a space at a column gap a little wider than a word space, so two labels come out as
    one word ("(EUR)Leistung", "(kW)Menge"). The place of each letter is estimated across the
    word's ink (`glyphs.span_x`); a join within a letter of the gap is taken, the nearest first."""
    text = word.text
    x0, x1 = word.box[0], word.box[2]
    hit = [c for c in cols if min(c[1], x1) > max(c[0], x0)]
    if len(hit) < 2 or len(text) < 2:
        return [word]
    pitch = (x1 - x0) / max(char_cells(text), 1)
    gap0, gap1 = hit[0][1], hit[1][0]
    fused = fused_at(text)  # two figures read as one word (`fused_figures`)
    at = {i: span_x(text, x0, x1, 0, i)[1] for i in range(1, len(text)) if _joins(text, i) or i in fused}
    # a bracket's or a capital's join before any two CJK characters' (which part anywhere)
    joins = [(_cjk_only(text, i), abs(x - (gap0 + gap1) / 2), i) for i, x in at.items()
             if gap0 - pitch <= x <= gap1 + pitch]
    if not joins:
        return [word]
    i = min(joins)[2]
    cut = max(gap0, min(gap1, at[i]))
    left = OcrBox(text[:i], (x0, word.box[1], cut, word.box[3]), word.score, ((text[:i], x0, cut),))
    right = OcrBox(text[i:], (cut, word.box[1], x1, word.box[3]), word.score, ((text[i:], cut, x1),))
    return [left, *parted(right, cols)]


def _joins(text: str, i: int) -> bool:
    """Whether two labels may meet between text[i - 1] and text[i]."""
    a, b = text[i - 1], text[i]
    if a in CLOSES:
        return b.isalnum() or b in OPENS
    if b in OPENS:
        return a.isalnum()
    return (a.islower() and b.isupper()) or (is_cjk(a) and is_cjk(b))  # CJK labels part anywhere


def _cjk_only(text: str, i: int) -> bool:
    """Whether the join at `i` is only that of two CJK characters."""
    a, b = text[i - 1], text[i]
    return a not in CLOSES and b not in OPENS and not (a.islower() and b.isupper())


def _on_any(w: OcrBox, cols: Sequence[Span]) -> bool:
    return any(min(c[1], w.box[2]) > max(c[0], w.box[0]) for c in cols)

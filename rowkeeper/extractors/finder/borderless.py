"""Borderless tables in a region of aligned text: columns at the gaps of the words' x
projection, side-by-side tables and key-value blocks one by one, the header row the region left
out, and cell texts from whole words."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.boxes import overlap
from rowkeeper.extractors.finder.aligned_columns import column_gap, rejoin_phrases, whole_phrases
from rowkeeper.extractors.finder.bullet_items import lines_text, without_marker_columns
from rowkeeper.extractors.finder.field_blocks import field_separators
from rowkeeper.extractors.finder.figure_columns import close_figure_columns
from rowkeeper.extractors.finder.header_band import header_band
from rowkeeper.extractors.finder.key_value import blocks_apart, under_blocks
from rowkeeper.extractors.finder.merged_rows import rule_edges
from rowkeeper.extractors.finder.picture_edges import picture_edges
from rowkeeper.extractors.finder.projection import (
    aligned_separators,
    join_unheaded,
    picture_words,
    projection_gaps,
)
from rowkeeper.extractors.finder.reads import TEXT, find_on, words_at
from rowkeeper.extractors.finder.region_trims import (
    drop_margin_numbers,
    few_rows,
    lead_in,
    wide_gaps_only,
)
from rowkeeper.extractors.finder.row_rules import Rules, row_rules, side_by_side
from rowkeeper.extractors.finder.row_rules import pad as _pad
from rowkeeper.extractors.finder.ruled_head import head_rules
from rowkeeper.extractors.finder.tail_columns import join_tail_columns
from rowkeeper.extractors.finder.tick_boxes import Segments, tick_boxes_on
from rowkeeper.extractors.finder.word_lines import reading_order, word_lines
from rowkeeper.extractors.images import MIN_SIDE
from rowkeeper.extractors.note_marks import Mark, marked_words
from rowkeeper.extractors.page_features import rules_of_page
from rowkeeper.models import DocumentInput


def borderless(doc: DocumentInput, page: pymupdf.Page, pno: int,
               kwargs: dict[str, Any], region: Sequence[float], whole: bool = True,
               rules: Rules | None = None, short: Segments | None = None,
               fields: set[int] | None = None) -> list[Any]:
    """A borderless table in an aligned region: columns at the gaps of the words' x
    projection (headers left-aligned over right-aligned numbers stay in their column);
    tables side by side in it (`whole`: not yet split) one by one. `rules` and `short` (tick
    boxes' segments) as the page model read them, else read from the page. The ids of the
    tables read as blocks of fields side by side (keys and values: no header row, their
    first row is one more field) go into `fields`."""
    parts = side_by_side(page, region, rules) if whole else []
    read = _words_in(page, region) if whole and not parts else None
    blocks = blocks_apart(read) if read is not None else []
    cut = under_blocks(read) if read is not None and not blocks else None
    if cut is not None:  # blocks of fields side by side over rows set across: read apart
        return [t for part in ((region[0], region[1], region[2], cut), (region[0], cut, region[2], region[3]))
                for t in borderless(doc, page, pno, kwargs, part, rules=rules, short=short, fields=fields)]
    if blocks:  # fields side by side: keys and values, one table per block
        found = [t for x0, sep, x1 in blocks for t in find_on(doc, page, pno, {
            **kwargs, **TEXT, "vertical_strategy": "explicit", "vertical_lines": [x0, sep, x1],
            "clip": _pad((x0, region[1], x1, region[3]))})]
        if fields is not None:
            fields |= {id(t) for t in found}
        return found
    if parts:
        return [t for part in parts
                for t in borderless(doc, page, pno, kwargs, part, whole=False, rules=rules, short=short,
                                    fields=fields)]
    words = _words_in(page, region) if read is None else read
    head = {id(w) for w in lead_in(words)}
    if head:  # a heading over the table: the region starts under it
        words = [w for w in words if id(w) not in head]
        region = (region[0], min(w[1] for w in words), region[2], region[3])
    pictures = picture_words(_pictures(page, region) + tick_boxes_on(page, region, short))
    words, seps = drop_margin_numbers(words, projection_gaps(words, pictures))
    seps = picture_edges(words, pictures, seps)
    seps = close_figure_columns(words, join_tail_columns(words, join_unheaded(words, aligned_separators(words, seps, pictures))))
    # no white column: a key run into its value crosses every gap; the values' left edge holds
    seps = seps or field_separators(words)
    turns = _print_turns(page, region) if few_rows(words) else ()  # read only where wide_gaps_only weighs them
    seps = without_marker_columns(words, wide_gaps_only(words, seps, turns=turns))
    hs, vs = rules or rules_of_page(page)
    # a ruled header band over the body: its column rules are the boundaries
    seps = head_rules(vs, words, region) or seps
    # rules left out over merged cells (or drawn a piece per column) end at column edges
    seps = rule_edges(hs, words, region, seps) if seps else seps
    if seps:
        words, region = _with_header_band(page, words, seps, region)
    if _one_line(words):
        # one line of text is no table: the rows a read around it finds are the lines over
        # and under it whose glyphs reach into its area (a caption's last line over a ruled
        # table read with the line before it as a 2-row table)
        return []
    if seps:
        # The outer rules on the words' extent: text-strategy row edges reach no further, and
        # a rule beyond them (a line box with leading blanks) would drop the first column.
        left, right = min(w[0] for w in words), max(w[2] for w in words)
        ruled = {**kwargs, "vertical_strategy": "explicit", "horizontal_strategy": "text",
                 "vertical_lines": [left, *seps, right],
                 "clip": _level_clip(words, left, right)}
        ruled.update(row_rules(page, words, [left, *seps, right], region, rules))
        found = find_on(doc, page, pno, ruled)
        if found:
            return found
    return find_on(doc, page, pno, {**kwargs, **TEXT, "clip": _pad(region)})


def _words_in(page: pymupdf.Page, region: Sequence[float]) -> list[Any]:
    """The whole words that start in `region` (with a margin for glyph boxes that overhang it)
    at its middle height: a line of the paragraph over the table whose descenders reach into the
    margin (a lead-in's last line set right on the top rule) is no row of it, and a word
    running past the region's side (a header label's wrapped line wider than its column's
    other lines, which the aligned rows do not measure) keeps its last letters."""
    box = _pad(region)
    strip = pymupdf.Rect(page.rect.x0, box.y0, page.rect.x1, box.y1)
    return [w for w in words_at(page, strip) if box.x0 <= w[0] < box.x1
            and region[1] - 1 <= (w[1] + w[3]) / 2 <= region[3] + 1]


def _print_turns(page: pymupdf.Page, region: Sequence[float]) -> list[float]:
    """x of each text span in `region` set in another face than the span before it on its
    line (a bold key, then its value in regular print)."""
    out: list[float] = []
    for b in page.get_text("dict", clip=_pad(region))["blocks"]:
        for ln in b.get("lines", ()):
            spans = [s for s in ln["spans"] if s["text"].strip()]
            out += [s["bbox"][0] for a, s in zip(spans, spans[1:], strict=False) if s["font"] != a["font"]]
    return out


def _one_line(words: Sequence[Any]) -> bool:
    """Whether `words` stand on one text line: every word's middle within half a line of the
    first one's."""
    if not words:
        return True
    height = sorted(w[3] - w[1] for w in words)[len(words) // 2]
    mid = (words[0][1] + words[0][3]) / 2
    return all(abs((w[1] + w[3]) / 2 - mid) < 0.5 * height for w in words)


def _level_clip(words: Sequence[Any], left: float, right: float) -> pymupdf.Rect:
    """The area a borderless table is read from: its words' extent, padded sideways for glyphs
    that overhang it but barely up and down, since a text read takes in every glyph that
    touches its area (the paragraph line right over the header, its descenders a point into a
    padding, would be read as the table's first row)."""
    return pymupdf.Rect(left - 2, min(w[1] for w in words) - 0.5, right + 2, max(w[3] for w in words) + 0.5)


def _with_header_band(page: pymupdf.Page, words: list[Any], seps: Sequence[float],
                      region: Sequence[float]) -> tuple[list[Any], Sequence[float]]:
    """A borderless table's words and region with the header row over it that the aligned
    region left out (`finder.header_band`), as they were when there is none."""
    left, right = min(w[0] for w in words), max(w[2] for w in words)
    gap, height = column_gap(words), sorted(w[3] - w[1] for w in words)[len(words) // 2]
    top = min(w[1] for w in words)
    strip = (left - 4 * gap, top - 3 * height, right + 6 * gap, top + 1)
    band = header_band(words_at(page, pymupdf.Rect(strip)), words, [left, *seps, right])
    if not band:
        return words, region
    return band + words, (region[0], min(w[1] for w in band), region[2], region[3])


def _pictures(page: pymupdf.Page, region: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """Boxes of the images placed inside `region` (their centres in it), thumbnails in a
    table's picture column; none thinner than `images.MIN_SIDE`, and none around the whole
    region (a scanned page under its OCR text layer, a background: no column's ink)."""
    out = []
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        around = x0 <= region[0] + 1 and y0 <= region[1] + 1 and x1 >= region[2] - 1 and y1 >= region[3] - 1
        if min(x1 - x0, y1 - y0) >= MIN_SIDE and not around and region[0] <= (x0 + x1) / 2 <= region[2] \
                and region[1] <= (y0 + y1) / 2 <= region[3]:
            out.append((x0, y0, x1, y1))
    return out


def beside_tables(region: Sequence[float], tables: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """An aligned region less the part a table over its width takes (the rows of a borderless
    table stacked under a grid of boxes, or lines under a ruled table, ran into one region
    with the table's text): the taller of what is left above and below each table."""
    out = tuple(region)
    for g in tables:
        if overlap(out, g) <= 0 or min(out[2], g[2]) - max(out[0], g[0]) < 0.8 * (out[2] - out[0]):
            continue
        # apart by more than `_borderless`'s padding, or the words on the table's edge come back
        above, below = (out[0], out[1], out[2], g[1] - 2.5), (out[0], g[3] + 2.5, out[2], out[3])
        out = max(above, below, key=lambda b: b[3] - b[1])
    return out


def word_cells(page: pymupdf.Page, tab: Any, rejoin: bool = False,
               marks: Sequence[Mark] = (), fields: bool = False) -> list[list[list[Any]]]:
    """The words of each cell (centre inside the cell): a text-strategy grid cuts words
    that straddle its column edges ("Product Warra" / "nty Rating"); a word belongs to one cell.
    `rejoin` (columns placed from the text): words run on from the cell on their left go back.
    `marks`: the page's note marks after figures, kept apart from their figures (`24.91²`).
    `fields`: a block of fields (`key_value.blocks_apart`), its column boundary on the left
    edge its values share."""
    words = marked_words(words_at(page, _pad(tab.bbox, 1.0)), marks)
    # a label phrase over a column boundary (placed from the text: no rule stops it) goes
    # whole to one column
    at = whole_phrases(words, _inner_edges(tab), column_gap(words), fields) if words else {}
    # words by the height of their centre: a cell looks only at those level with it (in the
    # words' own order, which the stable sort below keeps among equals)
    by_y = sorted(((w[1] + w[3]) / 2, k) for k, w in enumerate(words))
    ys = [y for y, _ in by_y]
    cells: list[list[list[Any]]] = []
    for row in tab.rows:
        cells.append([])
        for c in row.cells:
            level = [] if c is None else sorted(k for _, k in by_y[bisect_left(ys, c[1]):bisect_left(ys, c[3])])
            inside = [w for w in (words[k] for k in level) if c[0] <= at.get(id(w), (w[0] + w[2]) / 2) < c[2]]
            cells[-1].append(reading_order(inside))
    if rejoin and words:
        cells = rejoin_phrases(cells, column_gap(words))
    return cells


def cell_texts(tab: Any, cells: Sequence[Sequence[Sequence[Any]]]) -> list[list[str | None]]:
    """Each cell's text from its words (`word_cells`), None for a slot a span covers."""
    return [[None if c is None else _cell_text([w for w in ws if not _leader(w[4])])
             for c, ws in zip(row.cells, texts, strict=True)] for row, texts in zip(tab.rows, cells, strict=True)]


def label_starts(cells: Sequence[Sequence[Sequence[Any]]]) -> list[float | None]:
    """Per grid row, where its first cell's text starts (x), None where it holds none: a row
    label's indent."""
    return [min((w[0] for w in row[0]), default=None) if row else None for row in cells]


def _cell_text(words: Sequence[Any]) -> str:
    """A cell's words in their order, a space between words of a line, its printed lines
    joined as `bullet_items.lines_text` joins them (a list item after CJK text with none)."""
    line_of = {id(w): k for k, ln in enumerate(word_lines(words)) for w in ln}
    lines: list[list[str]] = []
    for i, w in enumerate(words):
        if i == 0 or line_of[id(w)] != line_of[id(words[i - 1])]:
            lines.append([])
        lines[-1].append(w[4])
    return lines_text([" ".join(ln) for ln in lines])


def _inner_edges(tab: Any) -> list[float]:
    """x of the column boundaries inside a table (its cells' left edges but the first)."""
    xs = sorted({round(c[0], 2) for r in tab.rows for c in r.cells if c})
    return xs[1:]


def _leader(word: str) -> bool:
    """Dot leaders and typed rules ("......", "-----"); a lone "-" is a value (nil) and stays."""
    return len(word) >= 3 and not word.strip(".…·-_=─—")

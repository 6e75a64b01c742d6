"""PyMuPDF `Page.find_tables()`: the cheapest text-layer table layer (ruled grids by default).

PyMuPDF 1.28.x reads cell text correctly; 2.0 garbles it (`01-001` -> `01001\\n-`), hence the
pin in pyproject.toml and tests/extractors/test_pymupdf_pin.py.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import pymupdf
from pydantic import BaseModel, ConfigDict

from extractors.page_features import page_features
from extractors.row_rules import packed_row_rules, row_rules, side_by_side
from extractors.text_layer import (
    cells_from_rows,
    drop_empty_rows,
    flag_bold_header,
    lines_of_dict,
    map_bbox,
    merge_wrapped_rows,
    open_pdf,
    page_dict,
    spans_of_dict,
    upright_copy,
    upright_rotation,
)
from rowkeeper.errors import BadInput
from rowkeeper.ids import piece_id
from rowkeeper.models import DocumentInput, Extraction, PageKind, RawTable

Strategy = Literal["lines", "lines_strict", "text"]


class PyMuPDFOptions(BaseModel):
    """Options of `find_tables` (names as in PyMuPDF's documentation)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    vertical_strategy: Strategy = "lines"
    horizontal_strategy: Strategy = "lines"
    snap_tolerance: float = 3.0
    join_tolerance: float = 3.0
    edge_min_length: float = 3.0
    min_words_vertical: float = 3.0
    min_words_horizontal: float = 1.0
    text_tolerance: float = 3.0
    use_layout: bool = False
    """PyMuPDF's layout gate needs its layout model, which rowkeeper never downloads."""
    refine: bool = False
    text_in_aligned_regions: bool = True
    """Also read borderless tables: `text` strategy clipped to each run of aligned text columns
    that no ruled table covers (the whole-page text strategy swallows titles and prose)."""
    """Let PyMuPDF split rows/columns its line grid merged (where the installed version has it)."""
    min_rows: int = 2
    min_cols: int = 2


class PyMuPDFExtractor:
    """Tables from PyMuPDF's `find_tables`, one RawTable per table found on a page."""

    name: ClassVar[str] = "pymupdf"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"text"})
    Options: ClassVar[type[BaseModel]] = PyMuPDFOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, PyMuPDFOptions) else PyMuPDFOptions()

    @property
    def version(self) -> str:
        """PyMuPDF's version."""
        return str(pymupdf.VersionBind)

    def extract(self, doc: DocumentInput, pages: Sequence[int]) -> Extraction:
        """Tables found on `pages` (1-based)."""
        kwargs = _supported(self.options.model_dump(exclude={"min_rows", "min_cols", "text_in_aligned_regions"}))
        tables: list[RawTable] = []
        with open_pdf(doc) as pdf:
            for pno in pages:
                tables.extend(self.sideways_tables(doc, pdf, pno, kwargs)
                              or self.page_tables(doc, pdf[pno - 1], pno, kwargs))
        return Extraction(tables=tuple(tables))

    def _repair(self, doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                tab: Any) -> Any:
        """A table ruled between rows only, re-read with columns from text alignment."""
        if not _degenerate(tab):
            return tab
        for strategy in (_TEXT_COLUMNS, _TEXT):
            again = _find(doc, page, pno, {**kwargs, **strategy, "clip": _pad(tab.bbox)})
            if len(again) == 1 and not _degenerate(again[0]):
                break
        else:
            return tab
        # Text columns start at the left edge of right-aligned numbers, cutting wider header
        # labels; rules placed in the middle of each gap between columns keep both whole.
        xs = _gap_midlines(page, again[0])
        if not xs:
            return again[0]
        ruled = {**kwargs, "vertical_strategy": "explicit", "horizontal_strategy": strategy["horizontal_strategy"],
                 "vertical_lines": [tab.bbox[0], *xs, tab.bbox[2]], "clip": _pad(tab.bbox)}
        final = _find(doc, page, pno, ruled)
        return final[0] if len(final) == 1 and not _degenerate(final[0]) else again[0]

    def _borderless(self, doc: DocumentInput, page: pymupdf.Page, pno: int,
                    kwargs: dict[str, Any], region: Sequence[float], whole: bool = True) -> list[Any]:
        """A borderless table in an aligned region: columns at the gaps of the words' x
        projection (headers left-aligned over right-aligned numbers stay in their column);
        tables side by side in it (`whole`: not yet split) one by one."""
        parts = side_by_side(page, region) if whole else []
        if parts:
            return [t for part in parts for t in self._borderless(doc, page, pno, kwargs, part, whole=False)]
        words = page.get_text("words", clip=_pad(region))
        words, seps = _drop_margin_numbers(words, _projection_gaps(words))
        if seps:
            # The outer rules on the words' extent: text-strategy row edges reach no further, and
            # a rule beyond them (a line box with leading blanks) would drop the first column.
            left, right = min(w[0] for w in words), max(w[2] for w in words)
            ruled = {**kwargs, "vertical_strategy": "explicit", "horizontal_strategy": "text",
                     "vertical_lines": [left, *seps, right],
                     "clip": _pad((left, region[1], right, region[3]))}
            ruled.update(row_rules(page, words, [left, *seps, right], region))
            found = _find(doc, page, pno, ruled)
            if found:
                return found
        return _find(doc, page, pno, {**kwargs, **_TEXT, "clip": _pad(region)})

    def sideways_tables(self, doc: DocumentInput, pdf: pymupdf.Document, pno: int,
                        kwargs: dict[str, Any]) -> list[RawTable]:
        """Tables of a page whose text runs sideways (a landscape table printed at 90 degrees)
        or that is shown turned (/Rotate): read on an upright copy, boxes mapped back to the
        page; [] for an upright page.

        A /Rotate page whose text reads upright as shown is baked too: its words, drawings and
        candidate regions are in unrotated space while find_tables works in rotated space, so
        read in place its columns come out as rows (or its clip cuts the table)."""
        page = pdf[pno - 1]
        rotation = upright_rotation(page_dict(page), page.rotation)
        if rotation is None:
            rotation = page.rotation % 360
        if rotation == 0:
            return []
        with upright_copy(pdf, pno, rotation) as (upright, back):
            found = self.page_tables(doc, upright, pno, kwargs)
        return [t.model_copy(update={
            "bbox": map_bbox(t.bbox, back),
            "cells": tuple(c.model_copy(update={"bbox": map_bbox(c.bbox, back)}) if c.bbox else c
                           for c in t.cells)}) for t in found]

    def page_tables(self, doc: DocumentInput, page: pymupdf.Page, pno: int,
                    kwargs: dict[str, Any]) -> list[RawTable]:
        """RawTables of one open page."""
        d = page_dict(page)
        feats = page_features(page, pno, lines_of_dict(pno, d))
        clip = _clip(feats.ruled_regions + feats.aligned_regions, page.rect)
        # find_tables reads every char of its area in Python and looks above each table for
        # an external header: clipping to the candidate regions makes prose pages cheap.
        first = _find(doc, page, pno, {**kwargs, "clip": clip} if clip else kwargs)
        found = [self._repair(doc, page, pno, kwargs, t) for t in first]
        ruled = [_ruled_fixups(doc, page, pno, kwargs, t) for t in found if any(t is f for f in first)]
        found = ruled + [t for t in found if not any(t is f for f in first)]
        ruled_ids = {id(t) for t in ruled}
        if self.options.text_in_aligned_regions:
            for r in feats.aligned_regions:
                if all(_overlap(r, tuple(t.bbox)) < 0.5 * _area(r) for t in found):
                    found += self._borderless(doc, page, pno, kwargs, r)
        spans = spans_of_dict(d) if found else []
        out = []
        for tab in found:
            if tab.row_count < self.options.min_rows or tab.col_count < self.options.min_cols:
                continue
            rows = [list(r.cells) for r in tab.rows]
            if id(tab) in ruled_ids:
                texts = tab.extract()
            else:
                rows, texts = merge_wrapped_rows(rows, _word_texts(page, tab))
            cells, n_rows, n_cols = cells_from_rows(rows, texts, pno, spans)
            cells, n_rows = drop_empty_rows(cells, n_rows)
            if n_rows < self.options.min_rows:
                continue
            out.append(RawTable(
                piece_id=piece_id(doc.doc_id, pno, len(out) + 1), doc_id=doc.doc_id, page=pno,
                bbox=tuple(round(v, 2) for v in tab.bbox), n_rows=n_rows, n_cols=n_cols,
                cells=flag_bold_header(cells), extractor=self.name, extractor_version=self.version,
            ))
        return out


def _stub_column(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any) -> Any:
    """A ruled table whose row labels stand left of its first rule (an open stub column): the
    table re-read with one more rule left of the labels, so they keep their rows.

    Labels count when words (mostly letters) left of the grid, ending within `_STUB_GAP` of it, sit in at least
    half of the rows, and the text they stand in does not go on above or below the table (that
    is a paragraph in the next column of the page, whose lines fall into rows by chance)."""
    x0, top, _, bottom = tab.bbox
    rows = [r.bbox for r in tab.rows]
    words = [w for w in page.get_text("words", clip=pymupdf.Rect(0, top, x0, bottom))
             if w[2] <= x0 + 0.5 and w[4].strip()]
    if not words or x0 - max(w[2] for w in words) > _STUB_GAP:
        return tab
    if sum(any(ch.isalpha() for ch in w[4]) for w in words) < 0.5 * len(words):
        return tab  # labels are words: a column of codes or numbers out there is not the stub
    if any(not any(r[1] <= (w[1] + w[3]) / 2 <= r[3] for r in rows) for w in words):
        return tab
    labelled = {i for i, r in enumerate(rows) for w in words if r[1] <= (w[1] + w[3]) / 2 <= r[3]}
    if len(labelled) < max(2, 0.5 * len(rows)):
        return tab
    left = min(w[0] for w in words) - 1.0
    pitch = 1.5 * sorted(w[3] - w[1] for w in words)[len(words) // 2]
    beside = pymupdf.Rect(left, top - pitch, max(w[2] for w in words), bottom + pitch)
    if any(not top <= (w[1] + w[3]) / 2 <= bottom for w in page.get_text("words", clip=beside)):
        return tab
    edges = sorted({round(r[1], 2) for r in rows} | {round(bottom, 2)})
    again = _find(doc, page, pno, {**kwargs, "vertical_lines": [left], "horizontal_lines": edges,
                                   "clip": _pad((left, top, tab.bbox[2], bottom))})
    return again[0] if len(again) == 1 and again[0].col_count == tab.col_count + 1 else tab


def _ruled_fixups(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any) -> Any:
    """A ruled table with its packed rows split, then its open stub column added (the second
    re-read keeps the rules the first one added)."""
    tab, kwargs = _split_packed_rows(doc, page, pno, kwargs, tab)
    return _stub_column(doc, page, pno, kwargs, tab)


def _split_packed_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                       tab: Any) -> tuple[Any, dict[str, Any]]:
    """A ruled table re-read with `packed_row_rules` added (and the kwargs that did it), so
    the lines of figures in its frame become rows of cells; as it was when none apply."""
    add = packed_row_rules(page, tab)
    if not add:
        return tab, kwargs
    more = {**kwargs, "add_lines": add}
    again = _find(doc, page, pno, {**more, "clip": _pad(tab.bbox)})
    if len(again) == 1 and again[0].row_count > tab.row_count:
        return again[0], more
    return tab, kwargs


_STUB_GAP = 60.0
"""Points between row labels and a grid's first rule beyond which the words are not its labels."""

_TEXT = {"vertical_strategy": "text", "horizontal_strategy": "text"}
_TEXT_COLUMNS = {"vertical_strategy": "text", "horizontal_strategy": "lines"}


def _clip(regions: Sequence[Sequence[float]], page: pymupdf.Rect, by: float = 4.0) -> pymupdf.Rect | None:
    """The candidate regions' union, padded and kept on the page; None when there is none."""
    if not regions:
        return None
    box = _pad((min(r[0] for r in regions), min(r[1] for r in regions),
                max(r[2] for r in regions), max(r[3] for r in regions)), by)
    return box & page


def _pad(r: Sequence[float], by: float = 2.0) -> pymupdf.Rect:
    return pymupdf.Rect(r[0] - by, r[1] - by, r[2] + by, r[3] + by)


def _degenerate(tab: Any) -> bool:
    """Most rows are one cell across the table: rules between rows only, no column rules."""
    if tab.col_count < 2:
        return True
    single = sum(1 for r in tab.rows if sum(c is not None for c in r.cells) <= 1)
    return single > 0.5 * max(tab.row_count, 1)


def _gap_midlines(page: pymupdf.Page, tab: Any) -> list[float]:
    """x of the middle of the empty gap between each pair of neighbouring columns."""
    starts = [min((row.cells[j][0] for row in tab.rows if row.cells[j]), default=None)
              for j in range(tab.col_count)]
    if any(x is None for x in starts):
        return []
    lo = [float("inf")] * tab.col_count
    hi = [float("-inf")] * tab.col_count
    for w in page.get_text("words", clip=pymupdf.Rect(tab.bbox)):
        cx = (w[0] + w[2]) / 2
        j = max(i for i, x in enumerate(starts) if x <= cx + 0.5) if cx + 0.5 >= starts[0] else 0
        lo[j], hi[j] = min(lo[j], w[0]), max(hi[j], w[2])
    out = []
    for j in range(1, tab.col_count):
        if hi[j - 1] < lo[j]:
            out.append((hi[j - 1] + lo[j]) / 2)
        else:
            out.append(starts[j])
    return out


def _projection_gaps(words: Sequence[Any]) -> list[float]:
    """x of the middle of each gap, wider than a word space, in the union of the words' spans;
    a header-only column is merged into its neighbour (a left-aligned label over right-aligned
    numbers projects apart from them)."""
    words = [w for w in words if w[4].strip(".-_·…")]  # dot leaders and rules span columns
    if not words:
        return []
    # Spanning group headers ("Design effect" over six columns) would close every gap below
    # them: the gaps come from the rows holding numbers when there are enough of them.
    # A row counts when most of its phrases (words closer than a word space) are numbers: a
    # title's "Table 21" does not make it one, a long label beside its figures does not stop it.
    per_row: dict[int, list[Any]] = {}
    for w in words:
        per_row.setdefault(round(w[3] / 3), []).append(w)
    numeric_rows = {r for r, row in per_row.items() if _mostly_numbers(row)}
    body = [w for w in words if round(w[3] / 3) in numeric_rows]
    if len(numeric_rows) >= 3:
        return _merge_header_only(words, _gaps(body))
    return _merge_header_only(words, _gaps(words))


def _mostly_numbers(row: Sequence[Any]) -> bool:
    """Whether at least half the phrases of a row's words are numbers (at least as many digits
    as letters: "2,340", "Q1", "FY2023"); words closer than half their height are one phrase."""
    phrases: list[str] = []
    end = None
    for w in sorted(row, key=lambda w: w[0]):
        if end is not None and w[0] - end < 0.5 * (w[3] - w[1]):
            phrases[-1] += " " + w[4]
        else:
            phrases.append(w[4])
        end = w[2] if end is None else max(end, w[2])
    numbers = sum(sum(ch.isdigit() for ch in p) >= max(1, sum(ch.isalpha() for ch in p))
                  for p in phrases)
    return numbers >= 0.5 * len(phrases)


def _drop_margin_numbers(words: list[Any], seps: list[float]) -> tuple[list[Any], list[float]]:
    """Words and gaps without an edge column that holds one number in one inner row: a page
    number or margin mark printed level with a row, not a column of the table."""
    rows = sorted({round(w[3] / 3) for w in words})
    for edge in (0, -1):
        if not seps or len(rows) < 4:
            break
        outside = [w for w in words if ((w[0] + w[2]) / 2 < seps[0] if edge == 0 else (w[0] + w[2]) / 2 > seps[-1])]
        at = {round(w[3] / 3) for w in outside}
        if len(at) == 1 and rows[0] not in at and rows[-1] not in at and all(
                any(ch.isdigit() for ch in w[4]) and not any(ch.isalpha() for ch in w[4]) for w in outside):
            words = [w for w in words if w not in outside]
            seps = seps[1:] if edge == 0 else seps[:-1]
    return words, seps


def _gaps(words: Sequence[Any]) -> list[float]:
    heights = sorted(w[3] - w[1] for w in words)
    widths = sorted((w[2] - w[0]) / max(len(w[4]), 1) for w in words)
    # A word space is ~0.3 em and a character ~0.5 em (one full character in monospace reports,
    # whose columns may be one space apart): a gap of 0.75 characters separates columns.
    min_gap = max(0.75 * widths[len(widths) // 2], 0.2 * heights[len(heights) // 2], 1.5)
    spans = sorted((w[0], w[2]) for w in words)
    seps, end = [], spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - end >= min_gap:
            seps.append((x0 + end) / 2)
        end = max(end, x1)
    return seps


def _merge_header_only(words: Sequence[Any], seps: list[float]) -> list[float]:
    top_rows = sorted({round(w[3] / 3) for w in words})[:2]
    while True:
        bounds = [-1e9, *seps, 1e9]
        cols = [{round(w[3] / 3) for w in words if bounds[i] <= (w[0] + w[2]) / 2 < bounds[i + 1]}
                for i in range(len(bounds) - 1)]
        for i, rows in enumerate(cols):
            if rows and rows <= set(top_rows):
                near = [j for j in (i + 1, i - 1) if 0 <= j < len(cols) and cols[j] and not rows & cols[j]]
                if near:
                    j = near[0]  # the column to the right first: labels sit left over numbers
                    del seps[min(i, j)]
                    break
        else:
            return seps


def _leader(word: str) -> bool:
    """Dot leaders and typed rules ("......", "-----"); a lone "-" is a value (nil) and stays."""
    return len(word) >= 3 and not word.strip(".…·-_=─—")


def _word_texts(page: pymupdf.Page, tab: Any) -> list[list[str | None]]:
    """Cell texts from whole words (centre inside the cell): a text-strategy grid cuts words
    that straddle its column edges ("Product Warra" / "nty Rating"); a word belongs to one cell."""
    words = page.get_text("words", clip=_pad(tab.bbox, 1.0))
    out: list[list[str | None]] = []
    for row in tab.rows:
        texts: list[str | None] = []
        for c in row.cells:
            if c is None:
                texts.append(None)
                continue
            inside = [w for w in words if c[0] <= (w[0] + w[2]) / 2 < c[2] and c[1] <= (w[1] + w[3]) / 2 < c[3]]
            inside.sort(key=lambda w: (round(w[3]), w[0]))
            texts.append(" ".join(w[4] for w in inside if not _leader(w[4])))
        out.append(texts)
    return out


def _find(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any]) -> list[Any]:
    try:
        return list(page.find_tables(**kwargs).tables)
    except (RuntimeError, ValueError) as e:
        raise BadInput(f"{doc.source} page {pno}: PyMuPDF find_tables failed ({e})") from e


def _area(r: Sequence[float]) -> float:
    return max(r[2] - r[0], 0.0) * max(r[3] - r[1], 0.0)


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _supported(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Only the keyword arguments this PyMuPDF's find_tables accepts (use_layout/refine are new)."""
    from pymupdf import table as _table

    params = inspect.signature(_table.find_tables).parameters
    return {k: v for k, v in kwargs.items() if k in params}

"""The text-layer table layer: PyMuPDF `Page.find_tables()` for ruled grids, then rowkeeper's own
finder strategies (`extractors/finder/`: ruled repairs and rows, borderless regions, boxed cells,
key-value blocks) over the page model, one candidate selection per page.

PyMuPDF 1.28.x reads cell text correctly; 2.0 garbles it (`01-001` -> `01001\\n-`), hence the
pin in pyproject.toml and tests/extractors/test_pymupdf_pin.py.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import pymupdf
from pydantic import BaseModel, ConfigDict

from rowkeeper.boxes import area, overlap
from rowkeeper.extractors.finder.borderless import (
    beside_tables,
    borderless,
    cell_texts,
    label_starts,
    word_cells,
)
from rowkeeper.extractors.finder.boxed_cells import BoxGrid, grid_rows
from rowkeeper.extractors.finder.bullet_items import join_bullet_items
from rowkeeper.extractors.finder.bullet_lists import is_bullet_list
from rowkeeper.extractors.finder.candidates import owned_once
from rowkeeper.extractors.finder.filled_lines import run_on_breaks, run_on_cells
from rowkeeper.extractors.finder.key_value import (
    KEY_VALUE,
    fields_across,
    key_value_pairs,
    split_pairs,
)
from rowkeeper.extractors.finder.label_tails import join_label_tails
from rowkeeper.extractors.finder.merged_rows import merged_across, merged_down
from rowkeeper.extractors.finder.reads import find_on, words_at
from rowkeeper.extractors.finder.row_rules import pad as _pad
from rowkeeper.extractors.finder.rule_crossers import whole_words_over_rules
from rowkeeper.extractors.finder.ruled_head import without_ruled_heads
from rowkeeper.extractors.finder.ruled_repairs import repair, ruled_fixups, unpack
from rowkeeper.extractors.finder.ruled_rows import split_paragraph_rows, split_stacked_spans
from rowkeeper.extractors.finder.shared_cells import own_parts
from rowkeeper.extractors.finder.side_by_side import MIN_BLOCK_COLS, split_side_by_side
from rowkeeper.extractors.finder.underlined_labels import underlined_spans
from rowkeeper.extractors.finder.wrapped_records import join_wrapped_records
from rowkeeper.extractors.note_marks import note_marks
from rowkeeper.extractors.page_model import DocumentModel, PageModel, document_of
from rowkeeper.extractors.pymupdf_tables import hide, reading
from rowkeeper.extractors.text_cells import (
    cells_from_rows,
    drop_empty_rows,
    flag_bold_header,
    merge_wrapped_rows,
    spans_of_dict,
)
from rowkeeper.extractors.upright import map_table, upright_copy
from rowkeeper.ids import piece_id
from rowkeeper.models import UNDERLINED_SPANS, DocumentInput, Extraction, PageKind, RawTable

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

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """Tables found on `pages` (1-based), read from `model` when the document is open."""
        kwargs = _supported(self.options.model_dump(exclude={"min_rows", "min_cols", "text_in_aligned_regions"}))
        tables: list[RawTable] = []
        with document_of(doc, model) as m:
            for view in m.pages(pages):
                with reading():  # the page's find_tables calls share their reads
                    tables.extend(self.sideways_tables(doc, m.pdf, view.pno, kwargs, view)
                                  or self.page_tables(doc, view.page, view.pno, kwargs, view))
        return Extraction(tables=tuple(tables))

    def sideways_tables(self, doc: DocumentInput, pdf: pymupdf.Document, pno: int,
                        kwargs: dict[str, Any], view: PageModel | None = None) -> list[RawTable]:
        """Tables of a page whose text runs sideways (a landscape table printed at 90 degrees)
        or that is shown turned (/Rotate): read on an upright copy, boxes mapped back to the
        page; [] for an upright page.

        A /Rotate page whose text reads upright as shown is baked too: its words, drawings and
        candidate regions are in unrotated space while find_tables works in rotated space, so
        read in place its columns come out as rows (or its clip cuts the table)."""
        view = view or PageModel(pdf[pno - 1], pno)
        page = view.page
        rotation = view.upright
        if rotation is None:
            rotation = page.rotation % 360
        if rotation == 0:
            return []
        with upright_copy(pdf, pno, rotation) as (upright, back):
            found = self.page_tables(doc, upright, pno, kwargs)
        return [map_table(t, back) for t in found]

    def page_tables(self, doc: DocumentInput, page: pymupdf.Page, pno: int,
                    kwargs: dict[str, Any], view: PageModel | None = None) -> list[RawTable]:
        """RawTables of one open page (`view`: its page model, when the caller has one)."""
        view = view or PageModel(page, pno)
        d = view.raw
        hide(page, view.hidden, view.hidden_spans)  # cells read what the page shows
        feats = view.features
        clip = _clip(feats.ruled_regions + feats.aligned_regions, page.rect)
        # find_tables reads every char of its area in Python and looks above each table for
        # an external header: clipping to the candidate regions makes prose pages cheap.
        first = find_on(doc, page, pno, {**kwargs, "clip": clip} if clip else kwargs)
        found = [repair(doc, page, pno, kwargs, t) for t in first]
        stubbed = [ruled_fixups(doc, page, pno, kwargs, t, view.rules) for t in found if any(t is f for f in first)]
        ruled = [unpack(doc, page, pno, kwargs, t) for t in stubbed]
        found = ruled + [t for t in found if not any(t is f for f in first)]
        # a grid of boxes with gutters, or of tinted cells that a region pass took for a table:
        # the single boxes find_tables may read are its cells
        grids = list(view.grids) + _tinted_grids(view)
        found = [t for t in found if not any(overlap(tuple(t.bbox), g.bbox) > 0.5 * area(t.bbox) for g in grids)]
        # an unpacked grid's rows come from the text: read like a borderless one
        ruled_ids = {id(t) for t, s in zip(ruled, stubbed, strict=True) if t is s}
        from_text: set[int] = set()  # read from aligned text: their columns come from the words
        fields: set[int] = set()  # blocks of fields side by side: keys and values, no header
        if self.options.text_in_aligned_regions:
            # the aligned text of a region runs on into a grid of boxes or a ruled table over its
            # width (a page's footer lines level with its last record): the rest is read alone
            walls = [g.bbox for g in grids] + [tuple(t.bbox) for t in ruled if t.row_count >= 3 and t in found]
            for r in (beside_tables(r, walls) for r in feats.aligned_regions):
                # covered by ruled tables together too: a caption between two stacked grids
                # runs their aligned text into one region that each covers half of
                # a ruled read of one column (a frame ruled between rows only) is no table
                if sum(overlap(r, tuple(t.bbox)) for t in found if t.col_count >= self.options.min_cols) \
                        + sum(overlap(r, g.bbox) for g in grids) \
                        < 0.5 * area(r):
                    more = borderless(doc, page, pno, kwargs, r, rules=view.rules, short=view.short_segments,
                                      fields=fields)
                    found += more
                    from_text |= {id(t) for t in more}
            # a ruled header band over a body read from the text: that read holds the header
            heads = {id(t) for t in ruled} - {id(t) for t in without_ruled_heads(ruled, [t for t in found if id(t) in from_text])}
            found = [t for t in found if id(t) not in heads]
        spans = spans_of_dict(d) if found or grids else []
        marks = note_marks(d) if found else []
        out = [self._boxed(doc, page, pno, g, i + 1, spans) for i, g in enumerate(grids)]
        for tab in found:
            if tab.row_count < self.options.min_rows or tab.col_count < self.options.min_cols:
                continue
            rows = [list(r.cells) for r in tab.rows]
            if id(tab) in ruled_ids:
                rows, texts = split_stacked_spans(page, tab, rows, tab.extract())
                rows, texts = split_paragraph_rows(page, rows, texts)
                texts = whole_words_over_rules(page, tab.bbox, rows, texts)
                texts = run_on_breaks(page, tab.bbox, rows, texts)
            else:
                words = word_cells(page, tab, id(tab) in from_text, marks, id(tab) in fields)
                rows, texts, words = join_wrapped_records(rows, run_on_cells(words, cell_texts(tab, words)), words)
                rows, texts = merge_wrapped_rows(*join_bullet_items(
                    *join_label_tails(rows, texts, label_starts(words))))
                if is_bullet_list(texts):
                    continue  # list items beside their markers line up like columns
                rows, texts = merged_across(rows, texts, [w for row in words for ws in row for w in ws], view.rules[0])
                rows, texts = merged_down(rows, texts, view.rules[0])
            cells, n_rows, n_cols = cells_from_rows(rows, texts, pno, spans)
            cells, n_rows = drop_empty_rows(cells, n_rows)
            if n_rows < self.options.min_rows:
                continue
            pairs = key_value_pairs(cells, n_cols) if id(tab) in from_text else []
            if not pairs and id(tab) in fields and n_cols == 2:
                pairs = [(0, 1)]  # a block of fields beside another: its first row is a field too
            if not pairs and id(tab) in from_text and fields_across(cells, n_rows, n_cols):
                out.append(self._table(doc, pno, len(out) + 1, tab.bbox, cells, (n_rows, n_cols), {KEY_VALUE: 1.0}))
                continue  # two rows of fields set across: the first is one more field
            if pairs:
                out += [self._table(doc, pno, len(out) + i + 1, _cells_box(kv), kv, metrics={KEY_VALUE: 1.0})
                        for i, kv in enumerate(split_pairs(cells, pairs))]
                continue
            metrics: dict[str, float] = {}
            if id(tab) not in ruled_ids:  # a group label's underline says which columns it heads
                spanned = underlined_spans(cells, n_rows, view.rules[0], functools.partial(words_at, page, _pad(tab.bbox, 1.0)))
                metrics = {UNDERLINED_SPANS: 1.0} if len(spanned) < len(cells) else {}
                cells = spanned
            out.append(self._table(doc, pno, len(out) + 1, tab.bbox, flag_bold_header(cells), (n_rows, n_cols), metrics))
        return _select(doc, pno, _blocks_apart(out, view), view)

    def _boxed(self, doc: DocumentInput, page: pymupdf.Page, pno: int, grid: BoxGrid, n: int,
               spans: Sequence[Any]) -> RawTable:
        """The n-th RawTable of page `pno`, read from a grid of cell boxes (`box_grids`)."""
        rows, texts = grid_rows(grid, words_at(page, _pad(grid.bbox, 1.0)))
        cells, n_rows, n_cols = cells_from_rows(rows, texts, pno, spans)
        return self._table(doc, pno, n, grid.bbox, flag_bold_header(cells), (n_rows, n_cols))

    def _table(self, doc: DocumentInput, pno: int, n: int, bbox: Sequence[float], cells: Sequence[Any],
               shape: tuple[int, int] | None = None, metrics: dict[str, float] | None = None) -> RawTable:
        """The n-th RawTable of page `pno` (`shape`: rows and columns, else the cells' extent)."""
        n_rows, n_cols = shape or (max((c.row + c.row_span for c in cells), default=0),
                                   max((c.col + c.col_span for c in cells), default=0))
        return RawTable(
            piece_id=piece_id(doc.doc_id, pno, n), doc_id=doc.doc_id, page=pno,
            bbox=tuple(round(v, 2) for v in bbox), n_rows=n_rows, n_cols=n_cols, cells=tuple(cells),
            extractor=self.name, extractor_version=self.version, metrics=metrics or {})


def _tinted_grids(view: PageModel) -> list[BoxGrid]:
    """The grids of tinted cells (`finder.filled_cells`) the page's region passes took for tables."""
    regions = view.features.ruled_regions
    return [g for g in view.tinted if g.bbox in regions] if regions else []


def _select(doc: DocumentInput, pno: int, tables: Sequence[RawTable], view: PageModel) -> list[RawTable]:
    """The page's candidate tables (found order: ruled grids, then reads of the text) with no
    text line in two of them (`candidates.owned_once`), numbered again in that order."""
    kept = own_parts([tables[i] for i in owned_once([t.bbox for t in tables], [ln.bbox for ln in view.lines])])
    if len(kept) == len(tables):
        return kept
    return [t.model_copy(update={"piece_id": piece_id(doc.doc_id, pno, n)}) for n, t in enumerate(kept, start=1)]


def _blocks_apart(tables: Sequence[RawTable], view: PageModel) -> list[RawTable]:
    """Tables whose columns repeat one block's layout side by side, one per block
    (`finder.side_by_side`); the page's words are read only for a table that may be one."""
    if not any(t.n_cols >= 2 * MIN_BLOCK_COLS for t in tables):
        return list(tables)
    words = view.words()
    return [part for t in tables for part in split_side_by_side(t, words)]


def _cells_box(cells: Sequence[Any]) -> tuple[float, float, float, float]:
    """The union of the cells' boxes."""
    boxes = [c.bbox for c in cells if c.bbox]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _clip(regions: Sequence[Sequence[float]], page: pymupdf.Rect, by: float = 4.0) -> pymupdf.Rect | None:
    """The candidate regions' union, padded and kept on the page; None when there is none."""
    if not regions:
        return None
    box = _pad((min(r[0] for r in regions), min(r[1] for r in regions),
                max(r[2] for r in regions), max(r[3] for r in regions)), by)
    return box & page


def _supported(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Only the keyword arguments this PyMuPDF's find_tables accepts (use_layout/refine are new)."""
    from pymupdf import table as _table

    params = inspect.signature(_table.find_tables).parameters
    return {k: v for k, v in kwargs.items() if k in params}

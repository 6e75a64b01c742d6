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

from rowkeeper.extractors.finder.aligned_columns import column_gap, rejoin_phrases, whole_phrases
from rowkeeper.extractors.finder.boxed_cells import BoxGrid, box_grids, grid_rows
from rowkeeper.extractors.finder.candidates import owned_once
from rowkeeper.extractors.finder.header_band import header_band
from rowkeeper.extractors.finder.key_value import (
    KEY_VALUE,
    blocks_apart,
    key_value_pairs,
    split_pairs,
)
from rowkeeper.extractors.finder.projection import (
    aligned_separators,
    drop_margin_numbers,
    is_figure,
    lead_in,
    mostly_numbers,
    picture_words,
    projection_gaps,
)
from rowkeeper.extractors.finder.row_rules import packed_row_rules, row_rules, side_by_side
from rowkeeper.extractors.finder.row_rules import pad as _pad
from rowkeeper.extractors.finder.rule_joints import joint_row_rules
from rowkeeper.extractors.finder.ruled_grid import drawn_paths
from rowkeeper.extractors.images import MIN_SIDE
from rowkeeper.extractors.page_model import DocumentModel, PageModel, document_of, words_in
from rowkeeper.extractors.pymupdf_tables import find, per_page, reading
from rowkeeper.extractors.text_layer import (
    cells_from_rows,
    drop_empty_rows,
    flag_bold_header,
    map_table,
    merge_wrapped_rows,
    spans_of_dict,
    upright_copy,
)
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
        blocks = blocks_apart(_words(page, _pad(region))) if whole and not parts else []
        if blocks:  # fields side by side: keys and values, one table per block
            return [t for x0, sep, x1 in blocks for t in _find(doc, page, pno, {
                **kwargs, **_TEXT, "vertical_strategy": "explicit", "vertical_lines": [x0, sep, x1],
                "clip": _pad((x0, region[1], x1, region[3]))})]
        if parts:
            return [t for part in parts for t in self._borderless(doc, page, pno, kwargs, part, whole=False)]
        words = _words(page, _pad(region))
        head = {id(w) for w in lead_in(words)}
        if head:  # a heading over the table: the region starts under it
            words = [w for w in words if id(w) not in head]
            region = (region[0], min(w[1] for w in words), region[2], region[3])
        pictures = picture_words(_pictures(page, region))
        words, seps = drop_margin_numbers(words, projection_gaps(words, pictures))
        seps = aligned_separators(words, seps, pictures)
        if seps:
            words, region = _with_header_band(page, words, seps, region)
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

    def _unpack(self, doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                tab: Any) -> Any:
        """A ruled table whose rules frame groups of rows and columns only (a header box, rules
        between column groups, an open body): its body cells stack several rows of figures.
        Re-read with the rules kept and the columns and rows the text shows inside them."""
        if not _stacked_figures(page, tab):
            return tab
        words = _words(page, _pad(tab.bbox))
        ruled_xs = sorted({round(c[i], 2) for r in tab.rows for c in r.cells if c for i in (0, 2)})
        inner = ruled_xs[1:-1]
        seps = []  # the columns of figures each ruled column's own words show
        for lo, hi in zip(ruled_xs, ruled_xs[1:], strict=False):
            inside = [w for w in words if lo <= (w[0] + w[2]) / 2 < hi]
            cuts = [lo, *(x for x in (projection_gaps(inside) if inside else []) if lo < x < hi), hi]
            figures = [_figures([w for w in inside if a <= (w[0] + w[2]) / 2 < b])
                       for a, b in zip(cuts, cuts[1:], strict=False)]
            # "40 | years" a space apart in a label column is one label: only figures beside figures split
            seps += [x for i, x in enumerate(cuts[1:-1]) if figures[i] and figures[i + 1]]
        if not seps:
            return tab  # rows alone: the cell texts' lines are split downstream
        # outer rules on the words' extent, as in `_borderless`: text-strategy row edges reach
        # no further, and a frame rule beyond them would drop the first and last columns
        left, right = min(w[0] for w in words), max(w[2] for w in words)
        lines = sorted(x for x in [*inner, *seps] if left < x < right)
        again = _find(doc, page, pno, {**kwargs, "vertical_strategy": "explicit",
                                       "horizontal_strategy": "text",
                                       "vertical_lines": [left, *lines, right], "clip": _pad(tab.bbox)})
        return again[0] if len(again) == 1 and again[0].row_count > tab.row_count else tab

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
        feats = view.features
        clip = _clip(feats.ruled_regions + feats.aligned_regions, page.rect)
        # find_tables reads every char of its area in Python and looks above each table for
        # an external header: clipping to the candidate regions makes prose pages cheap.
        first = _find(doc, page, pno, {**kwargs, "clip": clip} if clip else kwargs)
        found = [self._repair(doc, page, pno, kwargs, t) for t in first]
        stubbed = [_ruled_fixups(doc, page, pno, kwargs, t, view.rules) for t in found if any(t is f for f in first)]
        ruled = [self._unpack(doc, page, pno, kwargs, t) for t in stubbed]
        found = ruled + [t for t in found if not any(t is f for f in first)]
        # a grid of boxes with gutters: the single boxes find_tables may read are its cells
        grids = box_grids(*view.rules)
        found = [t for t in found if not any(_overlap(tuple(t.bbox), g.bbox) > 0.5 * _area(t.bbox) for g in grids)]
        # an unpacked grid's rows come from the text: read like a borderless one
        ruled_ids = {id(t) for t, s in zip(ruled, stubbed, strict=True) if t is s}
        borderless: set[int] = set()  # read from aligned text: their columns come from the words
        if self.options.text_in_aligned_regions:
            # the aligned text of a region runs on into a grid of boxes or a ruled table over its
            # width (a page's footer lines level with its last record): the rest is read alone
            walls = [g.bbox for g in grids] + [tuple(t.bbox) for t in ruled if t.row_count >= 3 and t in found]
            for r in (_beside_tables(r, walls) for r in feats.aligned_regions):
                # covered by ruled tables together too: a caption between two stacked grids
                # runs their aligned text into one region that each covers half of
                if sum(_overlap(r, tuple(t.bbox)) for t in found) + sum(_overlap(r, g.bbox) for g in grids) \
                        < 0.5 * _area(r):
                    more = self._borderless(doc, page, pno, kwargs, r)
                    found += more
                    borderless |= {id(t) for t in more}
        spans = spans_of_dict(d) if found or grids else []
        out = [self._boxed(doc, page, pno, g, i + 1, spans) for i, g in enumerate(grids)]
        for tab in found:
            if tab.row_count < self.options.min_rows or tab.col_count < self.options.min_cols:
                continue
            rows = [list(r.cells) for r in tab.rows]
            if id(tab) in ruled_ids:
                rows, texts = _split_stacked_spans(page, tab, rows, tab.extract())
                rows, texts = _split_paragraph_rows(page, rows, texts)
            else:
                rows, texts = merge_wrapped_rows(rows, _word_texts(page, tab, id(tab) in borderless))
            cells, n_rows, n_cols = cells_from_rows(rows, texts, pno, spans)
            cells, n_rows = drop_empty_rows(cells, n_rows)
            if n_rows < self.options.min_rows:
                continue
            pairs = key_value_pairs(cells, n_cols) if id(tab) in borderless else []
            if pairs:
                out += [self._table(doc, pno, len(out) + i + 1, _cells_box(kv), kv, metrics={KEY_VALUE: 1.0})
                        for i, kv in enumerate(split_pairs(cells, pairs))]
                continue
            out.append(self._table(doc, pno, len(out) + 1, tab.bbox, flag_bold_header(cells), (n_rows, n_cols)))
        return _select(doc, pno, out, view)

    def _boxed(self, doc: DocumentInput, page: pymupdf.Page, pno: int, grid: BoxGrid, n: int,
               spans: Sequence[Any]) -> RawTable:
        """The n-th RawTable of page `pno`, read from a grid of cell boxes (`box_grids`)."""
        rows, texts = grid_rows(grid, _words(page, _pad(grid.bbox, 1.0)))
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


def _select(doc: DocumentInput, pno: int, tables: Sequence[RawTable], view: PageModel) -> list[RawTable]:
    """The page's candidate tables (found order: ruled grids, then reads of the text) with no
    text line in two of them (`candidates.owned_once`), numbered again in that order."""
    kept = [tables[i] for i in owned_once([t.bbox for t in tables], [ln.bbox for ln in view.lines])]
    if len(kept) == len(tables):
        return list(tables)
    return [t.model_copy(update={"piece_id": piece_id(doc.doc_id, pno, n)}) for n, t in enumerate(kept, start=1)]


def _with_header_band(page: pymupdf.Page, words: list[Any], seps: Sequence[float],
                      region: Sequence[float]) -> tuple[list[Any], Sequence[float]]:
    """A borderless table's words and region with the header row over it that the aligned
    region left out (`finder.header_band`), as they were when there is none."""
    left, right = min(w[0] for w in words), max(w[2] for w in words)
    gap, height = column_gap(words), sorted(w[3] - w[1] for w in words)[len(words) // 2]
    top = min(w[1] for w in words)
    strip = (left - 4 * gap, top - 3 * height, right + 6 * gap, top + 1)
    band = header_band(_words(page, pymupdf.Rect(strip)), words, [left, *seps, right])
    if not band:
        return words, region
    return band + words, (region[0], min(w[1] for w in band), region[2], region[3])


def _pictures(page: pymupdf.Page, region: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """Boxes of the images placed inside `region` (their centres in it), thumbnails in a
    table's picture column; none thinner than `images.MIN_SIDE`."""
    out = []
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        if min(x1 - x0, y1 - y0) >= MIN_SIDE and region[0] <= (x0 + x1) / 2 <= region[2] \
                and region[1] <= (y0 + y1) / 2 <= region[3]:
            out.append((x0, y0, x1, y1))
    return out


def _beside_tables(region: Sequence[float], tables: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """An aligned region less the part a table over its width takes (the rows of a borderless
    table stacked under a grid of boxes, or lines under a ruled table, ran into one region
    with the table's text): the taller of what is left above and below each table."""
    out = tuple(region)
    for g in tables:
        if _overlap(out, g) <= 0 or min(out[2], g[2]) - max(out[0], g[0]) < 0.8 * (out[2] - out[0]):
            continue
        # apart by more than `_borderless`'s padding, or the words on the table's edge come back
        above, below = (out[0], out[1], out[2], g[1] - 2.5), (out[0], g[3] + 2.5, out[2], out[3])
        out = max(above, below, key=lambda b: b[3] - b[1])
    return out


def _cells_box(cells: Sequence[Any]) -> tuple[float, float, float, float]:
    """The union of the cells' boxes."""
    boxes = [c.bbox for c in cells if c.bbox]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _stub_column(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any) -> Any:
    """A ruled table whose row labels stand left of its first rule (an open stub column): the
    table re-read with one more rule left of the labels, so they keep their rows.

    Labels count when words (mostly letters) left of the grid, ending within `_STUB_GAP` of it, sit in at least
    half of the rows, and the text they stand in does not go on above or below the table (that
    is a paragraph in the next column of the page, whose lines fall into rows by chance)."""
    x0, top, _, bottom = tab.bbox
    rows = [r.bbox for r in tab.rows]
    words = [w for w in _words(page, pymupdf.Rect(0, top, x0, bottom))
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
    if any(not top <= (w[1] + w[3]) / 2 <= bottom for w in _words(page, beside)):
        return tab
    edges = sorted({round(r[1], 2) for r in rows} | {round(bottom, 2)})
    again = _find(doc, page, pno, {**kwargs, "vertical_lines": [left], "horizontal_lines": edges,
                                   "clip": _pad((left, top, tab.bbox[2], bottom))})
    return again[0] if len(again) == 1 and again[0].col_count == tab.col_count + 1 else tab


def _ruled_fixups(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any,
                  rules: tuple[list[Any], list[Any]] | None = None) -> Any:
    """A ruled table with its records parted at its column rules' joints and its packed rows
    split, then its open stub column added (each re-read keeps the rules the last one added)."""
    tab, kwargs = _split_joint_rows(doc, page, pno, kwargs, tab, rules)
    tab, kwargs = _split_packed_rows(doc, page, pno, kwargs, tab)
    return _stub_column(doc, page, pno, kwargs, tab)


def _split_joint_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                      tab: Any, rules: tuple[list[Any], list[Any]] | None = None) -> tuple[Any, dict[str, Any]]:
    """A ruled table re-read with a row rule at each joint of its column rules
    (`joint_row_rules`: rules drawn one segment per record), and the kwargs that did it;
    `rules`: the page's ruling segments, when the caller has read them."""
    return _reread_with_rows(doc, page, pno, kwargs, tab, joint_row_rules(page, tab.bbox, rules))


def _split_packed_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                       tab: Any) -> tuple[Any, dict[str, Any]]:
    """A ruled table re-read with `packed_row_rules` added (and the kwargs that did it), so
    the lines of figures in its frame become rows of cells; as it was when none apply."""
    return _reread_with_rows(doc, page, pno, kwargs, tab, packed_row_rules(page, tab))


def _reread_with_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                      tab: Any, add: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
    """`tab` re-read inside its frame with the row rules `add` (and the kwargs that did it),
    kept only when it is still one table with more rows; as it was otherwise."""
    if not add:
        return tab, kwargs
    more = {**kwargs, "add_lines": [*kwargs.get("add_lines", []), *add]}
    again = _find(doc, page, pno, {**more, "clip": _pad(tab.bbox)})
    if len(again) == 1 and again[0].row_count > tab.row_count:
        return again[0], more
    return tab, kwargs


def _stacked_figures(page: pymupdf.Page, tab: Any) -> bool:
    """Whether a body cell of a ruled table holds at least three lines of figures (rows the
    rules did not split; a cell of wrapped prose does not count)."""
    for row in tab.rows[1:]:
        for c in row.cells:
            if not c or c[3] - c[1] < 20:
                continue
            per_line: dict[int, list[Any]] = {}
            for w in _words(page, pymupdf.Rect(c)):
                per_line.setdefault(round(w[3] / 3), []).append(w)
            if sum(mostly_numbers(line) for line in per_line.values()) >= 3:
                return True
    return False


def _split_stacked_spans(page: pymupdf.Page, tab: Any, rows: list[list[Any]],
                         texts: list[list[str | None]]) -> tuple[list[list[Any]], list[list[str | None]]]:
    """A ruled cell over three or more rows whose text lines each sit in one of the rows it
    covers (a label column the rules between rows leave open) is one cell per row: the lines
    go to their rows. A merged cell whose text sits in some of its rows only stays merged."""
    tops = [min((c[1] for c in row if c), default=tab.bbox[3]) for row in rows]
    bands = [(0.0, top, 0.0, bottom) for top, bottom in zip(tops, [*tops[1:], tab.bbox[3]], strict=True)]
    for i, row in enumerate(rows):
        for j, c in enumerate(row):
            if c is None:
                continue
            covered = [k for k in range(i, len(bands)) if bands[k][1] >= c[1] - 1 and bands[k][3] <= c[3] + 1]
            if len(covered) < 3 or any(rows[k][j] is not None for k in covered[1:]):
                continue
            lines: dict[int, list[Any]] = {}
            for w in _words(page, pymupdf.Rect(c)):
                mid = (w[1] + w[3]) / 2
                at = [k for k in covered if bands[k][1] <= mid < bands[k][3]]
                if not at or not bands[at[0]][1] - 1 <= w[1] and w[3] <= bands[at[0]][3] + 1:
                    break  # a line across a row edge: a merged cell's wrapped text
                lines.setdefault(at[0], []).append(w)
            else:
                if set(lines) != set(covered):
                    continue
                for k in covered:
                    rows[k][j] = (c[0], bands[k][1], c[2], bands[k][3])
                    texts[k][j] = " ".join(w[4] for w in sorted(lines[k], key=lambda w: (round(w[3]), w[0])))
    return rows, texts


def _split_paragraph_rows(page: pymupdf.Page, rows: list[list[Any]],
                          texts: list[list[str | None]]) -> tuple[list[list[Any]], list[list[str | None]]]:
    """A ruled row whose text falls into blocks parted by a blank line across all its cells
    ("Stationary:" / "Major  Emissions of ...  Utilities, ..." / "Area  ...") is one row per
    block: rules drawn round groups of rows only. Rows with spans, or with text in one cell
    only (a note of two paragraphs), stay whole."""
    out_rows: list[list[Any]] = []
    out_texts: list[list[str | None]] = []
    for row, text in zip(rows, texts, strict=True):
        blocks = _paragraph_blocks(page, row) if all(row) else []
        if len(blocks) < 2:
            out_rows.append(row)
            out_texts.append(text)
            continue
        cuts = [row[0][1], *((a[-1] + b[0]) / 2 for a, b in zip(blocks, blocks[1:], strict=False)), row[0][3]]
        words = _words(page, pymupdf.Rect(row[0][0], row[0][1], row[-1][2], row[0][3]))
        for top, bottom in zip(cuts, cuts[1:], strict=False):
            out_rows.append([(c[0], top, c[2], bottom) for c in row])
            out_texts.append([_lines_text([w for w in words if c[0] <= (w[0] + w[2]) / 2 < c[2]
                                           and top <= (w[1] + w[3]) / 2 < bottom]) for c in row])
    return out_rows, out_texts


def _lines_text(words: Sequence[Any]) -> str:
    """Words as find_tables' extract() gives a cell: a line per text line ("\n" between, as
    downstream splits rows stacked in one cell by them)."""
    lines: dict[int, list[Any]] = {}
    for w in words:
        lines.setdefault(round(w[3]), []).append(w)
    return "\n".join(" ".join(w[4] for w in sorted(ws, key=lambda w: w[0])) for _, ws in sorted(lines.items()))


def _paragraph_blocks(page: pymupdf.Page, row: Sequence[Any]) -> list[tuple[float, float]]:
    """(top, bottom) of the blocks of text lines in a ruled row, parted where a gap of at
    least half a line's height runs across the row; [] when fewer than two cells hold text or
    a cell stacks lines of figures."""
    if any(abs(c[1] - row[0][1]) > 1 or abs(c[3] - row[0][3]) > 1 for c in row):
        return []
    words = [w for w in _words(page, pymupdf.Rect(row[0][0], row[0][1], row[-1][2], row[0][3]))
             if row[0][1] <= (w[1] + w[3]) / 2 < row[0][3]]  # not the edge of a neighbour's line
    if sum(any(c[0] <= (w[0] + w[2]) / 2 < c[2] for w in words) for c in row) < 2:
        return []
    for c in row:  # lines of figures stacked in a cell are rows of their own, split downstream
        per_line: dict[int, list[Any]] = {}
        for w in words:
            if c[0] <= (w[0] + w[2]) / 2 < c[2]:
                per_line.setdefault(round(w[3]), []).append(w)
        if sum(mostly_numbers(line) for line in per_line.values()) >= 2:
            return []
    lines = sorted((w[1], w[3]) for w in words)
    height = sorted(b - t for t, b in lines)[len(lines) // 2]
    blocks: list[tuple[float, float]] = []
    for top, bottom in lines:
        if blocks and top - blocks[-1][1] < 0.5 * height:
            blocks[-1] = (blocks[-1][0], max(blocks[-1][1], bottom))
        else:
            blocks.append((top, bottom))
    return blocks


def _figures(words: Sequence[Any]) -> bool:
    """Whether most of the words are figures (at least as many digits as letters)."""
    n = sum(is_figure(w[4]) for w in words)
    return n > 0.5 * len(words)


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
    for w in _words(page, pymupdf.Rect(tab.bbox)):
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


def _inner_edges(tab: Any) -> list[float]:
    """x of the column boundaries inside a table (its cells' left edges but the first)."""
    xs = sorted({round(c[0], 2) for r in tab.rows for c in r.cells if c})
    return xs[1:]


def _leader(word: str) -> bool:
    """Dot leaders and typed rules ("......", "-----"); a lone "-" is a value (nil) and stays."""
    return len(word) >= 3 and not word.strip(".…·-_=─—")


def _word_texts(page: pymupdf.Page, tab: Any, rejoin: bool = False) -> list[list[str | None]]:
    """Cell texts from whole words (centre inside the cell): a text-strategy grid cuts words
    that straddle its column edges ("Product Warra" / "nty Rating"); a word belongs to one cell.
    `rejoin` (columns placed from the text): words run on from the cell on their left go back."""
    words = _words(page, _pad(tab.bbox, 1.0))
    # a label phrase over a column boundary (placed from the text: no rule stops it) goes
    # whole to one column
    at = whole_phrases(words, _inner_edges(tab), column_gap(words)) if words else {}
    cells: list[list[list[Any]]] = []
    for row in tab.rows:
        cells.append([])
        for c in row.cells:
            inside = [] if c is None else [
                w for w in words if c[0] <= at.get(id(w), (w[0] + w[2]) / 2) < c[2]
                and c[1] <= (w[1] + w[3]) / 2 < c[3]]
            cells[-1].append(sorted(inside, key=lambda w: (round(w[3]), w[0])))
    if rejoin and words:
        cells = rejoin_phrases(cells, column_gap(words))
    return [[None if c is None else " ".join(w[4] for w in ws if not _leader(w[4]))
             for c, ws in zip(row.cells, texts, strict=True)] for row, texts in zip(tab.rows, cells, strict=True)]


def _words(page: pymupdf.Page, clip: Any) -> list[Any]:
    """Words inside `clip`, zero-width glyphs handled: the page model's one word reader."""
    return words_in(page, clip)


def _find(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any]) -> list[Any]:
    # (find_tables reads a /Rotate'd page de-rotated: paths read here would be misplaced there)
    if "lines" in (kwargs.get("vertical_strategy"), kwargs.get("horizontal_strategy")) and not page.rotation:
        kwargs = {**kwargs, "paths": per_page(page, "paths", drawn_paths)}
    return find(doc, page, pno, kwargs)


def _area(r: Sequence[float]) -> float:
    return max(r[2] - r[0], 0.0) * max(r[3] - r[1], 0.0)


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _supported(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Only the keyword arguments this PyMuPDF's find_tables accepts (use_layout/refine are new)."""
    from pymupdf import table as _table

    params = inspect.signature(_table.find_tables).parameters
    return {k: v for k, v in kwargs.items() if k in params}

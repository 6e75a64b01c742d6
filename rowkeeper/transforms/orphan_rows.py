"""Rows a page break left alone: the last row or two of a long table at the top of the next
page (a repeated header over one row, or one row with prose under it) are too few for a
finder to read as a table, so the cross-page merge had nothing to join and they were lost.

Where a table ends its page and the next page opens with lines standing in that table's
columns (each line within one column, most columns filled), those rows are read back as a
piece of the table on the next page; `merge_continued_tables` then joins it like any
continuation (a repeated header is dropped there too). A line across two columns (prose, a
heading, a caption) ends them.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence

from rowkeeper.boxes import bounds
from rowkeeper.config import TransformConfig
from rowkeeper.glyphs import WIDE, run_on, span_x
from rowkeeper.ids import piece_id
from rowkeeper.models import Cell, PageInfo, RawTable, TextLine
from rowkeeper.transforms.context import PageText, furniture, page_heights
from rowkeeper.transforms.figures import is_number
from rowkeeper.transforms.merge import column_extents, ends_page

_GLUED = re.compile(f"(?<={WIDE.pattern})(?=[-+]?\\d)")
"""Where a figure starts right after a full-width glyph."""
TOL = 2.0
"""Points a line may reach into a neighbouring column and still stand in its own."""
TIGHT = 0.5
"""Share of the white between a table's records up to which a row under a record is its wrapped lines."""
GAP = 2.5
"""Line heights between two orphan rows (or the page's first line and the page top band) at most."""


def orphan_pieces(ordered: Sequence[RawTable], lines: Sequence[TextLine], pages: Sequence[PageInfo],
                  text: dict[int, PageText], config: TransformConfig) -> list[RawTable]:
    """Pieces read from lines at the top of a page in the columns of the table ending the page
    before (none where the finders found the continuation or nothing stands there)."""
    heights = page_heights(pages, lines)
    skip = furniture(lines, pages)  # figures atop two pages mask alike: furniture only where no row
    by_page: dict[int, list[RawTable]] = {}
    for p in ordered:
        by_page.setdefault(p.page, []).append(p)
    ratio = config.merge_max_gap_ratio
    out = []
    header: set[str] = set()  # the header words of the table the page's last piece continues
    for page, pieces in sorted(by_page.items()):
        last = max(pieces, key=lambda p: p.bbox[3])
        header = _header_words(last) or (header if page - 1 in by_page and len(pieces) == 1 else set())
        if not ends_page(last.bbox, text.get(page), heights.get(page, 842.0), ratio):
            continue
        first_top = min((p.bbox[1] for p in by_page.get(page + 1, ())), default=math.inf)
        top = [(ln, i in skip) for i, ln in enumerate(lines) if ln.page == page + 1 and ln.bbox[3] <= first_top]
        rows = rows_in_columns(last, top, heights.get(page + 1, 842.0) * ratio, header | _first_row_words(last),
                               [ln for ln in lines if ln.page == page])
        if rows:
            out.append(_piece(last, page + 1, rows))
    return out


def _header_words(table: RawTable) -> set[str]:
    """The words of a piece's header cells (none on a continuation read without its header)."""
    return {w.casefold() for c in table.cells if c.is_header for w in c.text.split()}


def _first_row_words(table: RawTable) -> set[str]:
    """The words of a piece's first row: its header where no cell is flagged as one (a
    header in the body's type), printed again over the last rows on the next page."""
    return {w.casefold() for c in table.cells if c.row == 0 for w in c.text.split()}


def _repeats_header(words: set[str], row: dict[int, TextLine]) -> bool:
    """A row that only repeats the table's header cells (a header printed again over a
    continuation the finders or the tags found, or over nothing): no orphan row of its own.
    The header is that of the piece ending the page before, or, for a continuation without
    one (the third page of a table), that of the table it continues."""
    mine = {w.casefold() for ln in row.values() for w in ln.text.split()}
    return bool(mine) and mine <= words


def _column_of(line: TextLine, extents: Sequence[tuple[float, float] | None]) -> int | None:
    """The one column whose extent holds `line` (it reaches into no other), else None."""
    over = [min(line.bbox[2], e[1]) - max(line.bbox[0], e[0]) if e else -math.inf for e in extents]
    k = max(range(len(over)), key=lambda i: over[i])
    if over[k] <= 0 or any(o > TOL for i, o in enumerate(over) if i != k):
        return None
    return k


def inked_extents(extents: Sequence[tuple[float, float] | None], lines: Sequence[TextLine]
                  ) -> list[tuple[float, float] | None]:
    """Column extents whose left edges (but the first's) move right to where the piece's own
    text `lines` start in them: a text column's extent ends where the finder drew its edge, and
    a wrapped description's longest line on the next page may pass it into the white before
    the right-aligned figures of the next column."""
    out = list(extents)
    for k, e in enumerate(extents):
        starts = [ln.bbox[0] for ln in lines if e and e[0] <= ln.bbox[0] < e[1]]
        if k and e and starts:
            out[k] = (min(max(e[0], min(starts) - TOL), e[1]), e[1])
    return out


def _parts(line: TextLine, extents: Sequence[tuple[float, float] | None]) -> list[TextLine]:
    """`line` as the parts its words make in the columns, where it lies across them (cells set
    close print as one line: "24 108,8 46,0 %"), each word placed by its characters' offsets
    (`glyphs.span_x`); the line itself where it stands in one column, a word in none, or a part
    after the first is no figure (a heading or a sentence at the page's top runs across the
    columns too, and its words fall in them as they may). A word across columns parts where a
    figure starts right after a full-width glyph (`_GLUED`), each part placed by its middle."""
    if _column_of(line, extents) is not None or len(line.text.split()) < 2 and not _GLUED.search(line.text):
        return [line]
    x0, y0, x1, y1 = line.bbox

    def column(a: int, b: int, glued: bool = False) -> int | None:
        left, right = span_x(line.text, x0, x1, a, b)
        if glued:  # by its middle: the offsets misplace a figure after wider CJK glyphs
            return next((k for k, e in enumerate(extents) if e and e[0] <= (left + right) / 2 < e[1]), None)
        return _column_of(line.model_copy(update={"bbox": (left, y0, right, y1)}), extents)

    parts: list[tuple[int, int, int]] = []  # column, first and end character of each part
    for word in re.finditer(r"\S+", line.text):
        # a CJK label glued to the figure of the next column ("センター793,879": CJK sets no
        # space) is two words where the word lies across columns
        cuts = [word.start()] if column(*word.span()) is not None else \
            [word.start(), *(word.start() + m.start() for m in _GLUED.finditer(word.group()))]
        for a, b in zip(cuts, [*cuts[1:], word.end()], strict=True):
            k = column(a, b, len(cuts) > 1)
            if k is None:
                return [line]
            if parts and parts[-1][0] == k:
                parts[-1] = (k, parts[-1][1], b)
            else:
                parts.append((k, a, b))
    if any(sum(ch.isdigit() for ch in line.text[a:b]) < sum(ch.isalpha() for ch in line.text[a:b])
           for _, a, b in parts[1:]):
        return [line]  # words after words: a heading or a sentence across the columns, no cells
    out = []
    for k, a, b in parts:
        left, right = span_x(line.text, x0, x1, a, b)
        part = line.model_copy(update={"text": line.text[a:b], "bbox": (left, y0, right, y1)})
        if (e := extents[k]) and _column_of(part, extents) is None:
            # a glued part placed by its middle: its box, so estimated, kept in its column
            left = max(left, e[0])
            part = part.model_copy(update={"bbox": (left, y0, max(min(right, e[1]), left), y1)})
        out.append(part)
    return out


def _text_rows(lines: Sequence[tuple[TextLine, bool]]) -> list[list[tuple[TextLine, bool]]]:
    """Lines top to bottom in rows: a line whose middle is level with a row's first line joins it."""
    rows: list[list[tuple[TextLine, bool]]] = []
    for ln, furn in sorted(lines, key=lambda lf: (lf[0].bbox[1], lf[0].bbox[0])):
        mid = (ln.bbox[1] + ln.bbox[3]) / 2
        if rows and rows[-1][0][0].bbox[1] < mid < rows[-1][0][0].bbox[3]:
            rows[-1].append((ln, furn))
        else:
            rows.append([(ln, furn)])
    return rows


def rows_in_columns(piece: RawTable, lines: Sequence[tuple[TextLine, bool]], top_band: float,
                    header: set[str] | frozenset[str] = frozenset(),
                    own: Sequence[TextLine] = ()) -> list[dict[int, TextLine]]:
    """The leading rows of `lines` (each with whether it is page furniture, passed over where
    it stands in no row) that stand in `piece`'s columns, each as column -> line (a line
    across columns in its parts there, `_parts`). A row that only repeats the table's `header`
    words is passed over wherever its labels reach (a label wider than its column's cells)."""
    extents = column_extents(piece)
    apart = record_white(piece, own)
    inked = inked_extents(extents, [ln for ln in own if _inside(ln, piece)])
    need = max(2, math.ceil(sum(e is not None for e in extents) / 2))
    out: list[dict[int, TextLine]] = []
    bottom = top_band
    for marked in _text_rows(lines):
        if _repeats_header(set(header), dict(enumerate(ln for ln, _ in marked))):
            bottom = max(ln.bbox[3] for ln, _ in marked)
            continue
        row = [part for ln, _ in marked for part in _parts(ln, extents)]
        height = max(ln.bbox[3] - ln.bbox[1] for ln in row)
        cols = [_column_of(ln, inked) for ln in row]
        placed = {k: ln for k, ln in zip(cols, row, strict=True) if k is not None}
        if None not in cols and len(placed) == len(cols) and out and \
                _wraps_on(out[-1], placed, min(ln.bbox[1] for ln in row) - bottom, apart):
            out[-1] = _joined(out[-1], placed)
            bottom = max(bottom, *(ln.bbox[3] for ln in row))
            continue
        # a record's first line may hold its key and the start of its text alone, its figures
        # on a wrapped line under it: the record, joined, must fill the columns a row does
        short = len(cols) < need and not (
            0 in placed and _records_apart(apart, height) and not all(furn for _, furn in marked))
        if None in cols or len(set(cols)) < len(cols) or short:
            if all(furn for _, furn in marked):
                continue
            break
        if row[0].bbox[1] - bottom > GAP * height:
            break
        out.append(placed)
        bottom = max(ln.bbox[3] for ln in row)
    full = next((i for i, r in enumerate(out) if len(r) < need), len(out))
    return out[:full]


def record_white(piece: RawTable, lines: Sequence[TextLine] = ()) -> float | None:
    """The median white (points) over the piece's rows that start a record (a line in its
    first column), read from the page's text `lines` inside the piece (its cells' boxes where
    none are given: a ruled grid's cells touch, their lines do not); None with fewer than two."""
    inside = [ln for ln in lines if _inside(ln, piece)]
    if inside:
        key = column_extents(piece)[0]
        rows = [[ln for ln, _ in r] for r in _text_rows([(ln, False) for ln in inside])]
        spans = [(min(ln.bbox[1] for ln in r), max(ln.bbox[3] for ln in r),
                  key is not None and min(ln.bbox[0] for ln in r) < key[1] - TOL) for r in rows]
        whites = [b[0] - a[1] for a, b in zip(spans, spans[1:], strict=False) if b[2]]
        return statistics.median(whites) if len(whites) >= 2 else None
    ends: dict[int, tuple[float, float]] = {}
    for c in piece.cells:
        if c.bbox is not None and c.text.strip() and not c.is_header:
            top, bot = ends.get(c.row, (c.bbox[1], c.bbox[3]))
            ends[c.row] = (min(top, c.bbox[1]), max(bot, c.bbox[3]))
    ordered = [ends[r] for r in sorted(ends)]
    whites = [b[0] - a[1] for a, b in zip(ordered, ordered[1:], strict=False)]
    return statistics.median(whites) if whites else None


def _inside(line: TextLine, piece: RawTable) -> bool:
    """Whether a text line of the piece's page lies inside its box."""
    return line.page == piece.page and piece.bbox[1] - 1 <= line.bbox[1] and line.bbox[3] <= piece.bbox[3] + 1 \
        and piece.bbox[0] - 1 <= line.bbox[0] < piece.bbox[2]


def _wraps_on(record: dict[int, TextLine], line: dict[int, TextLine], white: float, apart: float | None) -> bool:
    """Whether a row of lines is the wrapped lines of the record over it (as the finder joins
    them, `finder.wrapped_records`): its key cell (the first column) is empty, it stands under
    the record tighter than half the white between the table's records on the page before, its
    figures land on no figure of the record, and the record holds more than its key."""
    if apart is None or 0 in line or not any(k for k in record) or white > TIGHT * apart:
        return False
    height = min(ln.bbox[3] - ln.bbox[1] for ln in line.values())
    return _records_apart(apart, height) and not any(
        k in record and (is_number(ln.text) or is_number(record[k].text)) for k, ln in line.items())


def _records_apart(apart: float | None, height: float) -> bool:
    """Whether a table's records stand apart by white of their own (a quarter of a line's
    height at least), as records of wrapped lines do; rows of a ruled grid touch."""
    return apart is not None and apart >= 0.25 * height


def _joined(record: dict[int, TextLine], line: dict[int, TextLine]) -> dict[int, TextLine]:
    """The record with a wrapped row's lines run on into its cells (`glyphs.run_on`)."""
    out = dict(record)
    for k, ln in line.items():
        had = out.get(k)
        out[k] = ln if had is None else had.model_copy(update={
            "text": run_on(had.text, ln.text), "bbox": bounds((had.bbox, ln.bbox))})
    return dict(sorted(out.items()))


def _piece(table: RawTable, page: int, rows: Sequence[dict[int, TextLine]]) -> RawTable:
    """A piece on `page` of `rows` in `table`'s columns."""
    cells = [Cell(row=i, col=k, text=ln.text, page=page, bbox=ln.bbox, bold=ln.bold, font_size=ln.font_size)
             for i, row in enumerate(rows) for k, ln in sorted(row.items())]
    bbox = bounds(c.bbox for c in cells if c.bbox is not None)
    return RawTable(piece_id=piece_id(table.doc_id, page, 0), doc_id=table.doc_id, page=page, bbox=bbox,
                    n_rows=len(rows), n_cols=table.n_cols, cells=tuple(cells), extractor=table.extractor,
                    extractor_version=table.extractor_version)

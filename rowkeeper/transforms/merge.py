"""Cross-page merge: join the pieces of a table that a page break cut apart.

Piece B continues piece A when B is the first table on the page after A's page and A the
last on its own, nothing but page furniture (running headers, page numbers) or a
"(continued)" caption lies between them, their columns line up, and B does not open with a
header of its own (a repeated copy of A's header is fine and is dropped later).
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from functools import partial

from rowkeeper.caption_text import is_caption, is_continued
from rowkeeper.config import TransformConfig
from rowkeeper.label_text import clean_text
from rowkeeper.models import DECLARED_TABLE, BBox, Cell, RawTable, TextLine
from rowkeeper.transforms.column_types import normalize
from rowkeeper.transforms.context import FOOTNOTE, PageText
from rowkeeper.transforms.figures import figure_columns
from rowkeeper.transforms.headers import is_label_row
from rowkeeper.transforms.headings import is_strong_heading
from rowkeeper.transforms.spans import expand_spans
from rowkeeper.transforms.split_columns import (
    hollow_columns_of,
    join_columns,
    rejoined_continuation,
    relaid_continuation,
)

MAX_LABEL_LINES = 2
"""Lines between two stacked pieces of one table (section label rows such as "Actual")."""
OUTDENT = 30.0
"""How far (points) a section label may stand left of the table's first column."""


def piece_grid(piece: RawTable) -> list[list[str]]:
    """The piece's grid with spans expanded and cell text on one line."""
    grid = expand_spans(piece.cells, piece.n_rows, piece.n_cols)
    return [[clean_text(t) for t in row] for row in grid]


def _key(row: Sequence[str]) -> tuple[str, ...]:
    """A row's cells compared loosely; a cell repeating the one on its left reads blank, so a
    group label spanning its columns ("BLEU" | "BLEU", spans expanded) matches the same label
    read once over them ("BLEU" | "")."""
    cells = [normalize(t).replace(" ", "").lower() for t in row]
    return tuple("" if j and c == cells[j - 1] else c for j, c in enumerate(cells))


def repeated_header_rows(grid: Sequence[Sequence[str]], header: Sequence[Sequence[str]]) -> int:
    """How many leading rows of a continuation repeat the table's header rows (to drop).

    A row repeats a header row when its cells match, or when its text read left to right does:
    a repeat read by another layer (OCR on a scanned page, the text layer on the page before)
    may cut multi-word labels at other column edges ("Đơn giá Số" | "lượng" vs "Đơn giá" |
    "Số lượng")."""
    keys = {_key(h) for h in header if any(t.strip() for t in h)}
    texts = {"".join(k) for k in keys}
    n = 0
    while n < len(grid) and n < len(header) + 1 and (_key(grid[n]) in keys or _read_alike("".join(_key(grid[n])), texts)):
        n += 1
    return n


READ_ALIKE = 0.85
"""Share of letters (marks aside) a header row read again on a scanned page keeps of the
table's own header row, at least: OCR misreads a mark or a letter of a label on one page in
several ("Chí phí" for "Chi phí", "壳上高" for "売上高")."""


def _read_alike(text: str, texts: set[str]) -> bool:
    """Whether `text` (a row read left to right) is one of `texts` read again: the same
    figures, and letters alike as READ_ALIKE asks (a row of years "2023 2024" is another
    table's header, not "2022 2023" read again)."""
    if text in texts:
        return True
    plain = _plain(text)
    return len(plain) >= 6 and any(
        _DIGITS.findall(plain) == _DIGITS.findall(p) and SequenceMatcher(None, plain, p).ratio() >= READ_ALIKE
        for p in map(_plain, texts))


_DIGITS = re.compile(r"\d+")


def _plain(text: str) -> str:
    """`text` without its combining marks (a misread mark is the commonest OCR slip)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def column_lefts(piece: RawTable) -> list[float | None]:
    """Median left edge of each column's single-column cells (None when unknown)."""
    xs: list[list[float]] = [[] for _ in range(piece.n_cols)]
    for c in piece.cells:
        if c.bbox is not None and c.col_span == 1 and 0 <= c.col < piece.n_cols:
            xs[c.col].append(c.bbox[0])
    return [statistics.median(v) if v else None for v in xs]


def columns_line_up(a: RawTable, b: RawTable, tol: float) -> bool:
    """Same column count and column edges within `tol` points (table edges when cells lack boxes)."""
    if a.n_cols != b.n_cols:
        return False
    pairs = [(x, y) for x, y in zip(column_lefts(a), column_lefts(b), strict=True)
             if x is not None and y is not None]
    if len(pairs) >= max(1, a.n_cols // 2):
        return all(abs(x - y) <= tol for x, y in pairs) or columns_overlap_in_order(a, b)
    return abs(a.bbox[0] - b.bbox[0]) <= 2 * tol and abs(a.bbox[2] - b.bbox[2]) <= 2 * tol


def column_extents(piece: RawTable, filled: bool = True) -> list[tuple[float, float] | None]:
    """Each column's x extent over its single-column cells (None when unknown); with
    `filled=False` empty cells' boxes count too (a ruled cell spans its column when empty)."""
    out: list[tuple[float, float] | None] = []
    for k in range(piece.n_cols):
        boxes = [c.bbox for c in piece.cells
                 if c.bbox is not None and c.col == k and c.col_span == 1 and (c.text or not filled)]
        out.append((min(b[0] for b in boxes), max(b[2] for b in boxes)) if boxes else None)
    return out


def columns_overlap_in_order(a: RawTable, b: RawTable) -> bool:
    """Each column of `b` overlaps the same column of `a` more than any other.

    Left edges differ between layers that box a cell by its column (a text page) and by its
    words (a scan: right-aligned figures start anywhere), yet the columns stand in the same
    places; used when the left edges disagree."""
    ea, eb = column_extents(a), column_extents(b)
    known = [(k, x, y) for k, (x, y) in enumerate(zip(ea, eb, strict=True)) if x is not None and y is not None]
    if len(known) < max(2, a.n_cols - 1):
        return False
    for k, _, y in known:
        over = [max(0.0, min(y[1], x[1]) - max(y[0], x[0])) if x else 0.0 for x in ea]
        if over[k] <= 0 or max(over) > over[k]:
            return False
    return True


def ends_page(bbox: BBox, text: PageText | None, height: float, ratio: float) -> bool:
    if bbox[3] < height * (1 - ratio):
        return False
    return text is None or not text.below(bbox, height)


def _starts_page(bbox: BBox, text: PageText | None, height: float, ratio: float,
                 header: Sequence[Sequence[str]] = ()) -> bool:
    """Whether a piece starts its page: nothing above it but a "continued" line or the table's
    header printed again outside the piece (a tagged table's repeated header row, marked as
    an artifact, is no row of its Table element)."""
    if bbox[1] > height * ratio:
        return False
    above = text.above(bbox, height) if text else []
    words = {w.casefold() for row in header for cell in row for w in cell.split()}
    labels = ["".join(cell.split()).casefold() for row in header for cell in row]
    return all(is_continued(ln.text) or all(_in_header(w, words, labels) for w in _words_of(ln.text))
               for ln in above)


def _words_of(text: str) -> set[str]:
    """The words of a line (a line with none is no repeated header)."""
    return {w.casefold() for w in text.split()} or {"\0"}


def _in_header(word: str, words: set[str], labels: Sequence[str]) -> bool:
    """Whether a word of a line over a continuation is a header word, or part of a label the
    line prints with a space the header reads without (`売上高( 千円)` over `売上高(千円)`)."""
    return word in words or len(word) >= 2 and any(word in label for label in labels)


def one_declared_table(a: RawTable, b: RawTable) -> bool:
    """Whether two pieces are read from one tagged Table element (the PDF says the second
    continues the first, wherever on their pages they end and start)."""
    element = a.metrics.get(DECLARED_TABLE)
    return element is not None and element == b.metrics.get(DECLARED_TABLE) and a.n_cols == b.n_cols


def opens_new_header(grid: Sequence[Sequence[str]], header: Sequence[Sequence[str]]) -> bool:
    """Whether a continuation starts with a header row that differs from the table's own."""
    if not grid or repeated_header_rows(grid, header):
        return False
    cols = figure_columns(grid[1:])
    return any(cols) and is_label_row(grid[0], grid[1:], cols)


def continues(
    prev: RawTable,
    nxt: RawTable,
    header: Sequence[Sequence[str]],
    text: dict[int, PageText],
    heights: dict[int, float],
    config: TransformConfig,
) -> bool:
    """Whether `nxt` (first table of its page) continues `prev` (last table of the page before)."""
    if nxt.page != prev.page + 1:
        return False
    ratio = config.merge_max_gap_ratio
    if not one_declared_table(prev, nxt) and not (
            ends_page(prev.bbox, text.get(prev.page), heights.get(prev.page, 842.0), ratio)
            and _starts_page(nxt.bbox, text.get(nxt.page), heights.get(nxt.page, 842.0), ratio, header)):
        return False
    if not columns_line_up(prev, nxt, config.merge_x_tolerance):
        return False
    return not opens_new_header(piece_grid(nxt), header)


def merge_continued_tables(
    pieces: Sequence[RawTable],
    header_of: dict[str, list[list[str]]],
    text: dict[int, PageText],
    heights: dict[int, float],
    config: TransformConfig,
) -> list[tuple[RawTable, ...]]:
    """Pieces in reading order grouped into logical tables (one group per table)."""
    groups: list[list[RawTable]] = []
    for p in sorted(pieces, key=lambda p: (p.page, p.bbox[1], p.bbox[0])):
        if groups:
            last = groups[-1][-1]
            head = header_of.get(groups[-1][0].piece_id, [])
            if continues(last, p, head, text, heights, config):
                groups[-1].append(p)
                continue
            # a continuation with an empty column where the table's has none, or at another
            # rule gap; else with one column read as two (split_columns): those two joined
            lines_up = partial(columns_line_up, tol=config.merge_x_tolerance)
            joined = relaid_continuation(last, p, lines_up) or rejoined_continuation(last, p, lines_up)
            if joined is not None and continues(last, joined, head, text, heights, config):
                groups[-1].append(joined)
                continue
            mended = _mended_start(groups[-1], p, len(head), lines_up)
            if mended is not None and continues(mended, p, piece_grid(mended)[:len(head)], text, heights, config):
                groups[-1] = [mended, p]
                continue
        groups.append([p])
    return [tuple(g) for g in groups]


def _mended_start(group: Sequence[RawTable], nxt: RawTable, header_rows: int,
                  lines_up: Callable[[RawTable, RawTable], bool]) -> RawTable | None:
    """A table's first piece, alone in its group, with a column its reader split in two
    joined again (`split_columns`) when only so do the continuation's columns line up with
    its own and no two header labels are joined: a first page of two rows under the header
    gives the reader too few lines to keep a name and its number together (`仙台店舗` |
    `5284` under `品目` and nothing), the next page's rows do."""
    if len(group) != 1:
        return None
    first = group[0]
    for k in sorted(hollow_columns_of(first) - {0}, reverse=True):
        first = join_columns(first, k - 1)  # an empty column (a rule gap's) goes too
    mended = rejoined_continuation(nxt, first, lambda a, b: lines_up(b, a))

    def labels(piece: RawTable) -> list[int]:
        return [sum(1 for t in row if t.strip()) for row in piece_grid(piece)[:header_rows]]

    return mended if mended is not None and labels(mended) == labels(group[0]) else None


def _pitch(piece: RawTable) -> float:
    """The piece's row pitch (points per row)."""
    return (piece.bbox[3] - piece.bbox[1]) / max(piece.n_rows, 1)


def _visual_lines(lines: Sequence[TextLine]) -> list[TextLine]:
    """Lines level with each other and a letter space apart (under twice their height) one
    line, left to right: an OCR layer reads a letter-spaced heading (`B a d e n`) as a line
    per letter; lines of two text columns stand further apart and stay two."""
    out: list[TextLine] = []
    for ln in sorted(lines, key=lambda ln: (ln.bbox[1], ln.bbox[0])):
        mid = (ln.bbox[1] + ln.bbox[3]) / 2
        prev = out[-1] if out else None
        if prev is not None and prev.bbox[1] < mid < prev.bbox[3] and \
                0 <= ln.bbox[0] - prev.bbox[2] < 2 * (ln.bbox[3] - ln.bbox[1]):
            out[-1] = prev.model_copy(update={
                "text": f"{prev.text.strip()} {ln.text.strip()}",
                "bbox": (prev.bbox[0], min(prev.bbox[1], ln.bbox[1]), ln.bbox[2], max(prev.bbox[3], ln.bbox[3]))})
        else:
            out.append(ln)
    return out


def _one_column(line: TextLine, spans: Sequence[tuple[float, float] | None]) -> int | None:
    """The column whose text the line overlaps when it overlaps no other column's (a remark
    set inside the names' column); None otherwise."""
    hits = [k for k, s in enumerate(spans) if s is not None and line.bbox[0] < s[1] and line.bbox[2] > s[0]]
    return hits[0] if len(hits) == 1 else None


def centred_heading(line: TextLine, x0: float, x1: float, tol: float) -> bool:
    """A short line of words centred over the table's width (its centre within `tol` of the
    table's, no wider than half of it, no figure): the heading of a section of the table's
    rows (`Baden` over a catalogue's next state), set in the body's type."""
    width = line.bbox[2] - line.bbox[0]
    centre = (line.bbox[0] + line.bbox[2]) / 2
    return abs(centre - (x0 + x1) / 2) <= tol and width <= (x1 - x0) / 2 and \
        not any(ch.isdigit() for ch in line.text) and any(ch.isalpha() for ch in line.text)


def _row_labels_between(upper: RawTable, lower: RawTable, text: PageText | None,
                        tol: float) -> list[tuple[TextLine, int]] | None:
    """The lines between two stacked pieces with the column each goes to, when all of them read
    as row labels of the table: starting at the first column's left edge or outdented a little
    left of it (column 0), inside one column of the pieces (that column), or a heading centred
    over the table (column 0); not a caption, a footnote or a heading in larger print. None
    otherwise."""
    x0, x1 = min(upper.bbox[0], lower.bbox[0]), max(upper.bbox[2], lower.bbox[2])
    between = _visual_lines([ln for ln in (text.lines if text else ())
                             if ln.bbox[1] >= upper.bbox[3] - 3 and ln.bbox[3] <= lower.bbox[1] + 3
                             and ln.bbox[2] > x0 and ln.bbox[0] < x1])
    if len(between) > MAX_LABEL_LINES:
        return None
    first = [x for x in (column_lefts(upper)[0], column_lefts(lower)[0], upper.bbox[0]) if x is not None]
    spans = [_union(a, b) for a, b in zip(column_extents(upper), column_extents(lower), strict=True)]
    sizes = [c.font_size for c in (*upper.cells, *lower.cells) if c.font_size]
    body = statistics.median(sizes) if sizes else None
    out: list[tuple[TextLine, int]] = []
    for ln in between:
        at_edge = min(abs(ln.bbox[0] - x) for x in first) <= tol
        outdented = x0 - OUTDENT <= ln.bbox[0] < min(first)
        col = 0 if at_edge or outdented or centred_heading(ln, x0, x1, tol) else _one_column(ln, spans)
        if col is None:
            return None
        if is_caption(ln.text) or is_continued(ln.text) or FOOTNOTE.match(ln.text.strip()):
            return None
        size = body if body is not None else ln.font_size
        titled = ln.font_size >= size + 1.0 or any(ch.isalpha() for ch in ln.text)  # `2 3 .`: a cell's mark
        if titled and is_strong_heading(ln, size):
            return None  # a bigger or a numbered bold line is a heading: a new table follows
        out.append((ln, col))
    return out


def _print_height(line: TextLine) -> float:
    """The line's height as printed: its box's, or what the advance of its letters says (about
    half an em each) where that is more: an OCR layer reports a heading printed large, its
    letters spread over the width the print gives them, at the body's size."""
    letters = len(line.text.replace(" ", ""))
    height = line.bbox[3] - line.bbox[1]
    return max(height, 2 * (line.bbox[2] - line.bbox[0]) / letters) if letters else height


def _union(a: tuple[float, float] | None, b: tuple[float, float] | None) -> tuple[float, float] | None:
    if a is None or b is None:
        return a or b
    return min(a[0], b[0]), max(a[1], b[1])


def may_stack(upper: RawTable, lower: RawTable, config: TransformConfig) -> bool:
    """Whether `lower` can be the rest of `upper` at all (`stacks_on`'s checks that need no
    header): right below it on the same page, from the same extractor, its columns lined up."""
    if lower.page != upper.page or lower.extractor != upper.extractor or lower.bbox[1] < upper.bbox[3] - 3:
        return False
    return columns_line_up(upper, lower, config.merge_x_tolerance)


def stacks_on(upper: RawTable, lower: RawTable, header: Sequence[Sequence[str]],
              text: PageText | None, config: TransformConfig) -> list[tuple[TextLine, int]] | None:
    """The row-label lines (and the column each goes to) between `upper` and `lower` when `lower`, right below `upper` on the
    same page, is the rest of the same table; None when they are two tables.

    Layout extractors end a piece at a section label row ("Actual", "Women") that has text in
    the first column only: the rows below keep the same columns, open with no header, and
    follow within a few row pitches; a line's room is its print's (`_print_height`).
    """
    if not may_stack(upper, lower, config):
        return None
    labels = _row_labels_between(upper, lower, text, config.merge_x_tolerance)
    if labels is None:
        return None
    pitch = max(_pitch(upper), _pitch(lower))
    room = sum(3 * max(pitch, _print_height(ln)) for ln, _ in labels)
    if lower.bbox[1] - upper.bbox[3] > 1.5 * pitch + room:
        return None  # a label row may stand in some space of its own, not in a page's worth
    grid = piece_grid(lower)
    if opens_new_header(grid, header) or repeated_header_rows(grid, header):
        return None
    return labels


def join_stacked(upper: RawTable, labels: Sequence[tuple[TextLine, int]], lower: RawTable) -> RawTable:
    """One piece: `upper`'s rows, a row per line of labels (lines level with each other in one
    row, each text in its column), `lower`'s."""
    cells = list(upper.cells)
    row, prev = upper.n_rows - 1, None
    for ln, col in labels:
        mid = (ln.bbox[1] + ln.bbox[3]) / 2
        if prev is None or not prev.bbox[1] < mid < prev.bbox[3] or any(c.row == row and c.col == col for c in cells):
            row, prev = row + 1, ln
        cells.append(Cell(row=row, col=col, text=ln.text.strip(),
                          page=upper.page, bbox=ln.bbox, bold=ln.bold, font_size=ln.font_size))
    row += 1
    cells += [c.model_copy(update={"row": c.row + row}) for c in lower.cells]
    bbox = (min(upper.bbox[0], lower.bbox[0]), upper.bbox[1],
            max(upper.bbox[2], lower.bbox[2]), lower.bbox[3])
    return upper.model_copy(update={"cells": tuple(cells), "n_rows": row + lower.n_rows, "bbox": bbox})

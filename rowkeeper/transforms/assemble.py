"""From raw per-page pieces to logical tables: the transform chain's entry point.

`assemble_tables` is what the pipeline calls. The chain: find page furniture and the content
lines around tables (context), detect each piece's header rows (headers), group pieces that a
page break cut apart (merge), then per group fold the header, drop repeated header rows,
expand spans (spans), type the columns (types) and check the result (validate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rowkeeper.caption_text import is_continued
from rowkeeper.config import TransformConfig
from rowkeeper.ids import table_id
from rowkeeper.label_text import (
    clean_text,
    fill_group_labels,
    fold_header_rows,
    join_letter_spacing,
    join_rows,
    wrapped_rows,
)
from rowkeeper.models import (
    UNDERLINED_SPANS,
    BBox,
    Cell,
    ColumnType,
    OutlineEntry,
    PageInfo,
    RawTable,
    Region,
    Table,
    TextLine,
)
from rowkeeper.transforms.captions import assign_captions, find_footnotes
from rowkeeper.transforms.column_types import (
    TYPE_THRESHOLD,
    DecimalMark,
    document_decimal_mark,
    infer_column_types,
)
from rowkeeper.transforms.context import (
    PageText,
    content_by_page,
    lines_around_tables,
    page_heights,
)
from rowkeeper.transforms.currency_signs import attach_currency_signs
from rowkeeper.transforms.cut_phrases import join_cut_labels, join_cut_phrases
from rowkeeper.transforms.form_blocks import headerless_siblings
from rowkeeper.transforms.header_labels import relabel_header
from rowkeeper.transforms.headers import key_value_shape, piece_header_rows
from rowkeeper.transforms.label_runs import cut_label_runs
from rowkeeper.transforms.merge import (
    join_stacked,
    may_stack,
    merge_continued_tables,
    piece_grid,
    repeated_header_rows,
    stacks_on,
)
from rowkeeper.transforms.orientation import (
    shown_lines,
    shown_outline,
    shown_pieces,
    turns,
    unrotated_table,
)
from rowkeeper.transforms.orphan_rows import orphan_pieces
from rowkeeper.transforms.rtl_order import logical_order
from rowkeeper.transforms.sections import Sections, document_sections
from rowkeeper.transforms.spanned_labels import split_spanned_labels
from rowkeeper.transforms.spanner_above import take_spanners_above
from rowkeeper.transforms.spanners import hold_own_labels, span_group_labels
from rowkeeper.transforms.spans import (
    across_slots,
    drop_cell_columns,
    drop_columns,
    hollow_columns,
    shift_cells_left,
    shift_labels_left,
    span_tail_columns,
    split_packed_rows,
    top_left_grid,
)
from rowkeeper.transforms.stacked_labels import split_stacked_labels
from rowkeeper.transforms.titles import split_at_titles
from rowkeeper.transforms.validate import packed_cells, validate_table
from rowkeeper.transforms.value_lines import join_value_lines
from rowkeeper.transforms.wrapped_records import join_wrapped_records

COMMA_LOCALES = ("de", "hu", "vi", "fr", "es", "it", "nl", "pl", "cs", "ru", "pt", "tr", "id")


@dataclass(frozen=True)
class Prepared:
    """A piece with its grid (spans expanded), its grid as printed, and its header row count."""

    piece: RawTable
    grid: list[list[str]]
    printed: list[list[str]]
    header_rows: int


def prepare(piece: RawTable, lines: Sequence[TextLine] = ()) -> Prepared:
    """Grids of one piece (packed rows re-split by text lines) and its header row count."""
    piece = logical_order(piece)  # RTL cells read reversed: back in reading order first
    piece = attach_currency_signs(piece)  # `$` set apart at an amount's left edge
    piece = join_value_lines(piece)  # an address over two lines in a key-value table
    piece = join_cut_phrases(piece, lines)  # a label cut at a word space by a column edge
    piece = join_cut_labels(piece, lines)  # a header label's number cut off by a column edge
    packed = {c.row for c in packed_cells(piece)}
    if packed and lines:
        piece = split_packed_rows(piece, lines, packed)
    piece = join_wrapped_records(piece)  # a record's cells wrapped onto a row of their own
    # a key-value block (finder/key_value.py) has keys where a header would be: no header row
    key_value = bool(piece.metrics.get("key_value"))
    if not key_value:
        piece = take_spanners_above(piece, lines)
        piece = cut_label_runs(piece, lines)  # dates in one box, each over its pair of columns
        rows = piece_header_rows(piece, piece_grid(piece))
        piece = relabel_header(split_spanned_labels(piece, lines, rows), lines, rows)
        piece = split_stacked_labels(piece, lines, rows)
    piece = span_group_labels(piece, lines)
    grid = piece_grid(piece)
    header_rows = 0 if key_value else piece_header_rows(piece, grid)
    if header_rows > 1:  # a stacked label's first line over its own column only: one cell with its next
        piece = hold_own_labels(piece, lines, header_rows)
        grid = piece_grid(piece)
    printed = [[clean_text(t) for t in r] for r in top_left_grid(piece.cells, piece.n_rows, piece.n_cols)]
    return Prepared(piece, grid, printed, header_rows)


def decimal_mark(config: TransformConfig, prepared: Sequence[Prepared],
                 lines: Sequence[TextLine]) -> DecimalMark:
    """The document's default decimal mark: from config's locale, else from its numbers and text."""
    if config.locale != "auto":
        return "," if config.locale.lower()[:2] in COMMA_LOCALES else "."
    columns = [[r[c] for r in p.grid[p.header_rows:]] for p in prepared for c in range(p.piece.n_cols)]
    return document_decimal_mark(columns, " ".join(ln.text for ln in lines[:400]))


def _cells(p: Prepared, drop: int, offset: int) -> list[Cell]:
    """The piece's cells minus `drop` leading rows, renumbered from `offset`, with provenance;
    a header cell's letter spacing dropped line by line as its column name drops it
    (`単価( 円)`, `品 目` -> `単価(円)`, `品目`: the cell says what the name says)."""
    out = []
    for c in p.piece.cells:
        if c.row < drop:
            continue
        row = c.row - drop + offset
        header = row < p.header_rows and offset == 0
        text = "\n".join(join_letter_spacing(part) for part in c.text.split("\n")) if header else c.text
        out.append(c.model_copy(update={
            "row": row, "is_header": header, "page": c.page or p.piece.page, "text": text,
        }))
    return out


def _body(group: Sequence[Prepared]) -> tuple[list[list[str]], list[Cell], int]:
    """Body rows and cells of a merged group; and the row count the pieces account for."""
    first = group[0]
    header = first.grid[: first.header_rows]
    body = [list(r) for r in first.grid[first.header_rows:]]
    cells = _cells(first, 0, 0)
    expected = first.piece.n_rows - first.header_rows
    for p in group[1:]:
        drop = repeated_header_rows(p.grid, header) if header else 0
        cells += _cells(p, drop, first.header_rows + len(body))
        body += [list(r) for r in p.grid[drop:]]
        expected += p.piece.n_rows - drop
    width = first.piece.n_cols
    return [(r + [""] * width)[:width] for r in body], cells, expected


def _empty_types(width: int) -> tuple[ColumnType, ...]:
    return tuple("empty" for _ in range(width))


@dataclass(frozen=True)
class DocContext:
    """What every table of a document is assembled against."""

    doc_id: str
    source: str
    text: dict[int, PageText]
    sections: Sections
    mark: DecimalMark
    config: TransformConfig
    captions: dict[str, TextLine]
    """Caption line by piece id, assigned over all pieces of the document at once."""


def piece_captions(ordered: Sequence[RawTable], found: dict[int, TextLine]) -> dict[str, TextLine]:
    """Caption line by piece id: the caption a piece declares (a tagged table's Caption
    element), else the line the caption finder gave it, unless another piece declares it."""
    declared = [p.caption.text.strip() for p in ordered if p.caption is not None]
    out = {ordered[i].piece_id: ln for i, ln in found.items()
           if not (ln.text.strip() and any(d.startswith(ln.text.strip()) for d in declared))}
    return out | {p.piece_id: p.caption for p in ordered if p.caption is not None}


def table_caption(captions: dict[str, TextLine], pieces: Sequence[RawTable]) -> TextLine | None:
    """The caption of a table from the lines its pieces were given: the first piece's, else the
    last's (a caption under a long table ends it), a '(continued)' line only if nothing else."""
    found = [captions[p.piece_id] for p in (pieces[0], pieces[-1], *pieces[1:-1]) if p.piece_id in captions]
    return next((ln for ln in found if not is_continued(ln.text)), found[0] if found else None)


def field_types(types: Sequence[ColumnType], values: Sequence[Sequence[float | None]]
                ) -> tuple[tuple[ColumnType, ...], tuple[tuple[float | None, ...], ...]]:
    """A key-value block's column types: text where a column holds anything. Each row is a field
    of its own (`Address` | `2021-12-14`, `Project` | `2024-06-15`), so the values beside the
    keys share no kind, however alike two or three of them happen to read."""
    return tuple("text" if t != "empty" else t for t in types), tuple(tuple(None for _ in r) for r in values)


def build_table(ctx: DocContext, n: int, group: Sequence[Prepared]) -> Table:
    """One logical table from a group of pieces (first piece holds the header)."""
    first, last = group[0], group[-1]
    h = first.header_rows
    body, cells, expected = _body(group)
    printed = first.printed[:h] + top_left_grid(cells, h + len(body), first.piece.n_cols)[h:]
    into = span_tail_columns(printed, first.grid[:h] + body, h)
    tails = sorted(into)
    grid_head = shift_labels_left(first.grid[:h], into, first.printed[:h])
    body = shift_labels_left(body, into, printed[h:])
    printed_head = shift_labels_left(first.printed[:h], into)
    cells = shift_cells_left(cells, into)
    hollow = sorted({*tails, *hollow_columns(grid_head, body)})
    if len(hollow) >= first.piece.n_cols:
        hollow = tails
    header = drop_columns(grid_head, hollow)
    body = drop_columns(body, hollow)
    width = first.piece.n_cols - len(hollow)
    shown = drop_columns(printed_head, hollow)
    wrapped = wrapped_rows(shown)  # lines of the same cells: joined as lines, not as levels
    reach = not first.piece.metrics.get(UNDERLINED_SPANS)  # a rule's span is no spread one
    columns = fold_header_rows(fill_group_labels(join_rows(header, wrapped), reach)) if h else ("",) * width
    cells = drop_cell_columns(cells, hollow)
    types, values = infer_column_types(body, TYPE_THRESHOLD, ctx.mark, across_slots(cells, h))
    if first.piece.metrics.get("key_value") or (not h and key_value_shape(body)):
        # a headerless grid of keys beside values of mixed kinds (a ruled block of fields, two
        # pairs a row) is a form's fields however it was read
        types, values = field_types(types, values)
    caption = table_caption(ctx.captions, [p.piece for p in group])
    pieces = [p.piece for p in group]
    table = Table(
        doc_id=ctx.doc_id, source=ctx.source, table_id=table_id(ctx.doc_id, n),
        pages=tuple(sorted({p.page for p in pieces})),
        regions=tuple(Region(page=p.page, bbox=p.bbox) for p in pieces),
        caption=" ".join(caption.text.split()) if caption else None,  # runs of spaces collapsed, as in cells
        section_path=ctx.sections.path_at(first.piece.page, first.piece.bbox),
        footnotes=find_footnotes(ctx.text.get(last.piece.page), last.piece.bbox),
        header_rows=h, header_grid=tuple(tuple(r) for r in join_rows(shown, wrapped)),
        columns=tuple(columns) + ("",) * (width - len(columns)),
        rows=tuple(tuple(r) for r in body), cells=tuple(cells),
        column_types=types or _empty_types(width), values=values,
        extractor=first.piece.extractor, extractor_version=first.piece.extractor_version,
        merged_from=tuple(p.piece_id for p in pieces),
    )
    return table.model_copy(update={"validation": validate_table(table, ctx.config, expected)})


def join_stacked_pieces(ordered: Sequence[RawTable], lines: Sequence[TextLine],
                        text: dict[int, PageText], config: TransformConfig,
                        prepared: Callable[[RawTable], Prepared] | None = None) -> list[RawTable]:
    """Pieces in reading order, those that one table's section label rows cut apart joined
    (`prepared`: a piece's `prepare`, when the caller keeps them)."""
    prepared = prepared or (lambda p: prepare(p, lines))
    out: list[RawTable] = []
    for p in ordered:
        if out and may_stack(out[-1], p, config):  # the header is read only where it can matter
            up = prepared(out[-1])
            labels = stacks_on(out[-1], p, up.grid[: up.header_rows], text.get(p.page), config)
            if labels is not None:
                out[-1] = join_stacked(out[-1], labels, p)
                continue
        out.append(p)
    return out


def prepared_once(lines: Sequence[TextLine]) -> Callable[[RawTable], Prepared]:
    """`prepare` of a piece, computed once per piece object (a piece is frozen, `prepare` pure)."""
    done: dict[int, tuple[RawTable, Prepared]] = {}

    def prepared(piece: RawTable) -> Prepared:
        hit = done.get(id(piece))
        if hit is None or hit[0] is not piece:
            hit = done[id(piece)] = (piece, prepare(piece, lines))  # the piece kept: its id stays its own
        return hit[1]

    return prepared


def assemble_tables(
    doc_id: str,
    source: str,
    pieces: Sequence[RawTable],
    lines: Sequence[TextLine],
    pages: Sequence[PageInfo],
    config: TransformConfig,
    outline: Sequence[OutlineEntry] = (),
) -> tuple[Table, ...]:
    """Logical tables of a document, in reading order (page, then top); section paths from the
    PDF's `outline` when it has one, refined by headings.

    On pages with a /Rotate the chain reasons on boxes as the page shows them (what is above,
    what ends the page) and the tables' regions and cells are handed back unrotated."""
    # a grid with no text in any cell (a layer's reading of a drawing kept as the page's best
    # reject) is no table: it would be emitted as one of empty rows under empty names
    pieces = [p for p in pieces if any(c.text.strip() for c in p.cells)]
    if not pieces:  # a page of prose: no table to place, so no document-wide pass either
        return ()
    by_page = turns(pages)
    if by_page:
        pieces = shown_pieces(pieces, by_page)
        lines = shown_lines(lines, by_page)
        outline = shown_outline(outline, by_page)
    raw_boxes: dict[int, list[BBox]] = {}
    for p in pieces:
        raw_boxes.setdefault(p.page, []).append(p.bbox)
    every_line, lines = lines, lines_around_tables(lines, raw_boxes, pages)
    pieces = [part for p in pieces for part in split_at_titles(p, lines)]
    ordered = sorted(pieces, key=lambda p: (p.page, p.bbox[1], p.bbox[0]))
    text = content_by_page(lines, pages, [(p.page, p.bbox) for p in ordered])
    prepared_of = prepared_once(lines)
    ordered = join_stacked_pieces(ordered, lines, text, config, prepared_of)
    orphans = orphan_pieces(ordered, lines, pages, text, config)
    if orphans:  # the last rows of a table alone at the top of the next page, read back
        ordered = sorted([*ordered, *orphans], key=lambda p: (p.page, p.bbox[1], p.bbox[0]))
    prepared = {p.piece_id: prepared_of(p) for p in ordered}
    fields = headerless_siblings([p.piece for p in prepared.values()], [p.header_rows for p in prepared.values()])
    prepared = {pid: replace(p, header_rows=0) if pid in fields else p for pid, p in prepared.items()}
    ordered = [prepared[p.piece_id].piece for p in ordered]  # header labels put back in place
    boxes = [(p.page, p.bbox) for p in ordered]
    text = content_by_page(lines, pages, boxes)  # a caption taken out of a header row is outside
    headers = {pid: p.grid[: p.header_rows] for pid, p in prepared.items()}
    groups = merge_continued_tables(ordered, headers, text, page_heights(pages, lines), config)
    everything = text if lines is every_line else content_by_page(every_line, pages, boxes)
    sections = document_sections(everything, every_line, outline, pages)
    ctx = DocContext(doc_id, source, text, sections,
                     decimal_mark(config, list(prepared.values()), lines), config,
                     piece_captions(ordered, assign_captions(text, boxes, sections.order.columns)))
    # a continuation whose split column the merge joined (merge.split_columns) is read again
    return tuple(unrotated_table(build_table(ctx, n, [prepared[p.piece_id] if prepared[p.piece_id].piece is p
                                                      else prepared_of(p) for p in g]), by_page)
                 for n, g in enumerate(groups, start=1))

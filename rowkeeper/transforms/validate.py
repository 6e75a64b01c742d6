"""Checks on a logical table (and on a layer's raw pieces, for the extractor cascade).

Problems are values: each check says passed or not, why, and which cells or rows fail,
so a report can point at them and the cascade can escalate to the next layer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from rowkeeper.config import TransformConfig
from rowkeeper.glyphs import STRAY_MARKS
from rowkeeper.label_text import spaced_code
from rowkeeper.models import Cell, Check, RawTable, Table, Validation
from rowkeeper.transforms.column_types import parse_cell
from rowkeeper.transforms.spans import across_slots, expand_spans

NUMERIC_KINDS = frozenset({"integer", "decimal", "percent", "currency"})
MAX_LISTED = 20
"""Failing cells listed per check (the rest are counted in the detail)."""


def check_row_width(table: Table) -> Check:
    """Every body row has exactly one value per column."""
    bad = [f"row {i}: {len(r)} cells" for i, r in enumerate(table.rows) if len(r) != len(table.columns)]
    return Check(name="row_width", passed=not bad, failures=tuple(bad[:MAX_LISTED]),
                 detail=f"{len(table.columns)} columns; {len(bad)} rows of another width")


def check_header(table: Table) -> Check:
    """The table has a header naming at least one column."""
    ok = table.header_rows > 0 and any(c.strip() for c in table.columns)
    unnamed = [str(i) for i, c in enumerate(table.columns) if not c.strip()]
    detail = f"{table.header_rows} header rows; {len(unnamed)} unnamed columns"
    return Check(name="header_present", passed=ok, detail=detail, failures=tuple(unnamed[:MAX_LISTED]))


def check_empty_ratio(table: Table, max_ratio: float) -> Check:
    """Not too many empty body cells (a sign of a wrong column split)."""
    total = sum(len(r) for r in table.rows)
    empty = sum(1 for r in table.rows for t in r if not t.strip())
    ratio = empty / total if total else 0.0
    return Check(name="empty_ratio", passed=ratio <= max_ratio,
                 detail=f"{empty}/{total} empty ({ratio:.0%}, max {max_ratio:.0%})")


def type_failures(rows: Sequence[Sequence[str]], types: Sequence[str],
                  values: Sequence[Sequence[float | None]], min_share: float,
                  across: Collection[tuple[int, int]] = ()) -> list[str]:
    """Cells that do not parse as their column's type, in columns below `min_share` conformity.

    A numeric column's cell conforms when it parsed to a number (`values`, which used the
    column's own decimal mark); a date column's when it reads as a date. A word merged across
    columns (`across`, body slots) is no cell of its column's type, as in typing.
    """
    out: list[str] = []
    for c, col_type in enumerate(types):
        if col_type in ("text", "empty"):
            continue
        filled = [i for i, r in enumerate(rows) if c < len(r) and parse_cell(r[c]).kind != "empty"
                  and ((i, c) not in across or parse_cell(r[c]).kind != "text")]
        if col_type == "date":
            bad = [i for i in filled if parse_cell(rows[i][c]).kind != "date"]
        else:
            bad = [i for i in filled if i >= len(values) or values[i][c] is None]
        if filled and (len(filled) - len(bad)) / len(filled) < min_share:
            out.extend(f"r{i}c{c}={rows[i][c]!r} not {col_type}" for i in bad)
    return out


def check_types(table: Table, min_share: float) -> Check:
    """At least `min_share` of each typed column's non-empty cells parse as its type."""
    bad = type_failures(table.rows, table.column_types, table.values, min_share,
                        across_slots(table.cells, table.header_rows))
    return Check(name="type_conformity", passed=not bad, failures=tuple(bad[:MAX_LISTED]),
                 detail=f"{len(bad)} cells off their column type (min {min_share:.0%} conform)")


def check_row_count(table: Table, expected: int) -> Check:
    """Merged body rows = rows of the pieces minus header rows and dropped repeated headers."""
    return Check(name="merged_row_count", passed=len(table.rows) == expected,
                 detail=f"{len(table.rows)} body rows, pieces account for {expected}")


def validate_table(table: Table, config: TransformConfig, expected_rows: int | None = None) -> Validation:
    """All checks of one logical table."""
    checks = [check_row_width(table), check_header(table),
              check_empty_ratio(table, config.max_empty_ratio),
              check_types(table, config.min_type_conformity)]
    if expected_rows is not None:
        checks.append(check_row_count(table, expected_rows))
    return Validation(passed=all(c.passed for c in checks), checks=tuple(checks))


IDENTIFIER_DIGITS = 10
"""A run of this many digits or more, ungrouped, is an identifier (an account, a phone or a
reference number in a statement's detail), not a figure: a table sets figures that long with
their thousands grouped."""


def _figure(token: str) -> bool:
    """Whether `token` reads as a figure (a number, percent, currency, date), not an identifier."""
    return parse_cell(token).kind in NUMERIC_KINDS and not (token.isdigit() and len(token) >= IDENTIFIER_DIGITS)


OCR_MARKS = STRAY_MARKS + ".,"
"""Marks an OCR text layer reads from specks beside a figure ("27 2 0 0 '", "3 400-"), and the
dot and comma a speck also reads as."""


def spaced_figure(text: str) -> bool:
    """Whether `text` is one figure an OCR layer set letter-spaced ("27 2 0 0", "17 0 00-"):
    groups of digits one space apart, the first of one to three digits and the others together
    whole groups of thousands (the digits of "27 200" read with a space after each), a speck's
    mark or two around them. Figures of a row packed in one cell ("1 2 3", "10 20 30") do not
    add up to groups of three."""
    tokens = text.strip(OCR_MARKS + " ").split()
    rest = "".join(tokens[1:])
    return len(tokens) >= 3 and all(t.isdigit() for t in tokens) and len(tokens[0]) <= 3 \
        and len(rest) % 3 == 0 and any(len(t) < 3 for t in tokens[1:])


def packed_cells(piece: RawTable) -> list[Cell]:
    """Body cells holding several numbers ("2.3 0.21 8.8"): rows the extractor failed to split.

    A cell that reads as one number (`12 345 678`, space thousands) is not packed, nor is a
    sentence that cites figures ("changes range between -1.9% and 2.2% with an annual growth
    rate of 1.4%"): in a packed row figures stand side by side, or make a third of the words.
    Long ungrouped digit runs are identifiers (`_figure`): a record's detail lines naming an
    account and a phone number are no values packed.
    """
    out = []
    for c in piece.cells:
        if c.is_header or c.row == 0 or parse_cell(c.text).kind != "text" or spaced_code(c.text.strip()) \
                or spaced_figure(c.text):
            continue  # a year or code letter-spaced like CJK labels beside it ("2 0 2 3") is one value
        flags = [_figure(t) for t in c.text.split()]
        figures, run, longest = sum(flags), 0, 0
        for f in flags:
            run = run + 1 if f else 0
            longest = max(longest, run)
        # a cell spanning columns needs fewer numbers to be a whole row packed into one cell;
        # figures set side by side, or a third of the words, are a row's values packed
        if figures >= (2 if c.col_span > 1 else 3) and (longest >= 2 or 3 * figures >= len(flags)):
            out.append(c)
    return out


def piece_problems(pieces: Sequence[RawTable], config: TransformConfig) -> tuple[str, ...]:
    """What is wrong with a layer's tables on one page (empty = adequate), for the cascade."""
    out: list[str] = []
    for p in pieces:
        packed = packed_cells(p)
        if packed:
            first = f"r{packed[0].row}c{packed[0].col}={packed[0].text[:40]!r}"
            out.append(f"{p.piece_id}: {len(packed)} cells hold several values ({first})")
        grid = expand_spans(p.cells, p.n_rows, p.n_cols)
        total = p.n_rows * p.n_cols
        empty = sum(1 for r in grid for t in r if not t.strip())
        if total and empty / total > config.max_empty_ratio:
            out.append(f"{p.piece_id}: {empty}/{total} cells empty")
        # Type conformity is not asked here: a note row inside a good grid fails it, and the
        # next layer's output is then usually worse (peer eu-013 p4: pymupdf -> prose grid).
    return tuple(out)


def validate_pieces(pieces: Sequence[RawTable]) -> tuple[str, ...]:
    """`piece_problems` with default settings: the cascade's `validate` callback."""
    return piece_problems(pieces, TransformConfig())


def piece_validator(config: TransformConfig) -> Callable[[Sequence[RawTable]], tuple[str, ...]]:
    """A cascade `validate` callback bound to the run's transform settings."""
    return lambda pieces: piece_problems(pieces, config)


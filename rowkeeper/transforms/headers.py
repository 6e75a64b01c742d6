"""Header rows: find them (flags, typography, labels over numbers) and fold them into names.

A header is "labels over numbers": leading rows that put words (or years) above columns whose
body is numeric. Extractor flags and bold type confirm it; a numeric first row is never a
header. Several header rows fold into one name per column (`BLEU` over `EN-DE` ->
`BLEU EN-DE`), a group label filling every column it spans.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property

from rowkeeper.label_text import clean_text, continues_line, period_label, spaced_code
from rowkeeper.models import DECLARED_HEADER_ROWS, RawTable
from rowkeeper.transforms.column_types import parse_cell
from rowkeeper.transforms.figures import figure_columns, is_number
from rowkeeper.transforms.heads import (
    YEAR,
    heads_over_figures,
    rising_heads,
    units_over_figures,
    years_over_numbers,
)

MAX_HEADER_ROWS = 4
MAX_TYPESET_HEADER_ROWS = 6
"""Header rows past MAX_HEADER_ROWS are taken only while bold type over a regular body (or the
extractor's flag) sets each apart: a label stacked word by word over five lines."""
def is_label_row(row: Sequence[str], below: Sequence[Sequence[str]], cols: list[bool]) -> bool:
    """Words (not numbers) in at least one numeric column and no number in any numeric column."""
    cells = [(c, t) for c, t in enumerate(row) if c < len(cols) and cols[c] and t.strip()]
    if not cells:
        return False
    if all(not is_number(t) for _, t in cells):
        return True
    return years_over_numbers(row, below, cols)


_SENTENCE_END = re.compile(r"(?:\w{2,}[.!?]|[。！？])$")


def _code(text: str) -> bool:
    """A reference, phone or account number ("V-2026-0412"): besides one year (a period label
    such as "Q1 2025", "2024/25", "2024年3月", "Q1/24" or "1H23" is a header), at least three
    digits and no fewer digits than letters."""
    if period_label(text):
        return False
    rest = re.sub(r"(?<!\d)(?:19|20|21)\d\d(?!\d)", "", text, count=1)
    digits = sum(ch.isdigit() for ch in rest)
    return digits >= 3 and digits >= sum(ch.isalpha() for ch in rest)


def reads_as_data(row: Sequence[str]) -> bool:
    """A row no reader takes for labels: a number, date or code (a year aside), a key with a
    colon before a filled cell ("Kunde:" | "Müller GmbH"), or a sentence of four words or more.
    A year letter-spaced like the CJK labels beside it ("2 0 2 3") reads as the year."""
    cells = [clean_text(t) if spaced_code(t.strip()) else t.strip() for t in row]
    for c, t in enumerate(cells):
        if not t:
            continue
        if (is_number(t) or _code(t)) and not YEAR.match(t):
            return True
        if t.endswith((":", "：")) and any(cells[c + 1:]):
            return True
        if _SENTENCE_END.search(t) and len(t.split()) >= 4:
            return True
    return False


def wrapped_labels_line(above: Sequence[Sequence[str]], row: Sequence[str]) -> bool:
    """Whether `row` is a line of the labels over it, set bottom-aligned over a tall header:
    some label goes on the nearest one above it in its column (`continues_line`: `coverage` under
    `desired population`, `only` under `graduate`), every other stands where its column has
    no label above but group labels over several columns (a one-line label on the header's
    last line: `Neither` under `Percent who borrowed`, the stub)."""
    going_on = False
    for c, t in enumerate(row):
        if not t.strip():
            continue
        up = next((r[c] for r in reversed(above) if c < len(r) and r[c].strip() and not _spread(r, c)), "")
        if up and not continues_line(up, t):
            return False
        going_on = going_on or bool(up)
    return going_on


def _spread(row: Sequence[str], c: int) -> bool:
    """Whether the label in slot c is a group label's, its text in a slot beside it too."""
    return c > 0 and row[c - 1] == row[c] or c + 1 < len(row) and row[c + 1] == row[c]


def titled_label_row(row: Sequence[str], figures: Sequence[bool]) -> bool:
    """A title or stub ending in a colon in the first column, then labels (no figure, no code)
    over two or more figure columns and nothing else (`World capacity:` | `Fused oxide` |
    `Silicon carbide`): a header row, not a key beside its value (a form's key has one)."""
    rest = [(c, t.strip()) for c, t in enumerate(row) if c and t.strip()]
    return bool(row) and row[0].strip().endswith((":", "：")) and len(rest) >= 2 and \
        all(c < len(figures) and figures[c] and not (is_number(t) or _code(t)) for c, t in rest)


def key_value_shape(grid: Sequence[Sequence[str]]) -> bool:
    """Key-value pairs, one or more per row: keys in the even columns (every row has its
    first), values of mixed kinds in the odd ones (a number or a date beside a name), or every
    cell a short phrase (`short_fields`); a form's fields, where a first row is one more field."""
    n_cols = max((len(r) for r in grid), default=0)
    if n_cols % 2 or n_cols > 6 or len(grid) < 2 or any(len(r) != n_cols for r in grid):
        return False
    values = [r[c].strip() for r in grid for c in range(1, n_cols, 2) if r[c].strip()]
    data = sum(1 for t in values if is_number(t) or _code(t))
    return all(r[0].strip() for r in grid) and (0 < data < len(values) or short_fields(grid))


FIELD_WORDS, FIELD_CHARS = 4, 40
"""A field's key or value: this many words and characters at most (a name, a place, a date)."""


def short_fields(grid: Sequence[Sequence[str]]) -> bool:
    """Every cell filled with a short phrase (`FIELD_WORDS`, `FIELD_CHARS`), no sentence, and
    some value under the first row a name with a short number (`_NUMBERED_NAME`: an address,
    `大阪 87`): keys beside names and places (`住所` | `那覇`). With nothing to set its first row
    apart, such a grid is a form's fields, not labels over columns; a plain list of one kind
    under its labels (`Item` | `Colour` over `Chair` | `red`) keeps its header."""
    cells = [clean_text(t) for r in grid for t in r]
    return all(cells) and all(len(t) <= FIELD_CHARS and len(t.split()) <= FIELD_WORDS
                              and not _SENTENCE_END.search(t) for t in cells) \
        and any(_NUMBERED_NAME.match(r[c].strip()) for r in grid[1:] for c in range(1, len(r), 2))


_NUMBERED_NAME = re.compile(r"^[^\W\d_]{2,}(?:[ .'-]+[^\W\d_]+)*\.? \d{1,3}[a-z]?$")
"""A name with a short number after it: a street and its house number (`Waldstraße 22`,
`Hauptstr. 5`), a place and its unit; what a form's field holds, not a column label."""


def numbered_value_row(grid: Sequence[Sequence[str]]) -> bool:
    """Whether the first row of a key-value shaped grid (an even count of columns up to six,
    a key first in every row) holds, where a value goes (an odd column), a name with a short
    number after it (`_NUMBERED_NAME`): a field's value, which no column label reads like."""
    n_cols = max((len(r) for r in grid), default=0)
    if n_cols % 2 or n_cols > 6 or len(grid) < 2 or not all(r and r[0].strip() for r in grid):
        return False
    return any(_NUMBERED_NAME.match(grid[0][c].strip()) for c in range(1, len(grid[0]), 2))


def _mixed_values(body: Sequence[Sequence[str]]) -> bool:
    """Whether a form's values (odd columns) are of mixed kinds, no kind holding 3 in 4 of
    them: a column of prices under "Price" is one kind."""
    kinds = [parse_cell(r[c]).kind for r in body for c in range(1, len(r), 2) if r[c].strip()]
    return bool(kinds) and max(kinds.count(k) for k in set(kinds)) < 0.75 * len(kinds)


def _section_label(row: Sequence[str], above: Sequence[str]) -> bool:
    """Text in the first column only, under a header row that already names that column
    ("Loan type" spanning the header, then "Real estate loans"): the label of a group of body
    rows, not a header row."""
    return bool(above) and bool(row) and bool(row[0].strip()) and bool(above[0].strip()) \
        and row[0].strip() != above[0].strip() and not any(t.strip() for t in row[1:])


class RowEvidence:
    """What tells whether a leading row of a table is a header row, signal by signal; each
    signal is read when a rule first asks for it (a row of figures is told at the first)."""

    def __init__(self, grid: Sequence[Sequence[str]], n: int, cols: list[bool],
                 flagged: Sequence[bool] = (), bold: Sequence[bool | None] = (),
                 wide: Sequence[Sequence[tuple[int, int]]] = ()) -> None:
        self.grid, self.n, self.cols, self.bold = grid, n, cols, bold
        self.row, self.above, self.below = grid[n], grid[n - 1] if n else (), grid[n + 1:]
        self.flagged = n < len(flagged) and flagged[n]  # the extractor's flag: a ruled header cell, a TH
        self.wide = wide[n] if n < len(wide) else ()  # (col, col_span) of its cells over several columns

    @cached_property
    def set_apart(self) -> bool:
        """The flag, or bold type over a body that is not bold (`_bold_contrast`)."""
        return self.flagged or _bold_contrast(self.bold, self.n)

    @cached_property
    def numbers(self) -> bool:
        """A number in a column whose body holds numbers."""
        return any(is_number(t) for c, t in enumerate(self.row) if c < len(self.cols) and self.cols[c])

    @cached_property
    def years(self) -> bool:
        """Years over figures that are no years (`heads.years_over_numbers`)."""
        return years_over_numbers(self.row, self.below, self.cols)

    @cached_property
    def heads(self) -> bool:
        """Heads that read like figures: periods, ranges, rising numbers (`heads.heads_over_figures`)."""
        return heads_over_figures(self.row, self.below, self.above, self.cols)

    @cached_property
    def rising(self) -> bool:
        """Numeric heads rising under group labels (`heads.rising_heads`)."""
        return rising_heads(self.row, self.below, self.above, self.cols)

    @cached_property
    def lone_label(self) -> bool:
        """One label and nothing else, past the first column."""
        filled = [c for c, t in enumerate(self.row) if t.strip()]
        return len(filled) == 1 and filled[0] > 0

    @cached_property
    def labels(self) -> bool:
        """Words over figure columns and no number there (`is_label_row`)."""
        return is_label_row(self.row, self.below, self.cols)

    @cached_property
    def wraps_on(self) -> bool:
        """The header's labels wrapped onto this line (`wrapped_labels_line`)."""
        return self.labels and wrapped_labels_line(self.grid[: self.n], self.row)

    @cached_property
    def data(self) -> bool:
        """A number, code, `key:` before a value or a sentence in it (`reads_as_data`)."""
        return reads_as_data(self.row)

    @cached_property
    def titled(self) -> bool:
        """A title ending in a colon, then labels over figure columns (`titled_label_row`)."""
        return titled_label_row(self.row, self.cols)

    @cached_property
    def units(self) -> bool:
        """Units over the figure columns (`heads.units_over_figures`)."""
        return units_over_figures(self.row, self.cols)

    @cached_property
    def section(self) -> bool:
        """Text in the first column only, under a row naming it: a group of body rows starts."""
        return _section_label(self.row, self.above)

    @cached_property
    def merged_value(self) -> bool:
        """Under the header, one cell merged across figure columns (`included` over the amounts)
        beside the row's own key in a column of no figures, under a row that names each of those
        columns apart: a body row's value, not a spanner (a spanner stands over heads, beside
        the stub's name at most)."""
        def named(j: int, k: int) -> bool:  # the row above names each covered column apart
            heads = [self.above[c].strip() if c < len(self.above) else "" for c in range(j, j + k)]
            return all(heads) and len(set(heads)) == k

        over = any(k > 1 and all(c < len(self.cols) and self.cols[c] for c in range(j, j + k)) and named(j, k)
                   for j, k in self.wide)
        return self.n > 0 and over and any(t.strip() for c, t in enumerate(self.row) if c < len(self.cols) and not self.cols[c])

    @cached_property
    def form(self) -> bool:
        """The first row of a grid shaped as key-value pairs (`key_value_shape`)."""
        return self.n == 0 and key_value_shape(self.grid)

    @cached_property
    def form_field(self) -> bool:
        """The first row reads as one more field of a form: an amount or a date among names in
        its values, or an address where a label would stand (`numbered_value_row`)."""
        return self.n == 0 and ((len(self.row) == 2 and self.form and _mixed_values(self.grid[1:]))
                                or numbered_value_row(self.grid))


def header_row(e: RowEvidence, n: int, figures: bool, prev: RowEvidence | None = None) -> bool:
    """Whether row n is a header row, given its evidence, the previous row's and whether the
    body has figure columns; each rule a reason it is not."""
    if prev is not None and prev.rising and e.lone_label and not e.set_apart:
        return False  # a line under numeric heads opens a section: group labels stand over heads
    if e.numbers and not (e.years or e.heads):
        return False  # a number where the body has numbers: data, whatever the flags say
    if e.section and not e.flagged:
        return False  # a group of the body's rows starts, bold or not
    if e.merged_value and not e.set_apart:
        return False  # a word merged across the amounts beside its row's key
    if n >= MAX_HEADER_ROWS and (not (e.set_apart or e.wraps_on) or e.data):
        return False  # past the usual depth only labels set apart or run on (a bold total row is data)
    if e.data and not (e.set_apart or e.heads or e.titled or e.units):
        return False  # no type or typography sets it apart: the first row of a headerless table
    if e.form_field and not e.set_apart:
        return False  # one more field of a form (an amount among names, an address)
    if figures:
        return e.set_apart or e.heads or e.labels
    return e.set_apart or (n == 0 and not e.form)


def detect_header_rows(
    grid: Sequence[Sequence[str]],
    flagged: Sequence[bool] = (),
    bold: Sequence[bool | None] = (),
    wide: Sequence[Sequence[tuple[int, int]]] = (),
) -> int:
    """How many leading rows of `grid` (spans expanded) are header rows; `wide`, per row, the
    (column, columns spanned) of its cells merged across several columns."""
    if not grid:
        return 0
    limit = min(MAX_TYPESET_HEADER_ROWS, len(grid) - 1)
    cols = figure_columns(grid[1:])
    n, prev = 0, None
    while n < limit:
        e = RowEvidence(grid, n, cols, flagged, bold, wide)
        if not header_row(e, n, any(cols), prev):
            break
        n, prev = n + 1, e
    return n


def piece_header_rows(piece: RawTable, grid: Sequence[Sequence[str]]) -> int:
    """`detect_header_rows` for a piece: its grid plus the extractor's header flags and each
    row's type (bold when all its filled cells are, None when mixed or unknown)."""
    declared = piece.metrics.get(DECLARED_HEADER_ROWS)
    if declared:  # the structure tree's THead / TH rows: the author's header
        return min(int(declared), piece.n_rows - 1)
    flagged = [False] * piece.n_rows
    bolds: list[list[bool | None]] = [[] for _ in range(piece.n_rows)]
    wide: list[list[tuple[int, int]]] = [[] for _ in range(piece.n_rows)]
    for c in piece.cells:
        if 0 <= c.row < piece.n_rows:
            flagged[c.row] = flagged[c.row] or c.is_header
            if c.text.strip():
                bolds[c.row].append(c.bold)
                if c.col_span > 1:
                    wide[c.row].append((c.col, c.col_span))
    bold = [None if not b or None in b else all(b) for b in bolds]
    if not any(flagged) and bold_key_column(piece):
        return 0
    return detect_header_rows(grid, flagged, bold, wide)


def bold_key_column(piece: RawTable) -> bool:
    """The first column bold in every row and no other cell bold in any: a form's keys beside
    their values (one pair a row, or two with the second key set like a value), with no
    header row: a header would be bold across, and its first row is set like the rows below."""
    if piece.n_cols < 2 or piece.n_rows < 2:
        return False
    keys: list[bool | None] = []
    values: list[bool | None] = []
    for c in piece.cells:
        if c.text.strip():
            (keys if c.col == 0 and c.col_span == 1 else values).append(c.bold)
    return len(keys) == piece.n_rows and all(b is True for b in keys) and bool(values) \
        and all(b is False for b in values)


def header_evidence(piece: RawTable) -> bool:
    """Whether anything but its words sets the piece's first row apart as a header: an
    extractor's header flag, or bold type over a body that is not bold."""
    bolds: list[list[bool | None]] = [[] for _ in range(piece.n_rows)]
    for c in piece.cells:
        if c.row == 0 and c.is_header:
            return True
        if 0 <= c.row < piece.n_rows and c.text.strip():
            bolds[c.row].append(c.bold)
    return _bold_contrast([None if not b or None in b else all(b) for b in bolds], 0)


def _bold_contrast(bold: Sequence[bool | None], n: int) -> bool:
    """Row n (and those above) bold while the body below is not: typography says header."""
    if n >= len(bold) or bold[n] is not True:
        return False
    rest = [b for b in bold[n + 1:] if b is not None]
    return bool(rest) and sum(1 for b in rest if b) <= len(rest) * 0.2

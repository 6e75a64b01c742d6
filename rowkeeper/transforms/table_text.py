"""How a table reads as text: column labels, the row key, Markdown and HTML renderings."""

from __future__ import annotations

import html
import re

from rowkeeper.models import Cell, Table

_NUMERIC = re.compile(r"^[\s\-−+(]*[$€¥£]?[\d.,\s ]+%?\)?\s*[A-Za-z円€$]*$")
_TOKEN = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]|[^\W_]+", re.UNICODE)


def clean(text: str) -> str:
    """One line of text: newlines and runs of spaces become one space."""
    # str.split() parts at exactly the characters `\s` matches (both Py_UNICODE_ISSPACE), so
    # this is `_WS.sub(" ", text).strip()`, 5x faster: it runs on every line of every page
    return " ".join(text.split())


def count_tokens(text: str) -> int:
    """Approximate token count: each word or number, and each CJK character, counts one."""
    return len(_TOKEN.findall(text))


def column_labels(columns: tuple[str, ...]) -> tuple[str, ...]:
    """Column names as written in chunks; a column with no header reads `Column N`."""
    return tuple(clean(c) or f"Column {i + 1}" for i, c in enumerate(columns))


def _is_numeric(value: str) -> bool:
    return bool(_NUMERIC.match(value))


def key_column(table: Table, forced: int | None = None) -> int:
    """The row-key column: forced, else the first text column whose values are unique, else 0."""
    n_cols = len(table.columns)
    if forced is not None and 0 <= forced < n_cols:
        return forced
    for j in range(n_cols):
        values = [clean(r[j]) for r in table.rows if j < len(r)]
        if not values or any(not v for v in values):
            continue
        numeric = sum(_is_numeric(v) for v in values) / len(values)
        if numeric < 0.5 and len(set(values)) == len(values):
            return j
    return 0


def _md_cell(text: str) -> str:
    return clean(text).replace("|", "\\|")


def to_markdown(table: Table) -> str:
    """The table as a GitHub Markdown table (header row, then body rows)."""
    labels = column_labels(table.columns)
    lines = ["| " + " | ".join(_md_cell(c) for c in labels) + " |",
             "|" + "|".join("---" for _ in labels) + "|"]
    for row in table.rows:
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    return "\n".join(lines)


def has_spans(table: Table) -> bool:
    """Whether any cell spans more than one row or column."""
    return any(c.row_span > 1 or c.col_span > 1 for c in table.cells)


def _covered(cells: list[Cell]) -> set[tuple[int, int]]:
    """Grid slots covered by a span but not its top-left slot."""
    out: set[tuple[int, int]] = set()
    for c in cells:
        for dr in range(c.row_span):
            for dc in range(c.col_span):
                if dr or dc:
                    out.add((c.row + dr, c.col + dc))
    return out


def to_html(table: Table) -> str:
    """The table's original grid as HTML, keeping row and column spans (for spanned tables)."""
    cells = sorted(table.cells, key=lambda c: (c.row, c.col))
    covered = _covered(cells)
    rows: dict[int, list[str]] = {}
    for c in cells:
        if (c.row, c.col) in covered:
            continue
        tag = "th" if c.is_header else "td"
        span = (f' rowspan="{c.row_span}"' if c.row_span > 1 else "") + (
            f' colspan="{c.col_span}"' if c.col_span > 1 else "")
        rows.setdefault(c.row, []).append(f"<{tag}{span}>{html.escape(clean(c.text))}</{tag}>")
    body = "".join(f"<tr>{''.join(tds)}</tr>" for _, tds in sorted(rows.items()))
    return f"<table>{body}</table>"

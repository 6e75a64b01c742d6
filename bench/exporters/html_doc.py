"""An HTML document of tables and its exact truth: the table as its markup declares it.

A cell is its markup and the text a reader takes from it (`HCell`); a table its header rows,
body rows and footer rows (`HTable`), laid out as HTML lays a table (rowspan/colspan slots), so
the truth is what CONTRACT.md asks of a reading: one name per column (the header rows' labels
above it, top-down, joined by a space), body and footer rows with a spanning cell's text
repeated into every slot it covers, the caption's text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class HCell:
    """One cell: its inner markup, its truth text, TH or TD, its scope and spans."""

    markup: str
    text: str
    th: bool = False
    scope: str = ""
    rowspan: int = 1
    colspan: int = 1


def plain(text: str, th: bool = False, scope: str = "", rowspan: int = 1, colspan: int = 1) -> HCell:
    """A cell of plain text (escaped), its truth the same text."""
    return HCell(html.escape(text), text, th, scope, rowspan, colspan)


def lines_cell(parts: list[str], markup: str, th: bool = False) -> HCell:
    """A cell whose markup sets its parts on lines of their own (a <br>, list items,
    paragraphs): its truth is the parts joined as text is written, a space between them but
    none between two CJK characters nor before a bracket after one (`容積(m3)`, as the zoo
    writes a Japanese unit); list markers left out (a browser draws them, the markup holds
    none)."""
    out = ""
    for p in parts:
        tight = out and _CJK.match(out[-1]) and (_CJK.match(p[0]) or p[0] in "([（")
        out += ("" if not out or tight else " ") + p
    return HCell(markup, out, th)


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff60]")


@dataclass
class HTable:
    """One <table>: header rows, body rows, footer rows, the caption and how it is written."""

    head: list[list[HCell]]
    body: list[list[HCell]]
    types: list[str]
    foot: list[list[HCell]] = field(default_factory=list)
    caption: str = ""
    caption_as: str = "element"
    """element: a <caption>; above: a paragraph just before the table; none."""
    head_in: str = "thead"
    """thead: the header rows in <thead>; body: TH rows at the top of <tbody>; bare: no row
    groups at all (TRs straight under the table)."""
    css_class: str = ""


@dataclass
class HDoc:
    """A document: its language, page CSS, and blocks (('h1'|'h2'|'p', text), an HTable, or
    ('raw', markup) around others, e.g. a CSS-columns <div>)."""

    lang: str
    css: str
    blocks: list = field(default_factory=list)


def laid_out(rows: list[list[HCell]], n_cols: int) -> list[list[str]]:
    """The rows' text slot by slot as HTML places cells (a rowspan above takes its slots), a
    spanning cell's text in every slot it covers; a slot no cell covers is ''."""
    grid: list[list[str | None]] = [[None] * n_cols for _ in rows]
    for r, row in enumerate(rows):
        c = 0
        for cell in row:
            while c < n_cols and grid[r][c] is not None:
                c += 1
            for dr in range(cell.rowspan):
                for dc in range(cell.colspan):
                    if r + dr < len(rows) and c + dc < n_cols:
                        grid[r + dr][c + dc] = cell.text
            c += cell.colspan
    return [[x or "" for x in row] for row in grid]


def n_columns(t: HTable) -> int:
    """The table's width in slots (its widest row, rowspans from above counted)."""
    rows = t.head + t.body + t.foot
    width = 0
    taken: dict[int, int] = {}  # row -> slots taken from above
    for r, row in enumerate(rows):
        here = taken.get(r, 0) + sum(c.colspan for c in row)
        width = max(width, here)
        for cell in row:
            for dr in range(1, cell.rowspan):
                taken[r + dr] = taken.get(r + dr, 0) + cell.colspan
    return width


def truth(t: HTable) -> dict:
    """The table as its markup declares it: columns, rows, caption, types, header rows."""
    n = n_columns(t)
    head = laid_out(t.head + t.body + t.foot, n)[: len(t.head)]
    names = []
    for c in range(n):
        parts: list[str] = []
        for row in head:
            if row[c] and (not parts or parts[-1] != row[c]):  # a rowspan's label once
                parts.append(row[c])
        names.append(" ".join(parts))
    rows = laid_out(t.body + t.foot, n)
    return {"columns": names, "rows": rows, "caption": t.caption if t.caption_as != "none" else "",
            "column_types": t.types, "header_rows": len(t.head)}


def _cell(c: HCell) -> str:
    tag = "th" if c.th else "td"
    attrs = (f' scope="{c.scope}"' if c.scope else "") + (f' rowspan="{c.rowspan}"' if c.rowspan > 1 else "")
    attrs += f' colspan="{c.colspan}"' if c.colspan > 1 else ""
    return f"<{tag}{attrs}>{c.markup}</{tag}>"


def _rows(rows: list[list[HCell]]) -> str:
    return "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>\n" for row in rows)


def table_html(t: HTable) -> str:
    """The table's markup."""
    cls = f' class="{t.css_class}"' if t.css_class else ""
    out = f'<p class="cap">{html.escape(t.caption)}</p>\n' if t.caption_as == "above" else ""
    out += f"<table{cls}>"
    out += f"<caption>{html.escape(t.caption)}</caption>\n" if t.caption_as == "element" else ""
    if t.head_in == "thead":
        out += f"<thead>{_rows(t.head)}</thead><tbody>{_rows(t.body)}</tbody>"
        out += f"<tfoot>{_rows(t.foot)}</tfoot>" if t.foot else ""
    elif t.head_in == "body":
        out += f"<tbody>{_rows(t.head + t.body + t.foot)}</tbody>"
    else:
        out += _rows(t.head + t.body + t.foot)
    return out + "</table>\n"


def doc_html(d: HDoc, title: str) -> str:
    """The whole document."""
    parts = []
    for b in d.blocks:
        if isinstance(b, HTable):
            parts.append(table_html(b))
        elif b[0] == "raw":
            parts.append(b[1])
        else:
            parts.append(f"<{b[0]}>{html.escape(b[1])}</{b[0]}>\n")
    return (f'<!doctype html>\n<html lang="{d.lang}"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{d.css}</style></head>\n<body>\n"
            + "".join(parts) + "</body></html>\n")


def doc_truth(d: HDoc, name: str) -> list[dict]:
    """The truth of every table of the document, with its section path (the h1, the last h2)."""
    out, path = [], []
    for b in d.blocks:
        if isinstance(b, HTable):
            out.append({"table": f"{name}:t{len(out) + 1}", "section_path": list(path), **truth(b)})
        elif b[0] == "h1":
            path = [b[1]]
        elif b[0] == "h2":
            path = path[:1] + [b[1]]
    return out

"""The table shapes the exporter bench writes as HTML, one function per shape.

Each shape draws a document (`HDoc`: headings, prose, one or two tables) from a seeded random
stream and a language of the layout zoo (its words, numbers, dates and caption labels:
bench/zoo/content.py), so a table reads like one written in that language. The shapes are what
HTML offers an author and what a browser or an office suite then tags: thead/tbody/tfoot, TH
with scope col, row or none, row heads, rowspan/colspan, two header levels, caption elements
and captions written as a paragraph, tables long enough to run over pages (the browser repeats
the thead), cells holding lists, links, line breaks, paragraphs, pictures and nested inline
spans, empty cells, tables in CSS columns beside prose, a landscape page.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable

from bench.exporters.html_doc import HCell, HDoc, HTable, lines_cell, plain
from bench.zoo import content
from bench.zoo.content import Lang

PICTURE = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGNg"
           "+M+AFWEXHbQSAP0/D/Hn7Qm8AAAAAElFTkSuQmCC")
"""An 8x8 PNG (a picture in a cell: no text of its own)."""


def _css(lang: Lang, rng: random.Random, landscape: bool = False) -> str:
    """Page and table CSS: a face per language, a size, one of three rule styles."""
    face = '"IPAPGothic", "IPAGothic"' if lang.code == "ja" else rng.choice(('"DejaVu Sans"', '"DejaVu Serif"'))
    size = rng.choice((9, 10, 11))
    rules = rng.choice((
        "td, th { border: 1px solid #777; }",
        "tr { border-bottom: 1px solid #999; } thead tr { border-bottom: 2px solid #333; }",
        "",
    ))
    page = "@page { size: A4 landscape; margin: 14mm; }" if landscape else "@page { size: A4; margin: 18mm; }"
    return (f"{page} body {{ font-family: {face}; font-size: {size}pt; }} "
            "table { border-collapse: collapse; margin: 8pt 0; } "
            f"td, th {{ padding: 2pt 5pt; vertical-align: top; }} {rules} "
            "caption { font-weight: bold; text-align: left; margin-bottom: 4pt; } "
            "p.cap { font-weight: bold; margin-bottom: 2pt; } th { text-align: left; } "
            ".cols { column-count: 2; column-gap: 18pt; } .cols table { break-inside: avoid; }")


def _caption(lang: Lang, rng: random.Random, n: int) -> str:
    label = lang.table_label.format(n=n)
    sep = "：" if lang.code == "ja" else rng.choice((": ", ". ", " "))
    return f"{label}{sep}{rng.choice(lang.captions)}"


def _metrics(lang: Lang, rng: random.Random, k: int) -> list[tuple[str, str, str]]:
    """k metric columns: (header, unit, value kind)."""
    style = rng.choice(("parens", "brackets", "bare"))
    picked = rng.sample(lang.metrics, k)
    return [(content.header_name(lang, n, u, style), u, content.metric_kind(u, rng)) for n, u in picked]


def _values(lang: Lang, rng: random.Random, cols: list[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    pairs = [content.value_for(lang, rng, u, kind) for _, u, kind in cols]
    return [v for v, _ in pairs], [t for _, t in pairs]


def _grid(lang: Lang, rng: random.Random, n_rows: int, n_metrics: int, scope: str = "col",
          row_heads: bool = False) -> HTable:
    """A plain grid: a key column and metric columns, one header row of TH."""
    cols = _metrics(lang, rng, n_metrics)
    key = rng.choice(lang.text_columns)
    head = [[plain(key, True, scope)] + [plain(h, True, scope) for h, _, _ in cols]]
    body, types = [], ["text"]
    for k in content.row_keys(lang, rng, n_rows):
        vals, types = _values(lang, rng, cols)
        first = plain(k, True, "row") if row_heads else plain(k)
        body.append([first] + [plain(v) for v in vals])
    return HTable(head, body, ["text", *types])


def _doc(lang: Lang, rng: random.Random, tables: list[HTable], landscape: bool = False) -> HDoc:
    """A title, a section per table with prose before it."""
    d = HDoc(lang.code, _css(lang, rng, landscape))
    d.blocks.append(("h1", rng.choice(lang.captions)))
    for t in tables:
        d.blocks.append(("h2", rng.choice(lang.sections)))
        d.blocks.append(("p", content.paragraph(lang, rng, rng.randint(1, 3))))
        d.blocks.append(t)
    return d


def _captioned(tables: list[HTable], lang: Lang, rng: random.Random, how: str = "element") -> list[HTable]:
    for i, t in enumerate(tables):
        t.caption, t.caption_as = _caption(lang, rng, i + 1), how
    return tables


def simple(lang: Lang, rng: random.Random) -> HDoc:
    """THead of TH scope=col, TBody of TD, a <caption>."""
    return _doc(lang, rng, _captioned([_grid(lang, rng, rng.randint(4, 9), rng.randint(2, 4))], lang, rng))


def row_heads(lang: Lang, rng: random.Random) -> HDoc:
    """Each body row's first cell a TH scope=row; the header's TH without scope."""
    t = _grid(lang, rng, rng.randint(4, 9), rng.randint(2, 4), scope=rng.choice(("", "col")), row_heads=True)
    return _doc(lang, rng, _captioned([t], lang, rng))


def no_thead(lang: Lang, rng: random.Random) -> HDoc:
    """No THead: a row of TH at the top of TBody, or TRs straight under the table; a caption
    written as a paragraph above the table (no <caption>)."""
    t = _grid(lang, rng, rng.randint(4, 9), rng.randint(2, 4), scope="")
    t.head_in = rng.choice(("body", "bare"))
    return _doc(lang, rng, _captioned([t], lang, rng, how=rng.choice(("above", "element"))))


def tfoot_total(lang: Lang, rng: random.Random) -> HDoc:
    """A TFoot holding a total row (written before or after TBody is the browser's matter)."""
    t = _grid(lang, rng, rng.randint(4, 8), rng.randint(2, 3))
    t.foot = [_total(lang, rng, t)]
    return _doc(lang, rng, _captioned([t], lang, rng))


def _total(lang: Lang, rng: random.Random, t: HTable) -> list[HCell]:
    """A total row: the language's word for it as the row's head, a value of each column's kind."""
    vals = [content.value_for(lang, rng, "", kind)[0] for kind in t.types[1:]]
    return [plain(lang.total_word, True, "row")] + [plain(v) for v in vals]


def spans(lang: Lang, rng: random.Random) -> HDoc:
    """Row groups under a rowspan label in the first column; a value spanning two columns."""
    cols = _metrics(lang, rng, rng.randint(2, 3))
    head = [[plain(rng.choice(lang.text_columns), True, "col"), plain(rng.choice(lang.text_columns), True, "col")]
            + [plain(h, True, "col") for h, _, _ in cols]]
    body, types = [], []
    keys = content.row_keys(lang, rng, 9)
    groups = rng.sample(lang.sections, 3)
    for g, name in enumerate(groups):
        n = rng.randint(2, 3)
        for i in range(n):
            vals, types = _values(lang, rng, cols)
            row = ([plain(name, True, "row", rowspan=n)] if i == 0 else []) + [plain(keys[g * 3 + i])]
            if rng.random() < 0.2:
                row += [plain("—", colspan=2)] + [plain(v) for v in vals[2:]]
            else:
                row += [plain(v) for v in vals]
            body.append(row)
    return _doc(lang, rng, _captioned([HTable(head, body, ["text", "text", *types])], lang, rng))


def _two_level_head(lang: Lang, rng: random.Random) -> tuple[list[str], list, list[list]]:
    """Two years as group labels (TH colspan=2) over two metrics each, under a corner TH
    rowspan=2: the groups, the metrics and the two header rows."""
    groups = [str(y) for y in rng.sample(range(2019, 2027), 2)]
    cols = _metrics(lang, rng, 2)
    head = [[plain(rng.choice(lang.text_columns), True, "col", rowspan=2)]
            + [plain(g, True, "colgroup", colspan=2) for g in groups],
            [plain(h, True, "col") for _ in groups for h, _, _ in cols]]
    return groups, cols, head


def two_level(lang: Lang, rng: random.Random) -> HDoc:
    """Two header rows: a corner TH rowspan=2, group labels colspan=2 over their columns."""
    groups, cols, head = _two_level_head(lang, rng)
    body, types = [], []
    for k in content.row_keys(lang, rng, rng.randint(4, 8)):
        row = [plain(k)]
        for _ in groups:
            vals, types = _values(lang, rng, cols)
            row += [plain(v) for v in vals]
        body.append(row)
    return _doc(lang, rng, _captioned([HTable(head, body, ["text", *types, *types])], lang, rng))


def long(lang: Lang, rng: random.Random) -> HDoc:
    """A table of 60 to 110 rows: over two or three pages, the browser repeating its THead."""
    t = _grid(lang, rng, rng.randint(60, 110), rng.randint(2, 4))
    return _doc(lang, rng, _captioned([t], lang, rng))


def rich_cells(lang: Lang, rng: random.Random) -> HDoc:
    """Cells holding a list, a link, a <br>, two paragraphs, a picture beside text, a number
    in nested inline spans, or nothing."""
    t = _grid(lang, rng, rng.randint(5, 9), rng.randint(2, 3))
    note = rng.choice(lang.text_columns)
    t.head[0].append(plain(note, True, "col"))
    t.types.append("text")
    for row in t.body:
        row[1] = _spanned(row[1]) if rng.random() < 0.5 else row[1]
        row.append(_rich(lang, rng))
    return _doc(lang, rng, _captioned([t], lang, rng))


def _spanned(c: HCell) -> HCell:
    """The same text with its first characters bold in a span: the text does not change."""
    cut = max(1, len(c.text) // 3)
    a, b = html.escape(c.text[:cut]), html.escape(c.text[cut:])
    return HCell(f'<span class="v"><b>{a}</b><span>{b}</span></span>', c.text)


def _rich(lang: Lang, rng: random.Random) -> HCell:
    words = rng.sample(lang.keys, 2)
    kind = rng.choice(("list", "link", "br", "paras", "picture", "empty"))
    if kind == "list":
        items = "".join(f"<li>{html.escape(w)}</li>" for w in words)
        return lines_cell(words, f'<ul style="margin:0;padding-left:12pt">{items}</ul>')
    if kind == "link":
        return HCell(f'<a href="https://example.org/{rng.randint(1, 999)}">{html.escape(words[0])}</a>', words[0])
    if kind == "br":
        return lines_cell(words, "<br>".join(html.escape(w) for w in words))
    if kind == "paras":
        return lines_cell(words, "".join(f'<p style="margin:0">{html.escape(w)}</p>' for w in words))
    if kind == "picture":
        return HCell(f'<img src="{PICTURE}" width="10" height="10" alt="ok"> {html.escape(words[0])}', words[0])
    return HCell("", "")


def two_columns(lang: Lang, rng: random.Random) -> HDoc:
    """Two small tables inside CSS columns, prose around them."""
    d = HDoc(lang.code, _css(lang, rng))
    d.blocks.append(("h1", rng.choice(lang.captions)))
    d.blocks.append(("h2", rng.choice(lang.sections)))
    d.blocks.append(("raw", '<div class="cols">'))
    tables = _captioned([_grid(lang, rng, rng.randint(3, 6), 1) for _ in range(2)], lang, rng)
    for t in tables:
        d.blocks.append(("p", content.paragraph(lang, rng, rng.randint(2, 4))))
        d.blocks.append(t)
    d.blocks.append(("p", content.paragraph(lang, rng, 3)))
    d.blocks.append(("raw", "</div>"))
    return d


def landscape(lang: Lang, rng: random.Random) -> HDoc:
    """A wide table (7 to 9 columns) on a landscape @page."""
    t = _grid(lang, rng, rng.randint(6, 14), rng.randint(6, 8))
    return _doc(lang, rng, _captioned([t], lang, rng), landscape=True)


def two_tables(lang: Lang, rng: random.Random) -> HDoc:
    """Two tables one after the other on a page, each under its own heading and caption,
    one with row heads and a TFoot."""
    a = _grid(lang, rng, rng.randint(3, 6), rng.randint(2, 3))
    b = _grid(lang, rng, rng.randint(3, 6), rng.randint(2, 3), row_heads=True)
    b.foot = [_total(lang, rng, b)]
    return _doc(lang, rng, _captioned([a, b], lang, rng))


def long_grouped(lang: Lang, rng: random.Random) -> HDoc:
    """A long table with two header levels and a TFoot (the browser repeats both on every
    page), some rows' key cells over two lines and a row group under a rowspan label that a
    page break may cut."""
    groups, cols, head = _two_level_head(lang, rng)
    body, types = [], []
    keys = content.row_keys(lang, rng, rng.randint(50, 80))
    for i, k in enumerate(keys):
        more = rng.choice(lang.keys)
        row = [lines_cell([k, more], f"{html.escape(k)}<br>{html.escape(more)}") if i % 7 == 3 else plain(k)]
        for _ in groups:
            vals, types = _values(lang, rng, cols)
            row += [plain(v) for v in vals]
        body.append(row)
    t = HTable(head, body, ["text", *types, *types])
    t.foot = [_total(lang, rng, t)]
    return _doc(lang, rng, _captioned([t], lang, rng))


def notes_below(lang: Lang, rng: random.Random) -> HDoc:
    """A caption under the table (caption-side: bottom), figures with a footnote mark in <sup>
    (its digit part of the cell's text), a note paragraph under the table."""
    t = _grid(lang, rng, rng.randint(4, 9), rng.randint(2, 4))
    for i, row in enumerate(t.body):
        if i % 3 == 1:
            c = row[1]
            row[1] = HCell(f"{c.markup}<sup>{i % 9 + 1}</sup>", f"{c.text}{i % 9 + 1}")
    t.css_class = "below"
    d = _doc(lang, rng, _captioned([t], lang, rng))
    d.css += " table.below caption { caption-side: bottom; margin-top: 4pt; }"
    d.blocks.append(("p", content.paragraph(lang, rng, 1)))
    return d


def grouped_bodies(lang: Lang, rng: random.Random) -> HDoc:
    """Several TBody, each opened by a group label (a TH spanning every column); header
    labels broken over two lines by a <br> (name, then unit); an empty corner cell."""
    cols = _metrics(lang, rng, rng.randint(2, 4))
    corner = HCell("", "", True) if rng.random() < 0.5 else plain(rng.choice(lang.text_columns), True, "col")
    labels = []
    for h, unit, _ in cols:
        name = h.split(" (")[0].split(" [")[0].split("(")[0].split("[")[0]
        labels.append(lines_cell([name, f"({unit})"], f"{html.escape(name)}<br>({html.escape(unit)})", th=True)
                      if unit else plain(h, True, "col"))
    head = [[corner, *labels]]
    body, types = [], []
    keys = content.row_keys(lang, rng, 12)
    for g, name in enumerate(rng.sample(lang.sections, rng.randint(2, 3))):
        body.append([plain(name, True, "colgroup", colspan=len(cols) + 1)])
        for k in keys[g * 4: g * 4 + rng.randint(2, 4)]:
            vals, types = _values(lang, rng, cols)
            body.append([plain(k, True, "row")] + [plain(v) for v in vals])
    return _doc(lang, rng, _captioned([HTable(head, body, ["text", *types])], lang, rng))


def split_rows(lang: Lang, rng: random.Random) -> HDoc:
    """A table of rows tall enough (a remark of several sentences) that a page break falls
    inside some of them: the browser splits a row over two pages."""
    cols = _metrics(lang, rng, 2)
    remark = rng.choice(lang.text_columns)
    head = [[plain(rng.choice(lang.text_columns), True, "col")] + [plain(h, True, "col") for h, _, _ in cols]
            + [plain(remark, True, "col")]]
    body, types = [], []
    for k in content.row_keys(lang, rng, rng.randint(14, 22)):
        vals, types = _values(lang, rng, cols)
        body.append([plain(k)] + [plain(v) for v in vals] + [plain(content.paragraph(lang, rng, rng.randint(2, 5)))])
    t = HTable(head, body, ["text", *types, "text"])
    return _doc(lang, rng, _captioned([t], lang, rng))


SHAPES: dict[str, Callable[[Lang, random.Random], HDoc]] = {
    f.__name__: f for f in (simple, row_heads, no_thead, tfoot_total, spans, two_level, long,
                            rich_cells, two_columns, landscape, two_tables, long_grouped, notes_below,
                            grouped_bodies, split_rows)
}

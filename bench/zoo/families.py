"""The layout families of the zoo. Each family is a page setup drawn at random and a writer
that fills a document through a Builder; every draw (fonts, sizes, widths, spacing, content,
caption side, numbering) comes from the document's own random generator."""

from __future__ import annotations

import random
from collections.abc import Callable

from bench.zoo import tables, variants
from bench.zoo.cell_families import group_rows, merged_cells, wrapped_body
from bench.zoo.doc import Builder
from bench.zoo.fonts import wrap
from bench.zoo.layout import PageSetup
from bench.zoo.table import HeaderCell, draw_table

Family = tuple[Callable[[random.Random], PageSetup], Callable[[Builder], None]]


def portrait(rng: random.Random, **kw) -> PageSetup:
    """A4 or Letter, margins drawn, maybe a running header."""
    w, h = rng.choice(((595.0, 842.0), (612.0, 792.0)))
    return PageSetup(width=w, height=h, margin=rng.choice((42.0, 50.0, 60.0, 72.0)),
                     running_header=rng.choice(("", "", "Report 2025", "Internal")), **kw)


def landscape_setup(rng: random.Random, rotate: int = 0) -> PageSetup:
    """A landscape page (shown landscape; with rotate, stored portrait with /Rotate)."""
    return PageSetup(width=842.0, height=595.0, rotate=rotate, margin=rng.choice((36.0, 48.0)))


def _titled(b: Builder) -> None:
    b.title(b.rng.choice(b.lang.captions) + f" {b.rng.randint(2019, 2026)}")


def _metric_tables(style: str, count: tuple[int, int] = (1, 2)) -> Callable[[Builder], None]:
    """Sections with prose and keyed metric tables in one rule style."""

    def write(b: Builder) -> None:
        _titled(b)
        for _ in range(b.rng.randint(*count)):
            b.section(1)
            b.prose()
            if b.rng.random() < 0.4:
                b.section(2)
            if style == "grid":
                g = tables.metric_grid(b.lang, b.rng, b.rng.randint(4, 14), b.rng.randint(2, 5))
                b.table(b.spec(g.header, g.body, g.aligns, style=style), g.types)
            else:
                variants.metric_table(b, style)
            b.prose(b.rng.randint(1, 2))

    return write


def borderless_prose(b: Builder) -> None:
    """A borderless table on the left with a paragraph beside it on the right."""
    _titled(b)
    b.section(1)
    b.prose()
    g = tables.metric_grid(b.lang, b.rng, b.rng.randint(5, 12), b.rng.randint(2, 3), text_col=False)
    note = variants.footnote_marks(b, g.body)
    x0, x1 = b.flow.span()
    share = b.rng.uniform(0.55, 0.65)
    mirror, level = b.v8.random() < 0.4, b.v8.random() < 0.5  # prose on the left; on the header's line
    tx0 = x1 - (x1 - x0) * share if mirror else x0
    spec = b.spec(g.header, g.body, g.aligns, style=b.rng.choice(("none", "zebra")),
                  full_width=False, max_width=(x1 - x0) * share, x0=tx0)
    top = b.flow.top
    cap = b.caption_text()
    lines = wrap(cap, b.face.bold, b.face.size, x1 - tx0)  # never past the margin
    b.flow.top = b.flow.caption_block(lines, tx0, top, b.face.size) + 2
    path = list(b.flow.headings)
    ptop = b.flow.top if level else top
    regions = draw_table(b.flow, spec)
    table_left, table_right = min(bb[0] for _, bb in regions), max(bb[2] for _, bb in regions)
    gap = b.rng.choice((14.0, 20.0, 28.0))
    text = " ".join(b.rng.choice(b.lang.prose) for _ in range(b.rng.randint(3, 6)))
    if b.lang.code == "ja":
        text = text.replace(" ", "")
    px0, px1 = (x0, table_left - gap) if mirror else (table_right + gap, x1)
    bottom = b.flow.paragraph(text, px0, px1, b.face.size * 0.95, ptop)
    b.record(spec, g.types, cap, path, regions)
    if note:
        b.flow.top = b.flow.paragraph(note, tx0, tx0 + (x1 - x0) * share, b.face.size * 0.8,
                                      b.flow.top)
    b.flow.top = max(b.flow.top, bottom) + b.face.size
    b.prose()
    variants.short_table(b, b.v8, b.lang)
    b.prose()


def two_column(b: Builder) -> None:
    """A paper in two text columns; a table fits inside one column, left or right."""
    _titled(b)
    for _ in range(b.rng.randint(1, 2)):
        b.section(1)
        for _ in range(b.rng.randint(1, 7)):  # how much prose decides the table's column
            b.prose(b.rng.randint(2, 5))
        if variants.spanning_table(b):
            b.prose(b.rng.randint(2, 5))
            continue
        g = tables.metric_grid(b.lang, b.rng, b.rng.randint(4, 10), b.rng.randint(1, 3),
                               text_col=False)
        style = b.rng.choice(("booktabs", "rows", "grid", "none"))
        b.table(b.spec(g.header, g.body, g.aligns, style=style, full_width=b.rng.random() < 0.5,
                       keep_together=True), g.types, keep_caption=b.v8.random() < 0.7)
        b.prose(b.rng.randint(2, 5))


def spanner(b: Builder) -> None:
    """Group labels over two or more sub-columns."""
    _titled(b)
    b.section(1)
    b.prose()
    g = tables.spanner_grid(b.lang, b.rng, b.rng.randint(4, 12))
    style = b.rng.choice(("booktabs", "grid", "rows", "booktabs"))
    b.table(b.spec(g.header, g.body, g.aligns, style=style), g.types)
    b.prose()


def wrapped_header(b: Builder) -> None:
    """Headers over two lines, units on the second."""
    _titled(b)
    b.section(1)
    b.prose()
    g = tables.wrapped_grid(b.lang, b.rng, b.rng.randint(4, 12), b.rng.randint(3, 5))
    style = b.rng.choice(("grid", "booktabs", "rows", "box"))
    b.table(b.spec(g.header, g.body, g.aligns, style=style), g.types)
    b.prose()


def headerless_kv(b: Builder) -> None:
    """Key-value tables without a header row (the first row is data)."""
    _titled(b)
    b.section(1)
    b.prose()
    rows = tables.kv_pairs(b.lang, b.rng, b.rng.randint(3, 7))
    if b.rng.random() < 0.4 and len(rows) >= 4:  # two pairs per row
        half = len(rows) // 2
        rows = [rows[i] + rows[i + half] for i in range(half)]
    n = len(rows[0])
    spec = b.spec([], rows, ["l"] * n, style=b.rng.choice(("grid", "box", "none", "rows")),
                  first_col_bold=b.rng.random() < 0.5)
    b.table(spec, ["text"] * n, caption="auto" if b.rng.random() < 0.6 else None)
    b.prose()


def picture_column(b: Builder) -> None:
    """One picture per row, in the first or second column."""
    _titled(b)
    b.section(1)
    b.prose()
    n = b.rng.randint(3, 9)
    g = tables.metric_grid(b.lang, b.rng, n, b.rng.randint(2, 4), text_col=False)
    at = b.rng.choice((0, 1))
    name = {"en": "Photo", "de": "Bild", "hu": "Kép", "vi": "Hình", "ja": "写真"}[b.lang.code]
    header = [g.header[0][:at] + [HeaderCell(name)] + g.header[0][at:]]
    body = [r[:at] + [""] + r[at:] for r in g.body]
    aligns = g.aligns[:at] + ["c"] + g.aligns[at:]
    types = g.types[:at] + ["empty"] + g.types[at:]
    spec = b.spec(header, body, aligns, style=b.rng.choice(("grid", "rows", "none")),
                  pictures={at: [tables.picture(b.rng) for _ in range(n)]},
                  picture_size=b.rng.choice((18.0, 24.0, 32.0)))
    b.table(spec, types)
    b.prose()


def form(b: Builder) -> None:
    """A quote: two key-value blocks side by side, then the line items with a total."""
    _titled(b)
    x0, x1 = b.flow.span()
    top = b.flow.top
    across = b.v8.random() < 0.35  # three more fields set across under the blocks
    left = variants.form_extras(b, tables.kv_pairs(b.lang, b.rng, 3 if across else b.rng.randint(3, 4)))
    right = tables.kv_pairs(b.lang, b.rng, 2 if across else b.rng.randint(2, 3), tuple(k for k, _ in left))
    path = list(b.flow.headings)
    style = b.rng.choice(("box", "grid", "none"))
    if b.v8.random() < 0.25:
        style = "rows"  # fields parted by rules only
    bottoms = []
    half = (x1 - x0) / 2
    for rows, bx in ((left, x0), (right, x0 + half + b.rng.choice((10.0, 24.0)))):
        b.flow.top = top
        spec = b.spec([], rows, ["l", "l"], style=style, x0=bx, max_width=half - 30,
                      full_width=False, first_col_bold=True)
        regions = draw_table(b.flow, spec)
        bottoms.append(b.flow.top)
        b.record(spec, ["text", "text"], "", path, regions)
    b.flow.top = max(bottoms) + b.face.size
    if across:
        used = {k for k, _ in left + right}
        variants.fields_across(b, [k for k in b.lang.form_keys if k not in used])
    b.section(1)
    g = tables.metric_grid(b.lang, b.rng, b.rng.randint(3, 8), 2, text_col=False)
    header, body, aligns, types, checks = variants.tick_column(b, g.header, g.body, g.aligns, g.types)
    b.table(b.spec(header, body, aligns, style=b.rng.choice(("grid", "rows")), checks=checks),
            types, caption=None)
    b.prose(1)


def stacked(b: Builder) -> None:
    """Two tables stacked in one column, each with its own caption, close together."""
    _titled(b)
    b.section(1)
    b.prose()
    style = b.rng.choice(("grid", "booktabs", "rows", "none"))
    variants.stacked_pair(b, style)
    b.prose()


def long_table(repeat: bool) -> Callable[[Builder], None]:
    """A table running over 2-5 pages, with or without its header repeated."""

    def write(b: Builder) -> None:
        _titled(b)
        b.section(1)
        b.prose()
        per_page = 842 / (b.face.size * 1.25 + 5)
        rows = int(per_page * b.rng.uniform(1.3, 4.2))
        g = tables.metric_grid(b.lang, b.rng, rows, b.rng.randint(2, 5))
        style = b.rng.choice(("grid", "rows", "booktabs", "none", "zebra"))
        b.table(b.spec(g.header, g.body, g.aligns, style=style, repeat_header=repeat), g.types)
        b.prose()

    return write


def wide(b: Builder) -> None:
    """A wide, dense table on a landscape page (rotated or not)."""
    _titled(b)
    b.section(1)
    b.prose(1)
    g = tables.metric_grid(b.lang, b.rng, b.rng.randint(8, 22), b.rng.randint(6, 10))
    b.table(b.spec(g.header, g.body, g.aligns, style=b.rng.choice(("grid", "grid", "rows", "booktabs")),
                   pad_y=b.rng.choice((1.0, 1.5, 2.5))), g.types)


def financial(b: Builder) -> None:
    """An income statement: indented items, parenthesised negatives, bold subtotals."""
    _titled(b)
    b.section(1)
    b.prose(1)
    g = tables.statement_grid(b.lang, b.rng)
    style = b.rng.choice(("booktabs", "none", "rows"))
    kw = variants.statement_options(b, g)
    variants.unit_line(b, 0.3 if not b.caption_above else 0.0)
    spec = b.spec(g.header, g.body, g.aligns, style=style,
                  bold_rows=g.bold_rows, **kw)  # type: ignore[attr-defined]
    b.table(spec, g.types, notes=variants.notes(b, 0.3))
    b.prose(1)


def slide(b: Builder) -> None:
    """A 16:9 slide with a large title and a table whose cells hold bullet lists."""
    b.title(b.rng.choice(b.lang.captions))
    g = tables.bullet_grid(b.lang, b.rng, b.rng.randint(2, 4))
    spec = b.spec(g.header, g.body, g.aligns, style=b.rng.choice(("grid", "zebra", "rows")),
                  size=b.face.size, full_width=True, pad_y=4.0)
    b.table(spec, g.types, caption=None)


def slide_setup(rng: random.Random) -> PageSetup:
    """A 16:9 slide page without page numbers."""
    return PageSetup(width=960.0, height=540.0, margin=40.0, page_numbers=False)


FAMILIES: dict[str, Family] = {
    "ruled_grid": (portrait, _metric_tables("grid")),
    "booktabs": (portrait, _metric_tables("booktabs")),
    "row_rules": (portrait, _metric_tables("rows")),
    "borderless_prose": (portrait, borderless_prose),
    "two_column": (lambda rng: portrait(rng, columns=2), two_column),
    "spanner": (portrait, spanner),
    "wrapped_header": (portrait, wrapped_header),
    "headerless_kv": (portrait, headerless_kv),
    "picture_column": (portrait, picture_column),
    "form": (portrait, form),
    "stacked": (portrait, stacked),
    "long_repeated_header": (portrait, long_table(True)),
    "long_single_header": (portrait, long_table(False)),
    "rotated_page": (lambda rng: landscape_setup(rng, rng.choice((90, 270))), wide),
    "landscape": (landscape_setup, wide),
    "financial": (portrait, financial),
    "slide": (slide_setup, slide),
    # after generator v10, appended so that no document of the families above changes (the
    # language rotation follows a family's index, the seeds its name)
    "merged_cells": (portrait, merged_cells),
    "wrapped_body": (portrait, wrapped_body),
    "group_rows": (portrait, group_rows),
}

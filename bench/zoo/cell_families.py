"""The families added after generator v10, for what business tables show and the first 17
families never drew: merged (spanning) body cells (benefit schedules, price lists grouped by a
category cell over its items), body cells whose text wraps over several lines (price lists and
service schedules with descriptions) and category label rows between body rows.

Their bodies are drawn by bench/zoo/cells.py. The truth follows the CONTRACT: a merged cell's
text is repeated into every row and column it covers; a wrapped cell is one string, its lines
joined the way every multi-line cell of the zoo is (bench/zoo/layout.cell_truth: a space, none
where the break touches a Japanese character); a label row is the label and empty cells.
"""

from __future__ import annotations

from bench.zoo import business, content, tables, variants
from bench.zoo.doc import Builder
from bench.zoo.fonts import width
from bench.zoo.table import HeaderCell, TableSpec, _row_height


def _titled(b: Builder) -> None:
    b.title(b.rng.choice(b.lang.captions) + f" {b.rng.randint(2019, 2026)}")


def _merged_grid(b: Builder):
    """Header names, body (merged texts repeated), aligns, types and spans of a table whose
    first one or two columns hold cells merged down over 2-4 rows."""
    rng, code = b.rng, b.lang.code
    groups = rng.sample(business.GROUPS[code], rng.randint(2, 4))
    two_levels = rng.random() < 0.3
    metrics = tables.metric_grid(b.lang, rng, 1, rng.randint(1, 3), text_col=False)
    names = [rng.choice(business.GROUP_NAME[code]), rng.choice(business.ITEM_NAME[code])]
    if two_levels:  # an outer key (a site: unique, as the zoo's row keys are) over the groups
        names = [metrics.header[0][0].text] + names
    lead = len(names)
    body, spans = [], {}
    outer = content.row_keys(b.lang, rng, 8)
    for g, (label, items) in enumerate(groups):
        picked = rng.sample(items, min(len(items), rng.randint(1, 4)))
        if len(picked) > 1:
            spans[(len(body), lead - 2)] = (len(picked), 1)
        for item in picked:
            row = [label, item] if not two_levels else [outer[g // 2], label, item]
            body.append(row + [""] * (len(metrics.header[0]) - 1))
    if two_levels:
        r = 0
        for g in range(0, len(groups), 2):
            size = sum(len(_rows_of(body, lead - 2, label)) for label, _ in groups[g:g + 2])
            if size > 1:
                spans[(r, 0)] = (size, 1)
            r += size
    cols = metrics.header[0][1:]
    for row in body:  # the amounts, one per metric column, in its kind
        for j in range(len(cols)):
            row[lead + j] = _value(b, metrics.types[1 + j])
    names += [c.text for c in cols]
    aligns = ["l"] * lead + ["r"] * len(cols)
    types = ["text"] * lead + metrics.types[1:]
    if len(cols) >= 2 and rng.random() < 0.5:  # "n/a" / "included" merged across the amounts
        r = rng.randrange(len(body))
        word = rng.choice(business.SPAN_WORDS[code])
        for j in range(len(cols)):
            body[r][lead + j] = word
        spans[(r, lead)] = (1, len(cols))
    return names, body, aligns, types, spans


def _table(b: Builder, spec: TableSpec, types: list[str], notes: str) -> None:
    """Draw the table, first breaking the page where its caption (up to three lines, above) and
    what draw_table keeps together (the header and two rows, or all of it) would not fit: a
    caption counts rows one line tall, and these rows are taller."""
    rows = spec.body if spec.keep_together else spec.body[:2]
    need = sum(_row_height(spec, [c.text for c in h], None) for h in spec.header)
    need += sum(_row_height(spec, row, None) for row in rows)
    b.flow.ensure(need + (b.face.size * 4.5 if b.caption_above else 0.0))
    b.table(spec, types, notes=notes)


def _rows_of(body: list[list[str]], col: int, label: str) -> list[int]:
    return [i for i, row in enumerate(body) if row[col] == label]


def _value(b: Builder, kind: str) -> str:
    """A value of a column's CONTRACT type in the document's locale."""
    rng, lang = b.rng, b.lang
    if kind == "percent":
        return content.percent(lang, rng.uniform(0, 100))
    if kind == "currency":
        return content.money(lang, rng.randint(100, 999_999))
    if kind == "decimal":
        return content.number(lang, rng.uniform(1, 9_999), 2)
    if kind == "date":
        return content.date(lang, rng)
    return content.number(lang, rng.randint(1, 99_999))


def merged_cells(b: Builder) -> None:
    """A benefit schedule or price list: a category cell merged down over its items' rows
    ("Hospitalisation" over "per day" / "surgery"), sometimes a site over its categories and a
    word merged across the amounts ("included")."""
    _titled(b)
    for _ in range(b.rng.randint(1, 2)):
        b.section(1)
        b.prose()
        names, body, aligns, types, spans = _merged_grid(b)
        style = "grid" if b.v8.random() < 0.7 else "rows"
        kw = variants.rule_style(b, style)
        kw["style"] = "rows" if kw.get("style") == "zebra" else style
        spec = b.spec([[HeaderCell(n) for n in names]], body, aligns, spans=spans,
                      span_middle=b.v8.random() < 0.5, keep_together=True, **kw)
        _table(b, spec, types, variants.notes(b, 0.2))
        b.prose(b.rng.randint(1, 2))


def _wrapped_rows(b: Builder, spec, col: int, n_rows: int) -> None:
    """Fill column `col` of the spec's body with descriptions wrapped over 2-4 lines at a width
    drawn for the table (in the face and size the table is set in)."""
    measure = lambda s: width(s, spec.font, spec.size)  # noqa: E731
    texts = [business.description(b.lang.code, b.rng) for _ in range(n_rows)]
    share = b.rng.choice((2.2, 2.6, 3.0))
    max_width = max(max(measure(t) for t in texts) / share, spec.size * 9)
    for r, text in enumerate(texts):
        lines = business.wrap_cell(text, measure, max_width)
        for _ in range(8):  # a description of 2-4 lines: draw again when it is not
            if 2 <= len(lines) <= 4:
                break
            text = business.description(b.lang.code, b.rng)
            lines = business.wrap_cell(text, measure, max_width)
        spec.body[r][col] = "\n".join(lines)


def wrapped_body(b: Builder) -> None:
    """A price list or service schedule: descriptions over 2-4 lines in their cell, the row's
    amounts on its first line (or its last, or centred), in one of five rule styles."""
    _titled(b)
    for _ in range(b.rng.randint(1, 2)):
        b.section(1)
        b.prose()
        if b.rng.random() < 0.3:
            b.section(2)
        n = b.rng.randint(3, 9)
        g = tables.metric_grid(b.lang, b.rng, n, b.rng.randint(1, 3), text_col=False)
        name = b.rng.choice(business.DESCRIPTION_NAME[b.lang.code])
        header = [[g.header[0][0], HeaderCell(name)] + g.header[0][1:]]
        body = [[r[0], ""] + r[1:] for r in g.body]
        aligns, types = ["l", "l"] + g.aligns[1:], ["text", "text"] + g.types[1:]
        style = b.v8.choice(("grid", "rows", "booktabs", "none", "zebra"))
        kw = variants.rule_style(b, style) if style != "zebra" else {}
        kw.setdefault("style", style)
        valign = b.v8.choice(("top", "top", "bottom", "middle"))
        spec = b.spec(header, body, aligns, valign=valign,
                      valign_cols=frozenset(range(2, len(aligns))), **kw)
        if spec.style in ("none", "booktabs", "zebra"):
            spec.pad_y = max(spec.pad_y, 3.5)  # rows apart by more than their lines are
        _wrapped_rows(b, spec, 1, n)
        _table(b, spec, types, variants.notes(b, 0.25))
        b.prose(b.rng.randint(1, 2))


def group_rows(b: Builder) -> None:
    """Category label rows between body rows (the label in the first column, the other cells
    empty), bold or tinted or both, not merged; the items under a label maybe indented."""
    _titled(b)
    b.section(1)
    b.prose()
    n = b.rng.randint(5, 14)
    g = tables.metric_grid(b.lang, b.rng, n, b.rng.randint(1, 4))
    k = b.rng.randint(2, min(4, n // 2))
    labels = [label for label, _ in b.rng.sample(business.GROUPS[b.lang.code], k)]
    cuts = [0, *sorted(b.rng.sample(range(1, n), k - 1)), n]  # the rows each label heads
    body, label_rows, indents = [], set(), {}
    indent = b.v8.choice((0.0, 0.0, 8.0, 12.0))
    for label, a, z in zip(labels, cuts, cuts[1:], strict=False):
        label_rows.add(len(body))
        body.append([label] + [""] * (len(g.aligns) - 1))
        for row in g.body[a:z]:
            if indent:
                indents[len(body)] = indent
            body.append(row)
    bold = b.v8.random() < 0.75
    tint = b.v8.choice((0.0, 0.0, 0.85, 0.9, 0.93)) if bold else b.v8.choice((0.85, 0.9))
    style = b.v8.choice(("grid", "rows", "booktabs", "none", "box"))
    kw = variants.rule_style(b, style)
    kw.setdefault("style", style)
    spec = b.spec(g.header, body, g.aligns, label_rows=frozenset(label_rows), label_tint=tint,
                  bold_rows=frozenset(label_rows) if bold else frozenset(), indents=indents, **kw)
    _table(b, spec, g.types, variants.notes(b, 0.2))
    b.prose()

"""Generator v8: the variation real documents of one family show, drawn per document.

Version 7 drew each family's layout from a few choices, so a seed range read perfectly (dev) could
leave another (test) with layouts it never showed. These draws widen each family the way business
documents of that kind differ (rule weights and gaps, header weight, notes under a table, tables
of one width stacked close, a table across both columns of a paper, tick boxes and multi-line
values in forms, accounting marks in statements, footnote marks and prose on the other side of a
borderless table). Every draw comes from the document's own `Builder.v8` stream, so all splits
get each variation in the same proportions; the truth is what is drawn, exactly.
"""

from __future__ import annotations

import random

from bench.zoo import content, tables
from bench.zoo.content import Lang
from bench.zoo.doc import Builder
from bench.zoo.fonts import width
from bench.zoo.table import HeaderCell

NOTE = {"en": "Note:", "de": "Anmerkung:", "hu": "Megjegyzés:", "vi": "Ghi chú:", "ja": "注："}
SOURCE = {"en": "Source:", "de": "Quelle:", "hu": "Forrás:", "vi": "Nguồn:", "ja": "出所："}
TICK = {"en": "Included", "de": "Enthalten", "hu": "Tartalmaz", "vi": "Bao gồm", "ja": "含む"}
UNIT_LINE = {"en": "in thousands", "de": "in Tausend", "hu": "ezer egységben", "vi": "đơn vị: nghìn",
             "ja": "単位：千円"}


def notes(b: Builder, p: float) -> str:
    """With chance p, a note or source line to set under a table ("Note: values are rounded.")."""
    if b.v8.random() >= p:
        return ""
    label = b.v8.choice((NOTE, SOURCE))[b.lang.code]
    gap = "" if b.lang.code == "ja" else " "
    return label + gap + b.v8.choice(b.lang.prose)


def rule_style(b: Builder, style: str) -> dict:
    """Spec options of one rule style as documents vary it: weights, header weight, the
    header between two rules or not, rules broken at column edges, zebra tint for rules."""
    v = b.v8
    kw: dict = {"rule_width": v.choice((0.3, 0.5, 0.6, 0.8, 1.0))}
    if style == "booktabs":
        kw["heavy"] = v.choice((1.0, 1.5, 2.0, 2.5))
        kw["header_regular"] = v.random() < 0.4
        kw["cmidrule"] = v.random() < 0.6
    elif style == "rows":
        kw["rule_above_header"] = v.random() < 0.5
        kw["header_regular"] = v.random() < 0.2
        if v.random() < 0.3:
            kw["rule_gap"] = v.choice((2.0, 4.0, 6.0))
        if v.random() < 0.25:
            kw["style"] = "zebra"  # shading in place of the rules
    return kw


def metric_table(b: Builder, style: str) -> None:
    """One keyed metric table of a rule-style family, with v8's variation: a two-level header
    now and then (booktabs), notes under it."""
    kw = rule_style(b, style)
    kw.setdefault("style", style)
    if style == "booktabs" and b.v8.random() < 0.3:
        g = tables.spanner_grid(b.lang, b.rng, b.rng.randint(4, 12))
    else:
        g = tables.metric_grid(b.lang, b.rng, b.rng.randint(4, 14), b.rng.randint(2, 5))
    b.table(b.spec(g.header, g.body, g.aligns, **kw), g.types,
            notes=notes(b, 0.4 if style == "booktabs" else 0.25))


def stacked_pair(b: Builder, style: str) -> None:
    """Two tables one above the other: maybe both the column's width, close together, the
    second without a caption or under a sub-heading of the same section."""
    v = b.v8
    same_width, tight = v.random() < 0.5, v.random() < 0.5
    bare_second, sub = v.random() < 0.45, v.random() < 0.2
    for i in range(2):
        g = tables.metric_grid(b.lang, b.rng, b.rng.randint(3, 8), b.rng.randint(2, 4))
        kw = {"full_width": True} if same_width else {}
        if i == 1 and sub:
            b.section(2)
        b.table(b.spec(g.header, g.body, g.aligns, style=style, **kw), g.types,
                caption=None if (i == 1 and bare_second) else "auto")
        if i == 0 and tight:
            b.flow.top -= b.face.size * 0.6


def spanning_table(b: Builder) -> bool:
    """With chance 0.3, a paper's wide table set across both columns at the top of the next
    page (a LaTeX table*), the columns starting under it. True when drawn."""
    if b.v8.random() >= 0.3:
        return False
    flow = b.flow
    flow.new_page()
    s = flow.setup
    g = tables.metric_grid(b.lang, b.rng, b.rng.randint(4, 10), b.rng.randint(3, 6))
    spec = b.spec(g.header, g.body, g.aligns, style=b.rng.choice(("booktabs", "rows", "grid")),
                  x0=s.margin, max_width=s.width - 2 * s.margin, keep_together=True,
                  full_width=True)
    b.table(spec, g.types)
    flow.column_top = flow.top
    return True


def form_extras(b: Builder, kv: list[list[str]]) -> list[list[str]]:
    """Key-value rows as forms vary them: an address over two lines."""
    if b.v8.random() < 0.4:
        addr = b.lang.form_keys[1]
        at = next((i for i, (k, _) in enumerate(kv) if k == addr), b.v8.randrange(len(kv)))
        town = f"{b.v8.randint(1000, 99999)} {b.v8.choice(b.lang.keys)}"
        kv[at] = [kv[at][0], f"{b.v8.choice(b.lang.keys)} {b.v8.randint(1, 99)}\n{town}"]
    return kv


def fields_across(b: Builder, keys: list[str]) -> None:
    """A row of fields set across: the keys as a header, the values under (no caption)."""
    lang, v = b.lang, b.v8
    values, types = [], []
    for _ in keys:
        kind = v.choice(("date", "money", "code", "name"))
        values.append({"date": lambda: content.date(lang, v),
                       "money": lambda: content.money(lang, v.randint(1000, 999_999)),
                       "code": lambda: f"{v.randint(100, 999)}-{v.randint(1000, 9999)}",
                       "name": lambda: v.choice(lang.keys)}[kind]())
        types.append({"date": "date", "money": "currency"}.get(kind, "text"))
    spec = b.spec([[HeaderCell(k) for k in keys]], [values], ["l"] * len(keys),
                  style=v.choice(("grid", "box", "rows")), full_width=True)
    b.table(spec, types, caption=None)


def tick_column(b: Builder, header, body, aligns, types):
    """With chance 0.4, a column of drawn tick boxes after the key (an option list)."""
    if b.v8.random() >= 0.4:
        return header, body, aligns, types, {}
    n = len(body)
    checks = {1: [b.v8.random() < 0.5 for _ in range(n)]}
    header = [[header[0][0], HeaderCell(TICK[b.lang.code])] + header[0][1:]]
    body = [[r[0], ""] + r[1:] for r in body]
    return header, body, [aligns[0], "c"] + aligns[1:], [types[0], "empty"] + types[1:], checks


def statement_options(b: Builder, g) -> dict:
    """Spec options of a statement as accounts vary: deeper or two-level indents, a double rule
    under the total, the currency sign set apart at the left of the first and total rows, minus
    signs instead of parentheses."""
    v = b.v8
    kw: dict = {"double_total": v.random() < 0.5}
    depth = v.choice((6.0, 10.0, 14.0, 18.0))
    kw["indents"] = {r: depth * (2 if v.random() < 0.2 else 1) for r in g.indents}
    if v.random() < 0.35:
        sym = (b.lang.currency[0] or b.lang.currency[1]).strip()
        last = len(g.body) - 1
        kw["left_marks"] = {(r, c): sym for r in (0, last) for c in range(1, len(g.aligns))
                            if g.aligns[c] == "r" and g.body[r][c]}
    if v.random() < 0.3:
        for row in g.body:
            for c in range(1, len(row)):
                if row[c].startswith("("):
                    row[c] = "-" + row[c][1:-1]
    return kw


def unit_line(b: Builder, p: float) -> None:
    """With chance p, the statement's unit set above it on the right ("in thousands")."""
    if b.v8.random() >= p:
        return
    x0, x1 = b.flow.span()
    size = max(b.face.size - 1, 6)
    text = UNIT_LINE[b.lang.code]
    b.flow.text(x1 - width(text, b.face.regular, size), b.flow.top, text, b.face.regular, size)
    b.flow.top += size * 1.5


def footnote_marks(b: Builder, body: list[list[str]]) -> str:
    """With chance 0.35, marks after one or two row keys and their footnote line; "" if none."""
    if b.v8.random() >= 0.35:
        return ""
    marks = ("*", "**")[: b.v8.randint(1, 2)]
    rows = b.v8.sample(range(len(body)), len(marks))
    for mark, r in zip(marks, rows, strict=True):
        body[r][0] = body[r][0] + mark
    gap = "" if b.lang.code == "ja" else " "
    return " ".join(f"{m}{gap}{b.v8.choice(b.lang.prose)}" for m in marks)


def short_table(b: Builder, rng: random.Random, lang: Lang) -> None:
    """With chance 0.4, a short borderless table in the run of prose, without a caption."""
    if b.v8.random() >= 0.4:
        return
    g = tables.metric_grid(lang, rng, rng.randint(2, 3), rng.randint(1, 2), text_col=False)
    b.table(b.spec(g.header, g.body, g.aligns, style="none", full_width=False), g.types,
            caption=None)

"""Table contents drawn at random for the families: keyed metric grids, spanners, key-value
pairs, statements, bullet cells and pictures. Each returns header rows, body rows, alignments
and the CONTRACT types of the columns."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bench.zoo import content
from bench.zoo.content import Lang
from bench.zoo.table import HeaderCell


@dataclass
class Grid:
    """A table's content before it is styled."""

    header: list[list[HeaderCell]]
    body: list[list[str]]
    aligns: list[str]
    types: list[str]


def metric_grid(lang: Lang, rng: random.Random, n_rows: int, n_metrics: int,
                unit_style: str | None = None, text_col: bool | None = None) -> Grid:
    """A key column (maybe a text column) and numeric metric columns with locale formats."""
    unit_style = unit_style or rng.choice(("paren", "brackets", "bare"))
    metrics = rng.sample(lang.metrics, min(n_metrics, len(lang.metrics)))
    keys = content.row_keys(lang, rng, n_rows)
    names = [rng.choice(lang.text_columns[:1] + lang.text_columns[4:5])]
    aligns, types = ["l"], ["text"]
    cols: list[list[str]] = [keys]
    if text_col if text_col is not None else rng.random() < 0.3:
        name = rng.choice(lang.text_columns[1:4])
        names.append(name)
        pool = [s.capitalize() if lang.code != "ja" else s for s in lang.key_suffixes]
        cols.append([rng.choice(pool) for _ in range(n_rows)])
        aligns.append("l")
        types.append("text")
    for name, unit in metrics:
        kind = content.metric_kind(unit, rng)
        vals = [content.value_for(lang, rng, unit, kind) for _ in range(n_rows)]
        shown_unit = "" if kind == "currency" else unit
        names.append(content.header_name(lang, name, shown_unit, unit_style))
        cols.append([v for v, _ in vals])
        aligns.append("r")
        types.append(vals[0][1])
    if rng.random() < 0.2:  # a date column, as in schedules and registers
        names.append({"en": "Date", "de": "Datum", "hu": "Dátum", "vi": "Ngày", "ja": "日付"}[lang.code])
        cols.append([content.date(lang, rng) for _ in range(n_rows)])
        aligns.append(rng.choice(("l", "r")))
        types.append("date")
    body = [list(r) for r in zip(*cols, strict=True)]
    return Grid([[HeaderCell(n) for n in names]], body, aligns, types)


SPANNER_SUBS = {
    "years": lambda rng: [str(y) for y in range(rng.randint(2019, 2023), 2026)][: rng.randint(2, 3)],
    "pairs": lambda rng: rng.sample(["EN-DE", "EN-FR", "DE-EN", "JA-EN", "EN-VI", "HU-EN"],
                                    rng.randint(2, 3)),
    "quarters": lambda rng: ["Q1", "Q2", "Q3", "Q4"][: rng.randint(2, 4)],
}


def spanner_grid(lang: Lang, rng: random.Random, n_rows: int) -> Grid:
    """Two header levels: group labels ("BLEU", "Umsatz") over sub-columns ("EN-DE", "2024")."""
    kind = rng.choice(tuple(SPANNER_SUBS))
    subs = SPANNER_SUBS[kind](rng)
    if kind == "pairs":
        groups = rng.sample(["BLEU", "chrF", "COMET", "TER"], rng.randint(2, 3))
    else:
        groups = [m for m, _ in rng.sample(lang.metrics, rng.randint(2, 3))]
    key = rng.choice(lang.text_columns[:1] + lang.text_columns[4:5])
    top = [HeaderCell("")] + [HeaderCell(g, len(subs)) for g in groups]
    second = [HeaderCell(key)] + [HeaderCell(s) for _ in groups for s in subs]
    keys = content.row_keys(lang, rng, n_rows)
    decimals = 1 if kind == "pairs" else rng.choice((0, 1, 2))
    body = [[k] + [content.number(lang, rng.uniform(10, 99 if kind == "pairs" else 99_999), decimals)
                   for _ in range(len(groups) * len(subs))] for k in keys]
    n = 1 + len(groups) * len(subs)
    types = ["text"] + ["decimal" if decimals else "integer"] * (n - 1)
    return Grid([top, second], body, ["l"] + ["r"] * (n - 1), types)


def wrapped_grid(lang: Lang, rng: random.Random, n_rows: int, n_metrics: int) -> Grid:
    """Metric columns whose header wraps: the unit on its own line, long names over two lines."""
    g = metric_grid(lang, rng, n_rows, n_metrics, unit_style=rng.choice(("paren", "brackets")))
    cells = []
    for i, cell in enumerate(g.header[0]):
        text = cell.text
        cut = max(text.rfind("("), text.rfind("["))
        if i > 0 and cut > 0:
            text = text[:cut].rstrip() + "\n" + text[cut:]
        elif i > 0 and " " in text and rng.random() < 0.7:
            text = text.replace(" ", "\n", 1)
        cells.append(HeaderCell(text))
    return Grid([cells], g.body, g.aligns, g.types)


def kv_pairs(lang: Lang, rng: random.Random, n: int, exclude: tuple[str, ...] = ()) -> list[list[str]]:
    """Key-value rows: form labels (none of `exclude`) with names, dates, numbers and amounts."""
    pool = [k for k in lang.form_keys if k not in exclude]
    keys = rng.sample(pool, min(n, len(pool)))
    rows = []
    for k in keys:
        v = rng.choice((
            lambda: rng.choice(lang.keys),
            lambda: content.date(lang, rng),
            lambda: content.money(lang, rng.randint(1000, 999_999)),
            lambda: f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
            lambda: f"{rng.choice(lang.keys)} {rng.randint(1, 99)}",
        ))()
        rows.append([k, v])
    return rows


def statement_grid(lang: Lang, rng: random.Random) -> Grid:
    """An income statement: items, negatives in parentheses, subtotals, a total; two years."""
    year = rng.randint(2020, 2025)
    years = [str(year), str(year - 1)]
    note_col = rng.random() < 0.4
    note = {"en": "Note", "de": "Anhang", "hu": "Megj.", "vi": "Thuyết minh", "ja": "注記"}[lang.code]
    names = [""] + ([note] if note_col else []) + years
    items = list(lang.statement_items)
    body, bold, indents, totals = [], set(), {}, [0, 0]
    for i, item in enumerate(items):
        vals = [rng.randint(-900_000, 2_500_000) for _ in years]
        totals = [a + b for a, b in zip(totals, vals, strict=True)]
        row = [item] + ([str(rng.randint(1, 30))] if note_col and rng.random() < 0.7 else [""] if note_col else [])
        body.append(row + [_signed(lang, v) for v in vals])
        if i % 3 == 2:
            bold.add(len(body) - 1)
        else:
            indents[len(body) - 1] = 10.0
    body.append([lang.total_word] + ([""] if note_col else []) + [_signed(lang, v) for v in totals])
    bold.add(len(body) - 1)
    aligns = ["l"] + (["c"] if note_col else []) + ["r", "r"]
    types = ["text"] + (["integer"] if note_col else []) + ["integer", "integer"]
    g = Grid([[HeaderCell(n) for n in names]], body, aligns, types)
    g.bold_rows, g.indents = frozenset(bold), indents  # type: ignore[attr-defined]
    return g


def _signed(lang: Lang, v: int) -> str:
    """Accounting style: negatives in parentheses."""
    s = content.number(lang, abs(v))
    return f"({s})" if v < 0 else s


def bullet_grid(lang: Lang, rng: random.Random, n_rows: int) -> Grid:
    """Slide tables: a topic column, a column of 1-3 bullets per cell, an owner, a date."""
    bullet = rng.choice(("•", "・") if lang.code == "ja" else ("•", "–", "▪"))
    names = [lang.text_columns[3], lang.sections[rng.randint(0, 5)], lang.text_columns[5],
             {"en": "Due", "de": "Termin", "hu": "Határidő", "vi": "Hạn", "ja": "期限"}[lang.code]]
    topics = rng.sample(lang.sections, n_rows)
    body = []
    for t in topics:
        items = rng.sample(lang.captions, rng.randint(1, 3))
        body.append([t, "\n".join(f"{bullet} {x}" for x in items), rng.choice(lang.keys),
                     content.date(lang, rng)])
    return Grid([[HeaderCell(n) for n in names]], body, ["l", "l", "l", "l"],
                ["text", "text", "text", "date"])


def picture(rng: random.Random, px: int = 48) -> bytes:
    """A small PNG: a coloured shape on a light ground (a product photo stand-in)."""
    img = Image.new("RGB", (px, px), tuple(rng.randint(200, 255) for _ in range(3)))
    d = ImageDraw.Draw(img)
    colour = tuple(rng.randint(0, 180) for _ in range(3))
    a, b = rng.randint(4, 16), rng.randint(30, 44)
    (d.ellipse if rng.random() < 0.5 else d.rectangle)([a, a, b, b], fill=colour)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()

"""Generated PDFs for a table's surroundings: spanner and wrapped headers, headerless tables,
letter-spaced CJK, stacked captions and headings right above borderless tables.

Drawn line by line with PyMuPDF (fonts embedded) where `samples.pdfgen` lays out only
one-line ruled cells: a spanner label centred over its sub-columns, a header cell over three
lines, a heading 12 points above a borderless table.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from samples.pdfgen import DEJAVU, DEJAVU_BOLD

LEFT = 50.0


class Page:
    """One A4 page to draw text and rules on."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self.page = doc.new_page(width=595, height=842)
        self.page.insert_font(fontname="F0", fontfile=str(DEJAVU))
        self.page.insert_font(fontname="F1", fontfile=str(DEJAVU_BOLD))
        self.page.insert_font(fontname="CJ", fontbuffer=pymupdf.Font("cjk").buffer)

    def text(self, x: float, y: float, text: str, size: float = 9, bold: bool = False,
             align: str = "l", width: float = 0.0) -> None:
        """Text with its baseline at y; aligned left, right ('r') or centred ('c') in `width`."""
        cjk = any(ord(ch) >= 0x2E80 for ch in text)
        name = "CJ" if cjk else "F1" if bold else "F0"
        font = pymupdf.Font("cjk") if cjk else pymupdf.Font(fontfile=str(DEJAVU_BOLD if bold else DEJAVU))
        w = font.text_length(text, fontsize=size)
        x = x + width - w if align == "r" else x + (width - w) / 2 if align == "c" else x
        self.page.insert_text((x, y), text, fontsize=size, fontname=name)

    def rule(self, x0: float, y: float, x1: float, width: float = 0.5) -> None:
        """A horizontal rule."""
        self.page.draw_line((x0, y), (x1, y), width=width)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """A ruled cell."""
        self.page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), width=0.6)


def _save(doc: pymupdf.Document, path: Path) -> Path:
    doc.save(path)
    doc.close()
    return path


def figures(rnd: random.Random, n: int) -> list[str]:
    """n decimal figures."""
    return [f"{rnd.uniform(10, 90):.1f}" for _ in range(n)]


SPANNERS = {
    "en": ("Table 1 Translation quality", "Model", ["BLEU", "TER"], ["EN-DE", "EN-FR"], "model"),
    "de": ("Tabelle 1 Umsatz und Ergebnis", "Sparte", ["Umsatz", "Ergebnis"], ["2024", "2025"], "Sparte"),
    "ja": ("表1 売上高と営業利益", "事業", ["売上高", "営業利益"], ["前期", "当期"], "事業"),
}

THIRD_SUB = {"en": "EN-IT", "de": "2026", "ja": "翌期"}


def group_columns(stub_width: float, n_groups: int, per: float, width: float,
                  gap: float) -> list[tuple[float, float]]:
    """The x ranges of a stub column at LEFT, then `n_groups` groups of `per` sub-columns
    `width` wide each, `gap` points between the groups."""
    cols, x = [(LEFT, LEFT + stub_width)], LEFT + stub_width
    for _ in range(n_groups):
        cols += [(x + k * width, x + (k + 1) * width) for k in range(int(per))]
        x += per * width + gap
    return cols


def group_labels(pg: Page, cols: list[tuple[float, float]], groups: list[str], per: int,
                 y: float, size: float, bold: bool) -> None:
    """Each group label centred over its sub-columns at `y`, a short rule under it."""
    for g, label in enumerate(groups):
        a, b = cols[1 + per * g][0], cols[per * (g + 1)][1]
        pg.text(a, y, label, size, bold, "c", b - a)
        pg.rule(a + 4, y + 4, b - 4)


def spanner_table(path: Path, lang: str, gap: float = 30.0, n_subs: int = 2) -> Path:
    """A borderless table under booktabs rules: group labels centred over `n_subs` numeric
    columns each, on a header row of their own, with `gap` points between the groups."""
    caption, stub, groups, subs, key = SPANNERS[lang]
    subs = (subs + [THIRD_SUB[lang]])[:n_subs]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "2. Results" if lang == "en" else "2. Ergebnisse" if lang == "de" else "2. 業績", 14, True)
    pg.text(LEFT, 90, caption, 10, True)
    cols = group_columns(110, len(groups), n_subs, 120 / n_subs if n_subs > 2 else 60, gap)
    right = cols[-1][1]
    pg.rule(LEFT, 100, right, 1.0)
    group_labels(pg, cols, groups, n_subs, 114, 9, True)
    y = 130
    for i, label in enumerate([stub] + subs * len(groups)):
        a, b = cols[i]
        pg.text(a, y, label, 9, True, "l" if i == 0 else "r", b - a - 6)
    pg.rule(LEFT, y + 5, right)
    rnd = random.Random(7)
    for k in range(5):
        y += 15
        for i, t in enumerate([f"{key} {k + 1}"] + figures(rnd, n_subs * len(groups))):
            a, b = cols[i]
            pg.text(a, y, t, 9, False, "l" if i == 0 else "r", b - a - 6)
    pg.rule(LEFT, y + 6, right, 1.0)
    return _save(doc, path)


WRAPPED = {
    "en": ("Table 4 Costs by site", [["Site"], ["Amount", "excl. VAT", "(EUR)"], ["Floor", "area", "(m²)"],
                                     ["Share", "(%)"]], ["Berlin", "Hamburg", "Munich", "Cologne"]),
    "de": ("Tabelle 4 Kosten je Standort", [["Standort"], ["Betrag", "(EUR)"], ["Fläche", "(m²)"],
                                            ["Anteil", "(%)"]], ["Berlin", "Hamburg", "München", "Köln"]),
    "ja": ("表4 拠点別費用", [["拠点"], ["金額", "（千円）"], ["床面積", "（m²）"], ["構成比", "（%）"]],
           ["東京", "大阪", "名古屋", "福岡"]),
}


def wrapped_header_table(path: Path, lang: str, ruled: bool) -> Path:
    """Header cells over two or three lines with the unit last, the caption 14 points above
    (so close that it lines up as one more header row of a borderless table)."""
    caption, heads, names = WRAPPED[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "3. Kosten" if lang == "de" else "3. 費用" if lang == "ja" else "3. Costs", 14, True)
    pg.text(LEFT, 96, caption, 10, True)
    xs = [LEFT, 170, 280, 390, 500]
    y = 110
    height = 11 * max(len(h) for h in heads) + 6
    for i, lines in enumerate(heads):
        if ruled:
            pg.box(xs[i], y, xs[i + 1], y + height)
        for k, t in enumerate(lines):
            pg.text(xs[i] + 4, y + 11 + 11 * k, t, 9, True)
    y += height
    if not ruled:
        pg.rule(LEFT, y, xs[-1])
    rnd = random.Random(3)
    for name in names:
        row = [name, f"{rnd.randint(1000, 20000):,}", f"{rnd.randint(100, 900)}", f"{rnd.uniform(5, 30):.1f}"]
        for i, t in enumerate(row):
            if ruled:
                pg.box(xs[i], y, xs[i + 1], y + 16)
            pg.text(xs[i] + 4, y + 11, t, 9)
        y += 16
    return _save(doc, path)


def ruled_grid(pg: Page, top: float, rows: list[list[str]], widths: list[float] | tuple[float, ...],
               bold_first: bool = False, x0: float = LEFT, height: float = 18, size: float = 9) -> float:
    """A ruled grid of one-line cells from (`x0`, `top`), rows `height` points high; returns its
    bottom."""
    y = top
    for j, row in enumerate(rows):
        x = x0
        for w, t in zip(widths, row, strict=True):
            pg.box(x, y, x + w, y + height)
            pg.text(x + 4, y + height * 2 / 3, t, size, bold_first and j == 0)
            x += w
        y += height
    return y


PROSE = ["The figures cover the reporting period", "and were checked by the controlling",
         "team. Sites opened during the year are", "included from their first full month."]


def prose(pg: Page, x: float, y: float, n: int, first: int = 0) -> float:
    """`n` lines of running text at `x` from baseline `y`, 12 points apart, starting at
    PROSE[first]; returns the baseline under the last line."""
    for k in range(n):
        pg.text(x, y, PROSE[(k + first) % 4], 9)
        y += 12
    return y


KEY_VALUE = {
    "de": ("1. Vertragsdaten", [["Vertragsnummer", "V-2026-0412"], ["Kunde", "Müller GmbH"],
                                ["Laufzeit", "24 Monate"], ["Beginn", "01.03.2026"],
                                ["Monatliche Rate", "1.250,00 €"]]),
    "en": ("1. Order details", [["Customer", "Northwind Traders"], ["Order number", "PO-88412-7"],
                                ["Order date", "2026-03-14"], ["Total", "$ 12,480.00"],
                                ["Payment", "30 days net"]]),
    "ja": ("1. 契約概要", [["契約番号", "K-2026-0815"], ["契約者", "山田商事株式会社"],
                          ["契約期間", "24か月"], ["開始日", "2026/04/01"], ["月額", "125,000円"]]),
}


def key_value_table(path: Path, lang: str) -> Path:
    """A ruled two-column form of fields (no header, nothing bold)."""
    heading, rows = KEY_VALUE[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, heading, 14, True)
    ruled_grid(pg, 90, rows, [150, 250])
    return _save(doc, path)


def letter_spaced_table(path: Path) -> Path:
    """A ruled Japanese table whose labels are letter-spaced (`施 設 種 類`)."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "施設一覧", 14, True)
    rows = [["施 設 種 類", "定 員", "所 在 地"], ["保 育 所", "120", "中央区"], ["幼稚園", "80", "北区"],
            ["児童館", "45", "南区"], ["Day care center", "30", "西区"]]
    ruled_grid(pg, 90, rows, [150, 120, 130], bold_first=True)
    return _save(doc, path)


def letter_spaced_units_table(path: Path) -> Path:
    """A ruled Japanese table whose labels and their Latin units are letter-spaced alike
    (`重 量 [ k g ]`), beside a Latin label with a unit of two words (`Volume [m 3]`)."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "出荷一覧", 14, True)
    rows = [["品 目", "重 量 [ k g ]", "費 用 ( 千 円 )", "Volume [m 3]"], ["部品A", "12.5", "1,200", "3.5"],
            ["部品B", "8.0", "950", "2.0"], ["部品C", "20.1", "2,480", "4.5"]]
    ruled_grid(pg, 90, rows, [100, 110, 120, 110], bold_first=True)
    return _save(doc, path)


def stacked_tables(path: Path, captions_below: bool, lang: str = "en", bare: int | None = None) -> Path:
    """Two ruled tables one under the other, each with its caption above or below it (table
    `bare`, 0 or 1, without one: its neighbour's caption then stands between the two)."""
    caps = {"en": ["Table 1 Income", "Table 2 Expenses"], "de": ["Tabelle 1 Einnahmen", "Tabelle 2 Ausgaben"],
            "ja": ["表1 収入", "表2 支出"]}[lang]
    if bare is not None:
        caps[bare] = ""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Report", 14, True)
    y = 84.0
    for k, cap in enumerate(caps):
        rows = [["Item", "2025", "2026"]] + [[f"Item {k + 1}.{i}", f"{100 * i + k}", f"{110 * i + k}"]
                                             for i in range(1, 5)]
        if cap and not captions_below:
            pg.text(LEFT, y + 10, cap, 10, True)
            y += 16
        y = ruled_grid(pg, y, rows, [150, 120, 120], bold_first=True)
        if cap and captions_below:
            pg.text(LEFT, y + 14, cap, 10, True)
            y += 20
        y += 18
    return _save(doc, path)


SECTIONS = {
    "de": (["1. Einnahmen", "2. Ausgaben"], "Die Übersicht zeigt die Werte des laufenden Geschäftsjahres je Posten."),
    "ja": (["1. 収入", "2. 支出"], "次の表は今年度の項目別の金額を示しています。各項目の金額は千円単位です。"),
    "en": (["Income", "Expenses"], "The overview shows the figures of the current financial year by item."),
}


def sections_over_tables(path: Path, lang: str, gap: float = 12.0, size: float = 12.0) -> Path:
    """Two sections on one page, each a heading `gap` points above a borderless table and a
    paragraph after it. English headings are bold at body size and unnumbered."""
    heads, prose = SECTIONS[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    rnd = random.Random(4)
    y = 60.0
    for k, head in enumerate(heads):
        pg.text(LEFT, y, head, 10 if lang == "en" else size, True)
        y += gap
        rows = [["Posten", "2025", "2026"]] + [[f"Posten {k + 1}.{i}", str(rnd.randint(100, 999)),
                                                str(rnd.randint(100, 999))] for i in range(1, 5)]
        for j, row in enumerate(rows):
            for i, t in enumerate(row):
                pg.text(LEFT + 150 * i, y, t, 9, j == 0, "l" if i == 0 else "r", 100)
            y += 14
        y += 10
        pg.text(LEFT, y, prose, 10)
        y += 40
    return _save(doc, path)


def unit_under_last_column(path: Path, ruled: bool) -> Path:
    """Labels right-aligned over columns of figures, a unit on a second header line under the
    last label only (`Volume` over `(m3)`): the other columns have no unit."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Table 1 Operating costs by region", 10, True)
    xs = [LEFT, 170, 260, 350, 420]
    heads = [["Site"], ["Lead time"], ["Output"], ["Volume", "(m3)"]]
    y = 72
    for i, lines in enumerate(heads):
        if ruled:
            pg.box(xs[i], y, xs[i + 1], y + 28)
        for k, t in enumerate(lines):
            pg.text(xs[i] + 4, y + 11 + 11 * k, t, 9, True, "l" if i == 0 else "r", xs[i + 1] - xs[i] - 8)
    y += 28
    if not ruled:
        pg.rule(LEFT, y, xs[-1])
    rnd = random.Random(5)
    for n in range(8):
        row = [f"Harbour depot {n + 1}", f"{rnd.randint(100000, 9000000):,} €",
               f"{rnd.randint(100000, 9000000):,} €", f"{rnd.uniform(10, 900):,.1f}"]
        for i, t in enumerate(row):
            if ruled:
                pg.box(xs[i], y, xs[i + 1], y + 16)
            pg.text(xs[i] + 4, y + 11, t, 9, False, "l" if i == 0 else "r", xs[i + 1] - xs[i] - 8)
        y += 16
    return _save(doc, path)


def captions_atop_pages(path: Path, lang: str = "en") -> Path:
    """Two pages under a running header, each opening with a numbered caption in the top
    margin (the same title, its number apart) over a ruled table of its own."""
    title = {"en": "Costs by site", "ja": "施設別実績"}[lang]
    label = {"en": "Table {n}: ", "ja": "表{n}："}[lang]
    doc = pymupdf.open()
    for n, head in ((1, ["Site", "Cost", "Output"]), (2, ["Depot", "Staff", "Area"])):
        pg = Page(doc)
        pg.text(LEFT, 30, "Annual report 2026", 8)
        pg.text(LEFT, 58, label.format(n=n) + title, 10, True)
        rows = [head] + [[f"{head[0]} {i}", f"{100 * i + n}", f"{7 * i}.{n}"] for i in range(1, 5)]
        ruled_grid(pg, 66, rows, [150, 120, 120], bold_first=True)
        pg.text(LEFT, 200, "The figures cover the reporting period and were checked.", 9)
    return _save(doc, path)


def notes_over_captions(path: Path) -> Path:
    """Two ruled tables one under the other, each followed by a note in small type (over two
    lines) and then by its caption: the note stands between a table and its caption."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "1. Results", 14, True)
    y = 80.0
    for n, head in ((1, ["Item", "2025", "2026"]), (2, ["Cost", "Q1", "Q2"])):
        rows = [head] + [[f"{head[0]} {n}.{i}", f"{100 * i + n}", f"{110 * i + n}"] for i in range(1, 5)]
        y = ruled_grid(pg, y, rows, [150, 120, 120], bold_first=True)
        pg.text(LEFT, y + 10, "Note: figures in EUR thousand, rounded; totals may differ from the", 7.5)
        pg.text(LEFT, y + 19, "sum of the rows.", 7.5)
        pg.text(LEFT, y + 34, f"Table {n}: Results by item", 10, True)
        pg.text(LEFT, y + 58, "The overview shows the figures of the current financial year by item.", 9)
        y += 84
    return _save(doc, path)


def form_over_table(path: Path) -> Path:
    """A quote: its title, one field set as a bold label with its value beside it, a ruled
    table of line items, a note."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Quote 2026", 16, True)
    pg.text(LEFT, 100, "Contact person", 9, True)
    pg.text(LEFT + 90, 100, "Anna Kovacs, 320-9395", 9)
    rows = [["Item", "Qty", "Price"], ["Cable", "12", "48.00"], ["Switch", "2", "310.00"], ["Rack", "1", "990.00"]]
    y = ruled_grid(pg, 130, rows, [150, 120, 120], bold_first=True)
    pg.text(LEFT, y + 30, "Prices are net of tax and valid for thirty days from the date above.", 9)
    pg.text(LEFT, y + 42, "Delivery within two weeks of the order; installation is quoted apart.", 9)
    return _save(doc, path)

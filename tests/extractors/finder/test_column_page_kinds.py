"""Three kinds of page seen on zoo dev9 (issue 13), each on a page written here:

- a table over the full width of a page set in two columns, its widest column gap on the
  page's gutter and its header labels printed as one line across it: read whole inside the
  full-width band the page's columns show (`text_runs.aligned_regions`), not in halves at the
  gutter (the left half lost its header line as a caption's sentence);
- a sentence between two tables, short in characters (CJK) but running out of the first
  table across its right edge: no label inside the table, so the second table is its own
  (`text_runs._runs_out`);
- a caption wrapped onto a second line that stands level with the next page column's caption:
  the second line is the caption's, not a cell of a header row (`captions.caption_block` with
  the page's columns).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import new_page, put
from tests.extractors.helpers import draw_grid

PROSE = ("The figures are rounded, so totals may differ slightly from the sum of the rows. Sites "
         "opened during the year count from their first full month. Costs include maintenance, "
         "energy and outsourced services but exclude depreciation. This section sums up the main "
         "results and compares them with the year before.")


def _prose(page: pymupdf.Page, x: float, y: float, n: int, chars: int = 52) -> None:
    words = PROSE.split()
    k = 0
    for i in range(n):
        line: list[str] = []
        while len(" ".join(line)) < chars:
            line.append(words[k % len(words)])
            k += 1
        put(page, x, y + 12.8 * i, " ".join(line), 9)


WIDE = ["Site", "Capacity", "Revenue (USD)", "Delivery time (days)", "Score", "Margin (%)", "Cost (USD)"]
RIGHTS = [None, 214.0, 288.0, 385.7, 426.0, 481.6, 536.5]
"""Right edges of the figure columns: labels 6 pt apart (one line of text), but for a wider gap
after the third; the widest gap between figures (Revenue's and Delivery time's) on the gutter."""


def _wide_table_page(path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc, 612, 792)
    put(page, 52.5, 60, WIDE[0], 8, "bold")
    for label, right in zip(WIDE[1:], RIGHTS[1:], strict=True):
        put(page, right, 60, label, 8, "bold", align="right")
    for i in range(10):
        y = 77 + 17 * i
        put(page, 52.5, y, f"Harbour depot {6019 + 37 * i}", 8)
        figures = [f"{362 + 7 * i}.514", f"{667 - 9 * i}.355", f"{653 + 3 * i}.841", f"{374 + i}.288",
                   f"{44 - i},6 %", f"{358 + 5 * i}.573"]
        for text, right in zip(figures, RIGHTS[1:], strict=True):
            put(page, right, y, text, 8, align="right")
    put(page, 50, 248, "Table 1 Operating cost by region,", 9, "bold")
    put(page, 50, 260, "quarterly figures by site", 9, "bold")
    _prose(page, 50, 296, 30, 40)
    _prose(page, 315, 296, 24, 40)
    doc.save(path)


def test_a_full_width_table_over_the_gutter_is_read_whole(tmp_path: Path) -> None:
    _wide_table_page(tmp_path / "wide.pdf")
    tables = rowkeeper.extract(str(tmp_path / "wide.pdf")).tables
    (table,) = [t for t in tables if "Site" in t.columns]
    assert list(table.columns) == WIDE
    assert len(table.rows) == 10 and table.rows[0][0] == "Harbour depot 6019" and table.rows[0][6] == "358.573"
    assert table.caption == "Table 1 Operating cost by region, quarterly figures by site"


def _two_tables_page(path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 148, "表1地域別運営費", 8.5, "cjk")
    put(page, 63, 176, "施設", 8.5, "cjk")
    put(page, 179, 176, "容積(m3)", 8.5, "cjk", align="right")
    put(page, 218.5, 176, "納期(日)", 8.5, "cjk", align="right")
    sites = ["名古屋事務所", "松山事務所", "長野店舗", "熊本店舗", "静岡店舗", "富山センター", "熊本工場",
             "広島支店", "広島倉庫", "高松倉庫", "鹿児島工場"]
    for i, site in enumerate(sites):
        y = 191.5 + 15.6 * i
        put(page, 63, y, f"{site} {2833 + 111 * i}", 8.5, "cjk")
        put(page, 179, y, f"{165 + 31 * i},778", 8.5, "cjk", align="right")
        put(page, 218.5, y, f"{137 + 23 * i},079", 8.5, "cjk", align="right")
    beside = ["数値は四捨五入しているため、合計が各行の和と一致しない場合がある。費",
              "用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。以下",
              "の数値は報告期間を対象とし、管理部門が確認したものである。"]
    for i, text in enumerate(beside):  # a paragraph beside the table's first rows
        put(page, 249.4, 174 + 12.8 * i, text, 10, "cjk")
    put(page, 60, 379, "本節では主な結果をまとめ、前年度と比較する。", 10, "cjk")
    put(page, 66, 400, "施設", 10, "cjk")
    put(page, 201.8, 400, "費用", 10, "cjk", align="right")
    put(page, 66, 415.5, "仙台センター 7572", 10, "cjk")
    put(page, 201.8, 415.5, "548,112", 10, "cjk", align="right")
    put(page, 66, 431, "名古屋支店 7762", 10, "cjk")
    put(page, 201.8, 431, "30,150", 10, "cjk", align="right")
    doc.save(path)


def test_a_sentence_running_out_of_a_table_parts_it_from_the_next(tmp_path: Path) -> None:
    _two_tables_page(tmp_path / "two.pdf")
    first, second = sorted(rowkeeper.extract(str(tmp_path / "two.pdf")).tables, key=lambda t: t.regions[0].bbox[1])
    assert list(first.columns) == ["施設", "容積(m3)", "納期(日)"] and len(first.rows) == 11
    assert list(second.columns) == ["施設", "費用"]
    assert [r[1] for r in second.rows] == ["548,112", "30,150"]


def _captions_page(path: Path) -> None:
    """A ruled table under a caption wrapped onto two lines in the left column; in the right
    column a table in smaller print at its own row pitch, under a caption level with the left
    caption's second line."""
    doc = pymupdf.open()
    page = new_page(doc)
    _prose(page, 50, 80, 18, 46)
    _prose(page, 306, 80, 18, 46)
    put(page, 50, 310, "Table 1. Quarterly figures by", 8, "bold")
    put(page, 50, 320, "site, headcount and budget", 8, "bold")
    put(page, 306, 318, "Table 2. Headcount and budget, maintenance", 8, "bold")
    ys = [326 + 13 * k for k in range(7)]
    draw_grid(page, (50, 150, 203), ys)
    put(page, 54, 336, "Site", 8, "bold")
    put(page, 199, 336, "Margin [%]", 8, "bold", align="right")
    put(page, 310, 334, "Site", 6.5, "bold")
    for x, label in ((445, "Budget (EUR)"), (495, "Staff"), (542, "Rating")):
        put(page, x, 334, label, 6.5, "bold", align="right")
    for i in range(5):
        put(page, 54, 349 + 13 * i, f"Birch Lane depot {4409 + i}", 8)
        put(page, 199, 349 + 13 * i, f"{3 + 11 * i},1 %", 8, align="right")
    for i in range(4):
        y = 349 + 15.2 * i
        put(page, 310, y, f"{2924 + i} Rosenau depot", 6.5)
        for x, text in ((445, f"{7 + i}.667,8"), (495, f"{819 - i}.175"), (542, f"{135 + i}.292")):
            put(page, x, y, text, 6.5, align="right")
    _prose(page, 50, 430, 20, 46)
    _prose(page, 306, 430, 20, 46)
    doc.save(path)


def test_a_wrapped_caption_level_with_the_next_columns_caption_is_whole(tmp_path: Path) -> None:
    _captions_page(tmp_path / "captions.pdf")
    tables = rowkeeper.extract(str(tmp_path / "captions.pdf")).tables
    captions = {t.columns[-1]: t.caption for t in tables}
    assert captions["Margin [%]"] == "Table 1. Quarterly figures by site, headcount and budget"
    assert captions["Rating"] == "Table 2. Headcount and budget, maintenance"


JA_PROSE = ("以下の数値は報告期間を対象とし、管理部門が確認したもの", "である。数値は四捨五入しているため、合計が各行の和と一",
            "致しない場合がある。以下の数値は報告期間を対象とし、管", "理部門が確認したものである。数値は四捨五入しているため",
            "、合計が各行の和と一致しない場合がある。")
LEFT = [("品目", "売上高", "日付"), ("金沢倉庫 4640", "79,746", "2025年1月27日"), ("名古屋事務所 2874", "476,898", "2020年12月2日"),
        ("京都店舗 8503", "783,711", "2023年11月14日"), ("岡山支店 8266", "762,349", "2021年2月14日"),
        ("鹿児島支店 2338", "793,455", "2022年11月19日"), ("名古屋支店 2210", "6,554", "2025年9月2日")]
RIGHT = [("品目", "数量", "重量"), ("8118 那覇事務所", "¥7,102,870", "66,999.6"), ("2462 松山工場", "¥1,793,718", "23,750.35"),
         ("3583 盛岡センター", "¥1,063,317", "46,719.95"), ("496 広島支店", "¥8,280,981", "44,712.2"),
         ("3778 新潟店舗", "¥6,410,165", "91,290.5"), ("8087 大阪支店", "¥4,114,087", "63,275.3")]


def _table_beside_a_ruled_one(path: Path) -> None:
    """A two-column page: left, prose, a borderless table, its caption, prose; right, a ruled
    table from the top, its caption and a short paragraph (five lines) under it."""
    doc = pymupdf.open()
    page = new_page(doc, 612, 792)
    put(page, 60, 77, "主要指標 2019", 16, "cjk")
    put(page, 60, 111, "運営費", 12, "cjk")
    for i, text in enumerate(JA_PROSE[:2]):
        put(page, 60, 128 + 11.5 * i, text, 8.5, "cjk")
    for r, row in enumerate(LEFT):
        for text, (x, align) in zip(row, ((64, "left"), (209.8, "right"), (217.8, "left")), strict=True):
            put(page, x, 158 + 15.6 * r, text, 8.5, "cjk", align)
    put(page, 60, 158 + 15.6 * len(LEFT) + 4, "表1：エネルギー消費量、保守計画", 8.5, "cjk")
    for i in range(14):
        put(page, 60, 300 + 11.5 * i, JA_PROSE[i % len(JA_PROSE)], 8.5, "cjk")
    xs, ys = (315, 383, 430, 468.5), [90.7 + 15.75 * k for k in range(len(RIGHT) + 1)]
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for r, row in enumerate(RIGHT):
        put(page, 319, ys[r] + 10.5, row[0], 7, "cjk")
        for text, x in zip(row[1:], (425, 464.5), strict=True):
            put(page, x, ys[r] + 10.5, text, 7, "cjk", "right")
    put(page, 315, ys[-1] + 10, "表2：人員と予算", 8.5, "cjk")
    for i, text in enumerate(JA_PROSE):
        put(page, 315, ys[-1] + 32 + 11.5 * i, text, 8.5, "cjk")
    doc.save(path)


def test_a_table_beside_the_next_columns_ruled_table_and_short_paragraph_stays_in_its_column(tmp_path: Path) -> None:
    """The right column holds a ruled table and five lines of prose: counted by its segments
    (three a table row) it reads as no column of running text, and the left column's
    borderless table was read on across the gutter, the right column's caption and paragraph
    in its rows and its words in both tables (issue 13, zoo dev14 two_column-238-ja). Counted
    by rows, the page's columns are read apart (`text_runs._prose_column`)."""
    _table_beside_a_ruled_one(tmp_path / "columns.pdf")
    tables = rowkeeper.extract(str(tmp_path / "columns.pdf")).tables
    by_first = {t.rows[0][0]: t for t in tables}
    assert len(tables) == 2
    left, right = by_first[LEFT[1][0]], by_first[RIGHT[1][0]]
    assert left.columns == LEFT[0] and [tuple(r) for r in left.rows] == LEFT[1:]
    assert right.columns == RIGHT[0] and [tuple(r) for r in right.rows] == RIGHT[1:]
    assert right.caption == "表2：人員と予算"

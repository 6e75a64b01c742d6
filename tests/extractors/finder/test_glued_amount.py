"""A row label run into its amount in the text layer keeps its row, in a table set in one
column of a page of two (issue 13, the zoo's dev7 two_column-109-ja).

The label (`岡山センター`) and the amount of the next column (`¥9,103,043`) are printed a
column gap apart with no space between them: the line reader makes one token of them,
`岡山センター¥9,103,043`, and the row reads as one segment across the columns. The page's
words part them at the gap; the page's columns read apart (the table beside the other
column's prose, `column_boxes.in_column_boxes`) read their rows with those words too, or the
last row, glued, ends the run of aligned rows above it and drops out of the table (in the zoo
document the page's read ran both columns' tables into one region; on this generated page it
does not, so the page's own read keeps the row: the test guards the reading, not that pass).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import new_page, put, width

PROSE = ["期中に開設した施設は、最初の満月から集計に含めている。", "以下の数値は報告期間を対象とし、管理部門が確認した。",
         "数値は四捨五入しているため、合計が各行の和と一致しない。"]
ROWS = [("1094 金沢倉庫", "¥8,170,405", "630,995"), ("9414 福岡事務所", "¥9,580,167", "851,423"),
        ("4634 広島店舗", "¥6,123,137", "379,015"), ("1306 富山工場", "¥8,316,892", "987,680"),
        ("2534 長野支店", "¥5,049,246", "163,878"), ("5980 岡山事務所", "¥9,103,043", "483,820")]

LEFT = [("金沢工場 1260", "18.0%", "713,475"), ("鹿児島センター 812", "39.4%", "164,453"),
        ("京都倉庫 2468", "97.4%", "438,691"), ("盛岡倉庫 5127", "40.9%", "651,929"),
        ("富山センター 2612", "20.8%", "755,272")]


def page_of_two_columns(path: Path) -> Path:
    """Prose in two columns, a small table in the left one level with a captioned table of
    three columns in the right one; every row's amount right-aligned a column gap after its label,
    the last label 6.5 pt from it."""
    doc = pymupdf.open()
    page = new_page(doc, 612, 792)
    size = 10.0
    for i in range(40):
        y = 90 + 16 * i
        if not 270 <= y <= 410:  # a table of its own in the left column, prose under it
            put(page, 42, y, PROSE[i % 3], 9, "cjk")
        if not 270 <= y <= 480:  # level with the right column's table, whose last rows
            put(page, 306, y, PROSE[(i + 1) % 3], 9, "cjk")  # stand beside prose
    put(page, 42, 300, "表1：エネルギー消費量", size, "cjk")
    put(page, 44, 330, "品目", 7.5, "cjk")
    put(page, 141, 330, "構成比[%]", 7.5, "cjk", "right")
    put(page, 286, 330, "売上高[千円]", 7.5, "cjk", "right")
    for i, (name, share, sales) in enumerate(LEFT):
        put(page, 44, 350 + 14 * i, name, 7.5, "cjk")
        put(page, 141, 350 + 14 * i, share, 7.5, "cjk", "right")
        put(page, 286, 350 + 14 * i, sales, 7.5, "cjk", "right")
    amounts = 310 + width(ROWS[-1][0], size, "cjk") + 6.5 + width(ROWS[-1][1], size, "cjk")
    prices = amounts + 47
    put(page, 306, 300, "表2：人員と予算、取引先一覧", size, "cjk")
    put(page, 310, 330, "施設", size, "cjk")
    put(page, amounts, 330, "数量", size, "cjk", "right")
    put(page, prices, 330, "単価[円]", size, "cjk", "right")
    for i, (label, amount, price) in enumerate(ROWS):
        y = 350 + 19.5 * i
        put(page, 310, y, label, size, "cjk")
        put(page, amounts, y, amount, size, "cjk", "right")
        put(page, prices, y, price, size, "cjk", "right")
    doc.save(path)
    return path


def test_a_label_glued_to_its_amount_keeps_the_last_row(tmp_path: Path) -> None:
    path = page_of_two_columns(tmp_path / "two.pdf")
    with pymupdf.open(path) as doc:
        assert "岡山事務所¥9,103,043" in doc[0].get_text()  # the line reader: one token
    tables = [t for t in rowkeeper.extract(str(path)).tables if "施設" in t.columns]
    assert len(tables) == 1
    assert [tuple(r) for r in tables[0].rows] == ROWS

"""Line breaks in a cell (finder/filled_lines.py; ruled grid or rules between rows only): Japanese lines wrapped at one width in
three cells of a column or more run on without a space; a line broken short of that width, or
the lines of a column with only two wrapped cells (a statement's labels as their writer broke
them), keep the space a cell's line breaks read as."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

XS = (60.0, 160.0, 290.0, 360.0)
"""Column edges: descriptions wrapped at ten characters of 9.5 pt in a cell 130 pt wide."""
WRAPPED = [("名古屋支店", ["荷捌き場シャッターの", "年次点検"], "601,751"),
           ("盛岡センター", ["冷却設備の月次保守（", "撤去品の処分を含む）"], "726,710"),
           ("大阪店舗", ["乗用エレベーターの年", "次点検"], "398,719")]
SHORT = ("京都支店", ["主配電盤の修理", "臨時対応"], "845,694")  # broken short by its writer
ONE = ("高松店舗", ["冷却設備の納入"], "100,322")


def _grid(path: Path, records: list, verticals: bool = True) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, XS[0], 60, "保守費用の内訳", 14, "cjk")
    ys = [100.0, 118.0]
    for x, label in zip(XS, ("施設", "内容"), strict=False):
        put(page, x + 3, 112, label, 9.5, "cjk")
    put(page, XS[3] - 3, 112, "費用", 9.5, "cjk", align="right")
    for key, lines, amount in records:
        top = ys[-1]
        put(page, XS[0] + 3, top + 12, key, 9.5, "cjk")
        for k, line in enumerate(lines):
            put(page, XS[1] + 3, top + 12 + 12 * k, line, 9.5, "cjk")
        put(page, XS[3] - 3, top + 12, amount, 9.5, "cjk", align="right")
        ys.append(top + 12 * len(lines) + 6)
    for y in ys:
        page.draw_line((XS[0], y), (XS[-1], y), width=0.5)
    for x in XS if verticals else ():
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    doc.save(path)
    return path


def test_lines_wrapped_at_the_columns_width_run_on_one_broken_short_keeps_its_space(tmp_path: Path) -> None:
    (table,) = tables_of(_grid(tmp_path / "ja.pdf", [*WRAPPED, SHORT, ONE]))
    assert [tuple(r) for r in table.rows] == [*((k, "".join(lines), a) for k, lines, a in WRAPPED),
                                              ("京都支店", "主配電盤の修理 臨時対応", "845,694"),
                                              ("高松店舗", "冷却設備の納入", "100,322")]


def test_two_wrapped_cells_show_no_width_and_keep_their_spaces(tmp_path: Path) -> None:
    (table,) = tables_of(_grid(tmp_path / "two.pdf", [*WRAPPED[:2], ONE]))
    assert [tuple(r) for r in table.rows] == [*((k, " ".join(lines), a) for k, lines, a in WRAPPED[:2]),
                                              ("高松店舗", "冷却設備の納入", "100,322")]


def test_a_table_ruled_between_rows_only_runs_its_wrapped_lines_on_too(tmp_path: Path) -> None:
    # read from the text between the rules: each cell's lines from its words
    (table,) = tables_of(_grid(tmp_path / "rows.pdf", [*WRAPPED, SHORT, ONE], verticals=False))
    assert [tuple(r) for r in table.rows] == [*((k, "".join(lines), a) for k, lines, a in WRAPPED),
                                              ("京都支店", "主配電盤の修理 臨時対応", "845,694"),
                                              ("高松店舗", "冷却設備の納入", "100,322")]


def test_a_list_item_after_cjk_text_keeps_joining_without_a_space_in_a_wrapped_column() -> None:
    # zoo dev slide-14-ja: three cells of items, each line ending at the column's width; the
    # item breaks are the items' joins (`bullet_items.lines_text`), none after CJK text
    from rowkeeper.extractors.finder.filled_lines import run_on_cells

    def cell(top: float, lines: list[str]) -> list[tuple]:
        return [(100.0, top + 12 * k, 100.0 + 10 * len(t), top + 12 * k + 10, t) for k, t in enumerate(lines)]

    items = ["• 施設別四半期実績", "• 主要指標", "• 保守計画"]
    words = [[cell(12 + 40 * i, items)] for i in range(3)]
    texts = [["• 施設別四半期実績• 主要指標• 保守計画"] for _ in range(3)]
    assert run_on_cells(words, texts) == texts


HANGING = ("盛岡センター", ["冷却設備の納入及び設", "置（点検報告書を提出）、", "高所作業車は別途"], "35,807")
"""A line ending in `）、`, which may not start a line: set past the width the others wrap at."""


def test_punctuation_hanging_past_the_width_leaves_the_columns_width_where_the_lines_wrap(tmp_path: Path) -> None:
    # zoo dev19 wrapped_body-326-ja: the widest line ends in `、`; read as the width, every line
    # wrapped at ten characters stopped two short of it and kept a space
    for verticals in (True, False):
        (table,) = tables_of(_grid(tmp_path / f"hang{verticals}.pdf", [*WRAPPED, HANGING, SHORT], verticals))
        assert [tuple(r) for r in table.rows] == [*((k, "".join(lines), a) for k, lines, a in (*WRAPPED, HANGING)),
                                                  ("京都支店", "主配電盤の修理 臨時対応", "845,694")]

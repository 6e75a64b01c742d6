"""A caption read into a table as its first row hides the header under it from the test for
blocks side by side (finder/side_by_side.below_caption): a table of two text columns and two
figure columns whose ink edges repeat one shift (each figure column starts where a text column
does, moved by one distance) was cut into two tables, the figures' header lost, because the
caption row named no columns and so no labels were compared (zoo dev18 wrapped_body-317-ja).
The labels under the caption differ over the two halves: one table."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import grids, new_page, put

ROWS = [("新潟工場", ["乗用機の納入", "及び設置"], "53,534.7", "852,780"),
        ("仙台倉庫", ["換気扇の修理", "を含む"], "75,283.4", "423,443"),
        ("高松支店", ["天井照明の修理", "全3拠点"], "21,606.5", "461,518"),
        ("神戸店舗", ["事務椅子の配送", "部品代"], "95,859.0", "266,775"),
        ("富山倉庫", ["乗用機の配送", "作業費"], "19,490.1", "336,813"),
        ("福岡店舗", ["防火扉の配送", "対応"], "67,941.5", "806,179")]
LABELS = ["施設", "摘要", "売上高", "出力"]


def test_a_caption_row_over_two_alike_halves_keeps_one_table(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 42, 409, "表2：人員と予算", 8, "cjk")
    xs = (45, 166, 45 + 340, 166 + 340)  # the figure columns: the text columns moved by 340 pt
    for x, label in zip(xs, LABELS, strict=True):
        put(page, x, 428, label, 8, "cjk")
    for i, (site, scope, sales, output) in enumerate(ROWS):
        y = 449 + 42 * i
        put(page, xs[0], y, site, 8, "cjk")
        for k, line in enumerate(scope):  # the scope wraps onto a second line
            put(page, xs[1], y + 10.6 * k, line, 8, "cjk")
        put(page, xs[2], y, sales, 8, "cjk")
        put(page, xs[3], y, output, 8, "cjk")
    (grid,) = grids(doc, tmp_path / "blocks.pdf")
    body = [r for r in grid if r[0] != "表2：人員と予算"]
    assert body[0] == LABELS
    assert body[1] == ["新潟工場", "乗用機の納入及び設置", "53,534.7", "852,780"]
    assert len(body) == 1 + len(ROWS)

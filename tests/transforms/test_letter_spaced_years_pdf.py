"""A Japanese booktabs table with group labels over letter-spaced years (`2 0 2 3`, the CJK
labels' spacing carried over to the digits) and a code before each name in its first
column ("2607 岡山支店"): the years are header labels, one value each (not a row packed into
a cell, so the text layer's reading is kept), and the code-and-name column is no figure
column that a group label could head."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from rowkeeper.transforms.headers import reads_as_data
from rowkeeper.transforms.validate import packed_cells
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.builders import raw_table

NAMES = ["金沢事務所", "岡山支店", "福岡倉庫", "名古屋工場", "福岡工場", "札幌倉庫", "長野支店"]
GROUPS = ["売上高", "評点"]
YEARS = ["2023", "2024", "2025"]


def _page(path: Path) -> Path:
    rnd = random.Random(11)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "人員", 14, "cjk")
    rights = [171.0 + 44 * i for i in range(6)]
    y = 150.0
    page.draw_line((60, y - 12), (395, y - 12), width=1.2)
    for g, name in enumerate(GROUPS):  # centred over its three columns, a cmidrule under it
        a, b = rights[3 * g] - 38, rights[3 * g + 2]
        put(page, (a + b) / 2 - width(name, 9, "cjk") / 2, y, name, 9, "cjk")
        page.draw_line((a, y + 3), (b, y + 3), width=0.6)
    y += 14
    put(page, 63, y, "品目", 9, "cjk")
    for k, x in enumerate(rights):
        put(page, x, y, " ".join(YEARS[k % 3]), 9, "cjk", "right")
    page.draw_line((60, y + 4), (395, y + 4), width=0.8)
    for name in NAMES:
        y += 13.5
        put(page, 63, y, f"{rnd.randint(1000, 9999)} {name}", 9, "cjk")
        for x in rights:
            put(page, x, y, f"{rnd.randint(10, 99)},{rnd.randint(100, 999)}.{rnd.randint(10, 99)}", 9, "cjk", "right")
    page.draw_line((60, y + 4), (395, y + 4), width=1.2)
    doc.save(path)
    return path


def test_group_labels_over_letter_spaced_years_name_the_columns(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(_page(tmp_path / "ja.pdf"))).tables
    assert table.columns == ("品目", *(f"{g} {y}" for g in GROUPS for y in YEARS))
    assert len(table.rows) == len(NAMES)
    assert table.rows[1][0].endswith("岡山支店") and table.rows[1][0][:4].isdigit()


def test_a_letter_spaced_year_is_one_value() -> None:
    assert not reads_as_data(["品目", "2 0 2 3", "2 0 2 4"])
    grid = [["", "売上高", ""], ["品目", "2 0 2 3", "2 0 2 4"], ["2607 岡山支店", "89,118.67", "21,042.40"]]
    assert packed_cells(raw_table(grid)) == []
    assert packed_cells(raw_table([["a", "b"], ["x", "1.5 2.5 3.5"], ["y", "1"]])) != []

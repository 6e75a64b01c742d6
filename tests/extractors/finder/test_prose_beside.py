"""A borderless table with running text beside it: the paragraph's lines are no cells of its
rows (finder.running_text), a description column of wrapped cells stays in the table."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page, put, width

ENGLISH = ("The quarterly figures in the table show the regional split of units and revenue, which the "
           "board reviewed at its meeting in March. Sales in the north grew faster than in any other region, "
           "while the west stayed flat for the third quarter in a row. The last row gives the totals of the "
           "year, before tax and extraordinary items, as reported to the shareholders.")
GERMAN = ("Die Tabelle zeigt die Umsätze der Filialen im abgelaufenen Geschäftsjahr, die der Vorstand in "
          "seiner Sitzung im März geprüft hat. Die Filiale Nord ist schneller gewachsen als alle anderen, "
          "während der Westen zum dritten Mal in Folge stagnierte. Die letzte Zeile nennt die Summen vor "
          "Steuern und außerordentlichen Posten, wie sie den Aktionären berichtet wurden.")
JAPANESE = ("この表は地域別の販売数量と売上高を示しています。三月の取締役会で確認されたもので、北部の伸びが最も大きく、"
            "西部は三四半期続けて横ばいでした。最終行は税引前の年間合計であり、株主に報告された数値と一致します。"
            "なお、数量の単位は千個、金額の単位は千円です。")

ROWS = [("Region", "Units", "Revenue"), ("North", "120", "4,300"), ("South", "95", "3,150"),
        ("East", "240", "8,020"), ("West", "61", "1,990"), ("Total", "516", "17,460")]


def _wrap(text: str, limit: float, face: str) -> list[str]:
    """`text` broken into lines no wider than `limit` (at spaces; anywhere in CJK text)."""
    tokens = text.split() if " " in text else list(text)
    glue = " " if " " in text else ""
    lines, cur = [], ""
    for tok in tokens:
        cand = f"{cur}{glue}{tok}" if cur else tok
        if width(cand, 9, face) > limit:
            lines.append(cur)
            cur = tok
        else:
            cur = cand
    return [*lines, cur]


@pytest.mark.parametrize(("prose", "face"), [(ENGLISH, "sans"), (GERMAN, "serif"), (JAPANESE, "cjk")])
@pytest.mark.parametrize("table_left", [True, False])
@pytest.mark.parametrize("measure", [230, 150, 115])  # narrow columns: four to six, two to four words a line, ragged
def test_paragraph_beside_a_borderless_table_stays_out_of_it(tmp_path: Path, prose: str, face: str,
                                                             table_left: bool, measure: float) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    table_x, text_x = (72, 300) if table_left else (340, 72)
    for i, (region, units, revenue) in enumerate(ROWS):
        y = 120 + 14 * i
        put(page, table_x, y, region)
        put(page, table_x + 100, y, units, align="right")
        put(page, table_x + 170, y, revenue, align="right")
    for i, line in enumerate(_wrap(prose, measure, face)):
        put(page, text_x, 106 + 12 * i, line, face=face)
    assert [[tuple(r) for r in g] for g in grids(doc, tmp_path / "beside.pdf")] == [ROWS]


def test_description_column_of_wrapped_cells_stays_in_the_table(tmp_path: Path) -> None:
    """Wrapped descriptions one under the other start at one left edge too, but each cell's
    last line is short: no paragraph."""
    items = [("A-100", "Stainless hex bolt M8 x 40 with a nylon lock nut and two washers", "0.45"),
             ("A-200", "Flange coupling for 40 mm pipes, cast iron, painted, with gasket and bolts", "12.80"),
             ("A-300", "Pipe clamp with rubber insert for pipes from 20 to 25 mm, zinc plated", "1.10"),
             ("A-400", "Threaded rod M10, stainless A2", "3.20")]
    doc = pymupdf.open()
    page = new_page(doc)
    y = 120.0
    put(page, 72, y, "Code")
    put(page, 130, y, "Description")
    put(page, 420, y, "Price", align="right")
    for code, text, price in items:
        y += 14
        put(page, 72, y, code)
        put(page, 420, y, price, align="right")
        for k, line in enumerate(_wrap(text, 200, "sans")):
            put(page, 130, y + 11 * k, line)
        y += 11 * k
    (grid,) = grids(doc, tmp_path / "descriptions.pdf")
    # (continuation lines are rows of their own here: joining them is not this test's matter)
    assert [r[0] for r in grid if r[0]] == ["Code", "A-100", "A-200", "A-300", "A-400"]
    assert " ".join(r[1] for r in grid[1:]) == " ".join(text for _, text, _ in items)


@pytest.mark.parametrize(("prose", "face"), [(ENGLISH, "sans"), (JAPANESE, "cjk")])
def test_paragraphs_right_above_and_below_end_the_table(tmp_path: Path, prose: str, face: str) -> None:
    """Running text a line's pitch above the header and below the last row, across the table's
    width: no line of it becomes a row."""
    doc = pymupdf.open()
    page = new_page(doc)
    y = 100.0
    for line in _wrap(prose, 300, face):
        put(page, 72, y, line, face=face)
        y += 12
    for region, units, revenue in ROWS:
        y += 2
        put(page, 72, y, region)
        put(page, 220, y, units, align="right")
        put(page, 330, y, revenue, align="right")
        y += 12
    for line in _wrap(prose, 300, face):
        put(page, 72, y + 2, line, face=face)
        y += 12
    assert [[tuple(r) for r in g] for g in grids(doc, tmp_path / "around.pdf")] == [ROWS]

"""Two borderless tables of one width stacked with no caption between them (issue 13, dev3
zoo): the second's header row starts right under the first's last row of figures. They share
their outer edges and a column edge by chance, but the second holds fewer cells a row and most
of the first's column edges are its own: two tables (finder/stacked_runs.columns_change)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import grids, new_page, put

FIRST = [("Item", "Class", "Output", "Weight", "Share", "Score"),
         ("Naha office 5668", "Office", "16,356.6", "91,892.9", "29.2%", "322,885"),
         ("Fukuoka shop 7226", "Store", "60,929.64", "38,758.28", "70.7%", "976,455"),
         ("Niigata office 3229", "Centre", "64,522.86", "38,492.0", "85.1%", "979,835"),
         ("Toyama plant 3658", "Shop", "52,074.5", "80,015.6", "93.7%", "856,063"),
         ("Osaka plant 7584", "Store", "12,327.5", "78,703.04", "3.9%", "193,360")]
SECOND = [("Site", "Sales", "Lead time"),
          ("Osaka shop 9585", "500,799", "762,554"),
          ("Morioka shop 1618", "170,493", "140,921"),
          ("Hiroshima store 6754", "299,459", "714,616"),
          ("Nagoya shop 1127", "600,070", "241,028")]


def _rows(page: pymupdf.Page, y: float, rows: list[tuple[str, ...]], lefts: tuple[float, ...],
          rights: tuple[float, ...]) -> float:
    """Rows from `y`: the columns at `lefts` left-aligned, at `rights` right-aligned; the y
    under them."""
    for i, row in enumerate(rows):
        face = "bold" if i == 0 else "sans"
        for text, x in zip(row, lefts, strict=False):
            put(page, x, y, text, 8, face)
        for text, x in zip(row[len(lefts):], rights, strict=True):
            put(page, x, y, text, 8, face, "right")
        y += 16
    return y


def test_a_header_restarting_under_figures_with_fewer_columns_starts_a_table(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 42, 80, "Operating costs by region 2026", 14, "bold")
    y = _rows(page, 120, FIRST, (45, 150), (320, 400, 480, 560))
    _rows(page, y + 6, SECOND, (45,), (400, 560))
    tables = grids(doc, tmp_path / "restart.pdf")
    assert [[tuple(r) for r in t] for t in tables] == [FIRST, SECOND]

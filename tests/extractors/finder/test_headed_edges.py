"""A monospaced table whose left-aligned category column starts closer to the longest name
before it than a word space: no gap of the x projection shows the boundary, the column's shared
left edge under its own header label does (`projection.headed_edges`). The figures, grouped by
spaces ("3 698 077 Ft"), stay whole."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import grids

ITEMS = ["5347 Dunapart iroda", "2997 Nyugati kapu egység", "6386 Szőlőhegy bolt", "1887 Mezőföld sor",
         "2443 Öböl raktár", "6264 Hársfa iroda", "921 Folyópart egység"]
KINDS = ["Bolt", "Sor", "Egység", "Üzem", "Raktár", "Bolt", "Iroda"]
VOLUMES = ["3 698 077 Ft", "2 140 102 Ft", "3 332 284 Ft", "662 119 Ft", "1 877 341 Ft", "5 146 225 Ft",
           "3 107 606 Ft"]
SCORES = ["130 269", "325 893", "990 080", "205 970", "777 760", "841 851", "629 548"]
SIZE, CHAR = 9.0, 5.4  # Courier: every character, a space too, 0.6 em wide


def _put(page: pymupdf.Page, x: float, y: float, text: str, right: bool = False) -> None:
    if right:
        x -= pymupdf.get_text_length(text, fontname="cour", fontsize=SIZE)
    page.insert_text((x, y), text, fontsize=SIZE, fontname="cour")


def _page(gap: float) -> pymupdf.Document:
    """'item | category | volume | score' in Courier; the category column starts `gap` points
    right of the longest item."""
    doc = pymupdf.open()
    page = doc.new_page()
    kind_x = 62 + CHAR * max(len(t) for t in ITEMS) + gap
    y = 120.0
    for x, text, right in ((62, "Tétel", False), (kind_x, "Kategória", False), (330, "Térfogat", True),
                           (400, "Pontszám", True)):
        _put(page, x, y, text, right)
    for item, kind, volume, score in zip(ITEMS, KINDS, VOLUMES, SCORES, strict=True):
        y += 16.25
        _put(page, 62, y, item)
        _put(page, kind_x, y, kind)
        _put(page, 330, y, volume, True)
        _put(page, 400, y, score, True)
    return doc


def test_a_category_column_closer_than_a_space_to_the_longest_item_stays_a_column(tmp_path: Path) -> None:
    (grid,) = grids(_page(3.5), tmp_path / "close.pdf")
    assert grid[0] == ["Tétel", "Kategória", "Térfogat", "Pontszám"]
    assert grid[2] == ["2997 Nyugati kapu egység", "Sor", "2 140 102 Ft", "325 893"]
    assert grid[7] == ["921 Folyópart egység", "Iroda", "3 107 606 Ft", "629 548"]


def test_the_same_table_with_a_wide_gap_reads_the_same(tmp_path: Path) -> None:
    (grid,) = grids(_page(12.0), tmp_path / "wide.pdf")
    assert grid[0] == ["Tétel", "Kategória", "Térfogat", "Pontszám"]
    assert grid[2] == ["2997 Nyugati kapu egység", "Sor", "2 140 102 Ft", "325 893"]

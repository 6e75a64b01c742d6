"""The ruled-grid strategy's rules (finder/ruled_grid.py): a white patch behind one line of
text and a tinted box inside a ruled cell draw no rule; the grid's own lines do."""

from __future__ import annotations

import pymupdf

from rowkeeper.extractors.finder.ruled_grid import drawn_paths
from tests.extractors.finder.layout import new_page, put


def _grid(page: pymupdf.Page, x0: float, y0: float, cols: int, rows: int, w: float, h: float) -> None:
    for i in range(rows + 1):
        page.draw_line((x0, y0 + i * h), (x0 + cols * w, y0 + i * h), width=0.5)
    for j in range(cols + 1):
        page.draw_line((x0 + j * w, y0), (x0 + j * w, y0 + rows * h), width=0.5)


def test_white_patch_and_tinted_box_draw_no_rules() -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    _grid(page, 72, 100, 3, 4, 80, 18)
    page.draw_rect(pymupdf.Rect(150, 300, 260, 314), color=None, fill=(1, 1, 1))  # white, behind a line
    put(page, 152, 311, "Umsatz im Quartal")
    page.draw_rect(pymupdf.Rect(156, 122, 228, 134), color=None, fill=(0.85, 0.85, 0.85))  # inside a cell
    put(page, 158, 131, "Summe")
    kept = [p["rect"] for p in drawn_paths(page)]
    assert pymupdf.Rect(150, 300, 260, 314) not in kept
    assert pymupdf.Rect(156, 122, 228, 134) not in kept
    assert sum(1 for r in kept if r.height < 1 or r.width < 1) == 4 + 1 + 3 + 1

"""The ruled-grid strategy's rules (finder/ruled_grid.py): a white patch behind one line of
text and a tinted box inside a ruled cell draw no rule; the grid's own lines do."""

from __future__ import annotations

import pymupdf

from rowkeeper.extractors.finder.ruled_grid import drawn_paths
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.finder.layout import new_page, put
from tests.extractors.helpers import doc_for


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


SHADE = (0.88, 0.88, 0.88)


def _rule(page: pymupdf.Page, a: tuple[float, float], b: tuple[float, float]) -> None:
    """A rule drawn as word processors draw a cell border: a thin black box per cell side,
    and a small square at each crossing (the joint), so no rule runs past one cell."""
    r = pymupdf.Rect(a[0] - 0.4, a[1] - 0.4, b[0] + 0.4, b[1] + 0.4)
    page.draw_rect(r, color=None, fill=(0, 0, 0))


def _shaded_label_table(page: pymupdf.Page, labels: list[list[str]]) -> None:
    """A ruled table of labels over two rows each (Count / Percentage), the label cells shaded
    and, as word processors draw paragraph shading, a box of the same shade behind each of the
    label's lines: the line boxes end inside the cell, between its rules."""
    x = [72.0, 200.0, 280.0, 360.0]
    h = 14.0
    ys = [100.0 + h * i for i in range(2 + 2 * len(labels))]
    put(page, x[1] + 4, ys[0] + 10, "Measure")
    put(page, x[2] + 4, ys[0] + 10, "Female")
    for n, lines in enumerate(labels):
        y = ys[1 + 2 * n]
        page.draw_rect(pymupdf.Rect(x[0], y, x[1], y + 2 * h), color=None, fill=SHADE)
        for k, line in enumerate(lines):
            top = y + 1.5 + 10.0 * k
            page.draw_rect(pymupdf.Rect(x[0] + 1, top, x[1] - 1, top + 10.0), color=None, fill=SHADE)
            put(page, x[0] + 3, top + 8, line)
        put(page, x[1] + 4, y + 10, "Count")
        put(page, x[2] + 4, y + 10, str(10 + len(lines)))
        put(page, x[1] + 4, y + h + 10, "Percentage")
        put(page, x[2] + 4, y + h + 10, f"{len(lines)}.5%")
    for i, y in enumerate(ys):
        inner = i % 2 == 0 and 0 < i < len(ys) - 1  # a Percentage row's top: no rule under the label
        for a, b in zip(x, x[1:], strict=False):
            if not (inner and a == x[0]):
                _rule(page, (a + 1.2, y), (b - 1.2, y))
    for top, bottom in zip(ys, ys[1:], strict=False):
        for xv in x:
            _rule(page, (xv, top + 1.2), (xv, bottom - 1.2))
    for y in ys:
        for xv in x:
            _rule(page, (xv - 0.6, y - 0.6), (xv + 0.6, y + 0.6))


def test_a_shaded_box_on_a_shade_of_its_own_colour_cuts_no_cell(tmp_path) -> None:
    """A two-line label in a shaded cell stays one cell over its two rows; before, the edge of
    each line's shading box cut it ("Chronic fatigue" / "syndrome") and added a sliver row
    repeating the Percentage row."""
    doc = pymupdf.open()
    page = new_page(doc)
    _shaded_label_table(page, [["Asthma"], ["Chronic fatigue", "syndrome"], ["Substance abuse", "problem"],
                               ["Diabetes"]])
    doc.save(tmp_path / "shaded.pdf")
    with pymupdf.open(tmp_path / "shaded.pdf") as pdf:
        kept = [p["rect"] for p in drawn_paths(pdf[0]) if p.get("fill") and min(p["fill"]) > 0.5]
        assert all(r.width > 120 for r in kept)  # the line boxes went, the cell shading stayed
    tables = PyMuPDFExtractor().extract(doc_for(tmp_path / "shaded.pdf"), [1]).tables
    assert len(tables) == 1
    grid = tables[0].grid()
    assert len(grid) == 1 + 2 * 4
    assert grid[3][:3] == ["Chronic fatigue syndrome", "Count", "12"]
    assert grid[4][1:] == ["Percentage", "2.5%"]
    assert grid[5][:2] == ["Substance abuse problem", "Count"]

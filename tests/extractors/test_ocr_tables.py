"""Geometry of OCR'd text runs into tables: borderless alignment, ruled grids, column mark vote."""

from __future__ import annotations

import cv2
import numpy as np

from rowkeeper.extractors.grid_lines import Grid, GridCell, find_grids, rotate, skew_angle
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_figures import harmonize_marks
from rowkeeper.extractors.ocr_tables import (
    PxCell,
    PxTable,
    aligned_tables,
    columns_from_text,
    footprints,
    ruled_table,
)
from rowkeeper.extractors.scan_lines import text_lines


def _box(text: str, x0: float, y0: float, w: float, h: float = 20) -> OcrBox:
    return OcrBox(text, (x0, y0, x0 + w, y0 + h), 0.99)


def test_header_left_aligned_over_right_aligned_numbers_lands_in_its_column() -> None:
    """Q1 printed at a column's left edge, its numbers at the right edge: one column, not two."""
    boxes = [_box("Revenue by region", 100, 0, 300)]  # a caption above: not part of the table
    y = 40
    for label, q1, q2 in [("Region", "Q1", "Q2"), ("North", "1,200", "1,150"),
                          ("South", "2,340", "2,410"), ("East", "880", "905")]:
        boxes.append(_box(label, 100, y, 60))
        if q1.startswith("Q"):
            boxes += [_box(q1, 250, y, 25), _box(q2, 450, y, 25)]
        else:
            boxes += [_box(q1, 400 - 12 * len(q1), y, 12 * len(q1)), _box(q2, 600 - 12 * len(q2), y, 12 * len(q2))]
        y += 30
    boxes.append(_box("Revenue grew everywhere except the north, see the notes.", 100, y + 40, 500))
    found = aligned_tables(boxes)
    assert len(found) == 1
    table, used = found[0]
    grid = [[""] * table.n_cols for _ in range(table.n_rows)]
    for c in table.cells:
        grid[c.row][c.col] = c.text
    assert grid == [["Region", "Q1", "Q2"], ["North", "1,200", "1,150"],
                    ["South", "2,340", "2,410"], ["East", "880", "905"]]
    rest = [b for j, b in enumerate(boxes) if j not in used]
    assert [t for t, _, _ in text_lines(rest)] == [
        "Revenue by region", "Revenue grew everywhere except the north, see the notes."]


def _col(texts: list[str]) -> PxTable:
    cells = tuple(PxCell(r, 0, 1, 1, t, (0, r * 10, 10, r * 10 + 10)) for r, t in enumerate(texts))
    return PxTable((0, 0, 10, 10 * len(texts)), len(texts), 1, cells, "ruled")


def test_column_vote_settles_thousands_marks() -> None:
    """A minority "9.694" in a column of "12,345"s is a misread comma; mixed columns stay as read."""
    fixed = harmonize_marks(_col(["Price", "12,345", "9.694", "1,000", "33,333", "1,5"]))
    assert [c.text for c in fixed.cells] == ["Price", "12,345", "9,694", "1,000", "33,333", "1,5"]
    german = harmonize_marks(_col(["44,542", "12.345", "1.000", "77.950", "8.869 €"]))
    assert [c.text for c in german.cells] == ["44.542", "12.345", "1.000", "77.950", "8.869 €"]
    mixed = _col(["1,234", "5.678", "9,012", "3.456"])
    assert [c.text for c in harmonize_marks(mixed).cells] == ["1,234", "5.678", "9,012", "3.456"]
    assert harmonize_marks(_col(["12,.433"])).cells[0].text == "12,433"


def _ruled_image(deg: float = 0.0) -> np.ndarray:
    """A 3x3 ruled grid whose middle row's last two cells are merged, drawn at 150 dpi."""
    img = np.full((600, 800), 255, np.uint8)
    xs, ys = [100, 300, 500, 700], [100, 150, 200, 250]
    for y in ys:
        cv2.line(img, (xs[0], y), (xs[-1], y), 0, 2)
    for x in xs:
        for r in range(3):
            if x == 500 and r == 1:
                continue  # no rule between the merged cells
            cv2.line(img, (x, ys[r]), (x, ys[r + 1]), 0, 2)
    return rotate(img, deg)


def test_ruled_grid_with_a_horizontal_span_and_deskew() -> None:
    """Rules found by morphology give a 3x3 grid with a 1x2 span, also after a 1 degree tilt."""
    for deg in (0.0, 1.0):
        img = _ruled_image(deg)
        ink = (img < 128).astype(np.uint8) * 255
        angle = skew_angle(ink)
        assert abs(angle + deg) <= 0.15
        level = rotate(img, angle)
        grids, _ = find_grids((level < 128).astype(np.uint8) * 255, 150 / 72)
        assert len(grids) == 1
        g = grids[0]
        assert (len(g.ys) - 1, len(g.xs) - 1) == (3, 3)
        spans = {(c.row, c.col): (c.row_span, c.col_span) for c in g.cells}
        assert spans[(1, 1)] == (1, 2) and (1, 2) not in spans
        assert len(g.cells) == 8


def test_grid_ruled_only_between_columns_keeps_its_outer_columns() -> None:
    """Row rules running past the outermost column rules (no frame at the sides) bound the
    first and last columns: a 3x3 grid, not the middle column alone."""
    img = np.full((600, 800), 255, np.uint8)
    xs, ys = [100, 300, 500, 700], [100, 150, 200, 250]
    for y in ys:
        cv2.line(img, (xs[0], y), (xs[-1], y), 0, 2)
    for x in xs[1:-1]:
        cv2.line(img, (x, ys[0]), (x, ys[-1]), 0, 2)
    grids, _ = find_grids((img < 128).astype(np.uint8) * 255, 150 / 72)
    assert len(grids) == 1
    g = grids[0]
    assert (len(g.ys) - 1, len(g.xs) - 1) == (3, 3)
    assert abs(g.xs[0] - 100) <= 3 and abs(g.xs[-1] - 700) <= 3
    assert len(g.cells) == 9


def test_rules_between_rows_only_make_no_grid() -> None:
    """Horizontal rules alone (a booktabs table) are left to the borderless reading."""
    img = np.full((600, 800), 255, np.uint8)
    for y in (100, 150, 250):
        cv2.line(img, (100, y), (700, y), 0, 2)
    grids, _ = find_grids((img < 128).astype(np.uint8) * 255, 150 / 72)
    assert grids == []


def test_rows_ruled_label_starting_at_the_neighbours_figures_heads_its_own_column() -> None:
    """Labels left-aligned in their cells, figures right-aligned: the last label starts two pixels
    before the end of the figures to its left. The column edge goes before it, not through it."""
    ys = (0, 40, 80, 120, 160)
    frame = Grid(ys, (0, 700), tuple(GridCell(r, 0, 1, 1, (0, ys[r], 700, ys[r + 1])) for r in range(4)))
    boxes = [_box("Item", 10, 10, 80), _box("Quantity", 300, 10, 170), _box("Amount", 478, 10, 80)]
    for r, (item, qty, amount) in enumerate([("Desk", "205", "186 318 350"), ("Chair", "203", "601 582 177"),
                                             ("Lamp", "28", "109 892 300")]):
        y = ys[r + 1] + 10
        boxes += [_box(item, 10, y, 90), _box(qty, 480 - 12 * len(qty), y, 12 * len(qty)),
                  _box(amount, 690 - 8 * len(amount), y, 8 * len(amount))]
    table, _, _ = ruled_table(columns_from_text(frame, boxes), boxes)
    grid = [[""] * table.n_cols for _ in range(table.n_rows)]
    for c in table.cells:
        grid[c.row][c.col] = c.text
    assert grid[0] == ["Item", "Quantity", "Amount"]
    assert grid[1] == ["Desk", "205", "186 318 350"]


def test_a_word_read_a_little_wide_into_a_tight_gap_parts_no_columns() -> None:
    """A stub of long keys set tight against a column of labels: the other rows leave 20 px and
    more between them, one label's box starts 6 px after its key (read a little wide). It is no
    column's join; the stub and the labels stay two columns (base: one footprint, the keys' wide
    words taken first and none of them parting it)."""
    keys = ["Northbridge depot 1212", "Westminster hall 345", "Riverside mill 2640", "Greenfield yard 854",
            "Lighthouse quay 786", "Marketplace row 37", "Kingsbridge shop 23", "Stonehenge lab 4799"]
    labels = ["Unit", "Unit", "Office", "Mill", "Depot", "Office", "Office", "Office"]
    boxes = []
    for r, (key, label) in enumerate(zip(keys, labels, strict=True)):
        y = 40.0 * r
        pitch = 13.5  # the longest key (22 characters) ends at 397
        words, x = [], 100.0
        for w in key.split():
            words.append((w, x, x + pitch * len(w)))
            x += pitch * (len(w) + 1)
        boxes.append(OcrBox(key, (100.0, y, words[-1][2], y + 30), 0.9, tuple(words)))
        x0 = 404.0 if r == 2 else 418.0
        boxes.append(OcrBox(label, (x0, y, 476.0, y + 30), 0.9, ((label, x0, 476.0),)))
    assert [(round(a), round(b)) for a, b in footprints(boxes, 14.0, crossing=1)] == [(100, 397), (418, 476)]

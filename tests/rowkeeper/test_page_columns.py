"""The text columns of a page (`rowkeeper.page_columns`), from text line boxes."""

from __future__ import annotations

from rowkeeper.page_columns import PageColumns, across_gutters, text_columns
from tests.transforms.builders import line

PROSE = "The figures below cover the period and w"  # 40 characters: 240 points wide
LEFT, RIGHT = 50.0, 310.0


def _prose(x0: float, top: float, n: int, pitch: float = 12.0) -> list:
    return [line(PROSE, 1, top + pitch * i, x0=x0) for i in range(n)]


def test_one_column_page_is_one_box() -> None:
    lines = [line(PROSE + PROSE[:30], 1, 100 + 12 * i) for i in range(20)]
    columns = text_columns(lines)
    assert columns.gutters == () and len(columns.boxes) == 1 and not columns.multi


def test_two_columns_read_left_then_right() -> None:
    lines = _prose(LEFT, 100, 20) + _prose(RIGHT, 100, 20)
    columns = text_columns(lines)
    assert len(columns.gutters) == 1 and 290 <= columns.gutters[0] <= 310
    left, right = columns.boxes
    assert columns.index((LEFT, 300.0, 200.0, 310.0)) == 0
    assert columns.index((RIGHT, 110.0, 400.0, 120.0)) == 1
    # the right column's top line comes after the left column's last one
    assert columns.position((RIGHT, 100.0, 500.0, 110.0), 842.0) > columns.position((LEFT, 328.0, 200.0, 340.0), 842.0)


def test_title_across_the_columns_is_a_band_of_its_own() -> None:
    title = line("Annual report of the cooperative 2026, all regions", 1, 50, size=18)  # 300 points
    columns = text_columns([title, *_prose(LEFT, 100, 20), *_prose(RIGHT, 100, 20)])
    assert len(columns.boxes) == 3
    assert columns.index(title.bbox) == 0 and columns.index((RIGHT, 150.0, 500.0, 160.0)) == 2


def test_full_width_table_under_two_columns_is_one_band() -> None:
    lines = _prose(LEFT, 100, 15) + _prose(RIGHT, 100, 15)
    xs = (LEFT, 130.0, 210.0, RIGHT, 390.0, 470.0)  # a gap between cells where the gutter runs
    lines += [line(f"{k}{j}00", 1, 300 + 14 * k, x0=x) for k in range(6) for j, x in enumerate(xs)]
    lines += _prose(LEFT, 400, 10) + _prose(RIGHT, 400, 10)
    columns = text_columns(lines)
    assert len(columns.boxes) == 5  # left, right; the table across; left, right
    table = columns.boxes[2]
    assert table[0] == LEFT and table[2] > 500 and table[1] <= 300 < 370 <= table[3]


def _overhang(right_edge: float, under_right: bool) -> tuple[list, list]:
    """Two columns of prose, the right one ending above a table that starts in the left column
    and runs over the gutter to `right_edge`, then the left column's prose under it (and, with
    `under_right`, the right column's); returns (lines, the table's cells)."""
    lines = _prose(LEFT, 100, 15) + _prose(RIGHT, 100, 8)
    xs = [LEFT + (right_edge - 40 - LEFT) * j / 4 for j in range(5)]
    cells = [line(f"{k}{j}00", 1, 300 + 14 * k, x0=x) for k in range(6) for j, x in enumerate(xs)]
    lines += cells + _prose(LEFT, 400, 10) + (_prose(RIGHT, 400, 10) if under_right else [])
    return lines, cells


def test_a_table_over_the_gutter_under_the_left_column_is_read_in_the_left_column() -> None:
    # the table reaches a little into the right column, which ended above it: the left column
    # reads on through the table and under it, then the right column's text from its top
    lines, cells = _overhang(380.0, False)
    columns = text_columns(lines)
    assert len(columns.boxes) == 5
    table, under, right = (columns.index(cells[0].bbox), columns.index((LEFT, 420.0, 200.0, 430.0)),
                           columns.index((RIGHT, 110.0, 500.0, 120.0)))
    assert columns.index((LEFT, 110.0, 200.0, 120.0)) == 0 and table == 1 and under == 2 and right == 3


def test_a_table_over_most_of_the_page_or_with_text_beside_stays_a_band_of_its_own() -> None:
    # a table reaching past the right column's middle, or the right column's text going on
    # under it: a full-width band, read after both columns over it
    for right_edge, under_right in ((520.0, False), (380.0, True)):
        lines, cells = _overhang(right_edge, under_right)
        columns = text_columns(lines)
        assert columns.index((RIGHT, 110.0, 500.0, 120.0)) == 1
        assert columns.index(cells[0].bbox) == 2


def test_form_labels_beside_their_long_values_are_no_columns() -> None:
    lines = []
    for i in range(8):
        lines.append(line("Applicant", 1, 100 + 14 * i, x0=LEFT))
        lines.append(line("the name and address of the firm applying", 1, 100 + 14 * i, x0=200))
    assert not text_columns(lines).multi


def test_table_beside_running_text_of_the_next_column() -> None:
    cells = [line(t, 1, 100 + 10.9 * k, x0=x) for k in range(12)
             for t, x in ((f"Region {k}", LEFT), (f"{1000 + k}", 150.0), (f"{90 + k}.5", 220.0))]
    columns = text_columns(cells + _prose(RIGHT, 96, 14, pitch=10.0))
    assert len(columns.gutters) == 1 and 250 < columns.gutters[0] < RIGHT
    assert columns.box_of(cells[0]) != columns.box_of(line(PROSE, 1, 100, x0=RIGHT))


def test_halves_of_a_table_level_across_a_gutter_in_a_full_width_band_are_joined() -> None:
    columns = PageColumns(boxes=((50, 50, 296, 280), (296, 50, 542, 280), (50, 280, 542, 400)), gutters=(296.0,))
    left, right = (50, 287, 235, 378), (307, 287, 499, 378)
    assert across_gutters([left, right], columns) == [(50, 287, 499, 378)]


def test_tables_level_in_two_columns_stay_apart() -> None:
    """Two tables side by side in the columns of one band: no band runs across the gutter there."""
    columns = PageColumns(boxes=((50, 50, 296, 400), (296, 50, 542, 400)), gutters=(296.0,))
    left, right = (50, 287, 235, 378), (307, 287, 499, 378)
    assert across_gutters([left, right], columns) == [left, right]


def test_regions_not_level_stay_apart() -> None:
    columns = PageColumns(boxes=((50, 280, 542, 400),), gutters=(296.0,))
    assert len(across_gutters([(50, 287, 235, 378), (307, 300, 499, 390)], columns)) == 2

"""A candidate around a stronger one (finder/shared_cells.py): it gives the stronger one's cells
up, goes when what is left is no table (prose beside the table), stays whole in the stronger
one's place when what is left is more columns of the same rows, and keeps its own rows when it
read another table under it; a table nested in a stronger box keeps its cells."""

from __future__ import annotations

from rowkeeper.extractors.finder.shared_cells import nested_first, own_parts
from rowkeeper.models import Cell, RawTable

PITCH = 14.0


def _table(pid: str, rows: list[list[str]], xs: list[float], top: float = 100.0) -> RawTable:
    """A piece whose cell k of row r spans xs[k]..xs[k+1] at row r's height."""
    cells = tuple(Cell(row=r, col=k, text=t, bbox=(xs[k], top + PITCH * r, xs[k + 1], top + PITCH * (r + 1)))
                  for r, row in enumerate(rows) for k, t in enumerate(row))
    return RawTable(piece_id=pid, doc_id="d", page=1, n_rows=len(rows), n_cols=len(xs) - 1, cells=cells,
                    bbox=(xs[0], top, xs[-1], top + PITCH * len(rows)), extractor="t", extractor_version="0")


FIGURES = [["Age", "Enrollment", "%"], ["14-17", "231,000", "1.3"], ["18-19", "3,769,000", "21.2"],
           ["20-21", "3,648,000", "20.5"], ["Total", "17,758,000", "100"]]
RIGHT = [400.0, 450.0, 510.0, 545.0]


def _grid(tables: list[RawTable]) -> list[list[list[str]]]:
    return [t.grid() for t in tables]


def test_a_table_read_again_with_the_prose_beside_it_goes() -> None:
    prose = ["The majority of the enrolled students in the fall", "larger colleges and universities.",
             "enrollment levels of 10,000 students or more", "percent of the institutions; however,",
             "all college students. By comparison, 41 percent"]
    strong = _table("p1.1", FIGURES, RIGHT)
    wide = _table("p1.2", [[p, *row] for p, row in zip(prose, FIGURES, strict=True)], [72.0, *RIGHT])
    assert _grid(own_parts([strong, wide])) == [FIGURES]


def test_more_columns_of_the_same_rows_replace_the_partial_reading() -> None:
    """A ruled grid over two year columns of a table whose labels and third year stand
    outside its rules: the whole table read from the text stays, the part goes."""
    whole = [["", "2000", "2002", "2004"], ["Upper secondary", "15 455", "13 951", "12 068"],
             ["Polytechnics", "20 527", "20 922", "22 083"], ["Universities", "8 100", "8 700", "9 050"]]
    part = _table("p1.1", [r[1:3] for r in whole], [300.0, 350.0, 400.0])
    full = _table("p1.2", whole, [72.0, 300.0, 350.0, 400.0, 450.0])
    assert _grid(own_parts([part, full])) == [whole]


def test_a_table_read_with_the_one_under_it_keeps_its_own_rows() -> None:
    below = [["Region", "Sales", "Share"], ["North", "1,204", "31%"], ["South", "2,010", "52%"],
             ["West", "650", "17%"]]
    strong = _table("p1.1", FIGURES, RIGHT)
    both = _table("p1.2", FIGURES + below, RIGHT)
    kept = own_parts([strong, both])
    assert _grid(kept) == [FIGURES, below]


def test_a_table_nested_in_a_stronger_box_keeps_its_cells() -> None:
    outer = _table("p1.1", [["Terms", "Rates"], ["Cover", "see the table below"]] + [["", ""]] * 6
                   + [["Notes", "none"]], [60.0, 200.0, 560.0])
    inner = _table("p1.2", FIGURES, RIGHT, top=130.0)
    assert [t.piece_id for t in own_parts([outer, inner])] == ["p1.1", "p1.2"]
    assert own_parts([outer, inner])[1].grid() == FIGURES


def test_a_ruled_band_of_a_tables_rows_goes_and_the_table_keeps_them() -> None:
    """Rows 1-2 of a table boxed apart (highlighted rows): the ruled reading of them holds
    nothing the whole table's reading does not, so it is part of that table, not a table."""
    band = _table("p1.1", FIGURES[1:3], RIGHT, top=100.0 + PITCH)
    whole = _table("p1.2", FIGURES, RIGHT)
    assert _grid(own_parts([band, whole])) == [FIGURES]


def test_a_band_read_with_its_columns_split_elsewhere_is_still_a_band() -> None:
    """The ruled reading of rows 1-2 sets the column edge elsewhere (the label and the first
    figure in one cell): the same rows' text all the same, so still a band of the table."""
    band_rows = [[r[0] + " " + r[1], r[2]] for r in FIGURES[1:3]]
    band = _table("p1.1", band_rows, [400.0, 510.0, 545.0], top=100.0 + PITCH)
    whole = _table("p1.2", FIGURES, RIGHT)
    assert _grid(own_parts([band, whole])) == [FIGURES]


def test_rows_running_on_under_a_ruled_part_keep_the_table_whole() -> None:
    """A ruled grid over the header and first rows of a table whose last rows run on without
    rules: what is left starts on values, so it is the same table's rows, not a table."""
    more = [["22-24", "2,505,000", "14.1"], ["25-29", "2,141,000", "12.1"], ["30+", "5,464,000", "30.8"]]
    strong = _table("p1.1", FIGURES[:4], RIGHT)
    whole = _table("p1.2", FIGURES[:4] + more + FIGURES[4:], RIGHT)
    assert _grid(own_parts([strong, whole])) == [FIGURES[:4] + more + FIGURES[4:]]


def test_figures_read_again_in_cells_wider_than_the_stronger_box_are_given_up() -> None:
    """A text reading across a ruled table and the chart labels beside it: its column of the
    table's figures is cut wider than the ruled box (up to the chart's labels), so the cells'
    centres fall outside it, but each reads the figure of a stronger cell it overlaps. Those
    cells go with the table's labels, and the chart's labels alone are no table."""
    strong = _table("p1.1", FIGURES, RIGHT)
    chart = ["Enrollment by age", "14-17", "18-19", "20-21", "Total"]
    wide = _table("p1.2", [[*row[:2], lab] for row, lab in zip(FIGURES, chart, strict=True)],
                  [400.0, 450.0, 660.0, 760.0])
    assert _grid(own_parts([strong, wide])) == [FIGURES]


def test_a_frame_around_read_tables_goes_when_nothing_of_its_own_is_left() -> None:
    """One layer's reading of a figure drawn in a frame around two framed panels (OCR of a
    scanned page): the frame's cells hold the panels' words again; read smaller first, the
    frame gives them up, keeps one column of axis labels, and goes."""
    left = _table("p1.2", FIGURES, [100.0, 150.0, 210.0, 245.0], top=110.0)
    right = _table("p1.3", FIGURES, RIGHT, top=110.0)
    cells = tuple(Cell(row=r, col=k, text=t, bbox=box) for r, k, t, box in [
        (0, 0, "2.4-", (60.0, 100.0, 95.0, 150.0)), (0, 1, "Age Enrollment % 14-17 231,000", (96.0, 100.0, 250.0, 190.0)),
        (0, 2, "Age Enrollment %", (390.0, 100.0, 550.0, 190.0)), (1, 0, "1.8-", (60.0, 150.0, 95.0, 190.0))])
    frame = RawTable(piece_id="p1.1", doc_id="d", page=1, n_rows=2, n_cols=3, cells=cells,
                     bbox=(60.0, 100.0, 550.0, 190.0), extractor="t", extractor_version="0")
    assert [t.piece_id for t in nested_first([frame, left, right])] == ["p1.2", "p1.3"]

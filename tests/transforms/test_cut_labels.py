"""A label's number cut off by a column edge joins the label only over figure columns
(transforms/cut_phrases.join_cut_labels, pieces with boxes and the page's printed line): a
form's name and house number (`Oak Hill` | `60`) stay as read."""

from __future__ import annotations

from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.cut_phrases import join_cut_labels

EDGES = (70.0, 120.0, 170.0, 220.0, 270.0)


def _piece(grid: list[list[str]]) -> RawTable:
    cells = tuple(Cell(row=r, col=c, text=x, bbox=(EDGES[c], 100 + 12 * r, EDGES[c + 1], 110 + 12 * r))
                  for r, row in enumerate(grid) for c, x in enumerate(row) if x)
    return RawTable(piece_id="p", doc_id="d", page=1, bbox=(70, 100, 270, 100 + 12 * len(grid)),
                    n_rows=len(grid), n_cols=len(grid[0]), cells=cells, extractor="test", extractor_version="0")


LINE = (TextLine(page=1, bbox=(135, 100, 190, 110), text="Study Day 7"),)


def test_a_labels_number_over_figure_columns_joins_the_label() -> None:
    grid = [["", "Study Day", "7", ""], ["Dose", "Weight", "Change", "No."],
            ["0", "5.8", "100", "39"], ["250", "5.9", "102", "30"], ["500", "6.0", "103", "33"]]
    got = join_cut_labels(_piece(grid), LINE)
    assert got.grid()[0] == ["", "Study Day 7", "", ""]
    assert next(c.col_span for c in got.cells if c.text == "Study Day 7") == 2


def test_a_name_and_its_number_in_a_form_stay_apart() -> None:
    grid = [["Valid until", "Study Day", "7", "Address"], ["Quote no.", "Oak Hill", "", "Contact"],
            ["Customer", "", "Phone", "Project"], ["Date", "643-4231", "", "Pine Valley"]]
    assert join_cut_labels(_piece(grid), LINE).grid() == grid

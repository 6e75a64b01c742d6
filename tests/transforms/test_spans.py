"""Merged cells and hollow columns (issue 3 item 3)."""

from __future__ import annotations

from rowkeeper.config import TransformConfig
from rowkeeper.models import Cell
from rowkeeper.transforms.assemble import assemble_tables
from rowkeeper.transforms.spans import drop_cell_columns, expand_spans, hollow_columns
from tests.transforms.builders import pages, raw_table


def test_spans_repeat_text_into_every_covered_slot() -> None:
    cells = [Cell(row=0, col=0, row_span=2, col_span=2, text="Group"), Cell(row=0, col=2, text="a"),
             Cell(row=1, col=2, text="b")]
    assert expand_spans(cells, 2, 3) == [["Group", "Group", "a"], ["Group", "Group", "b"]]


def test_hollow_columns_are_slivers_without_content() -> None:
    header = [["Substance", "Substance", "", "Frequency", "Frequency"],
              ["", "", "", "last month", ""]]
    body = [["Cannabis", "", "", "9.6%", ""], ["Heroin", "", "", "0.5%", ""]]
    assert hollow_columns(header, body) == [1, 2, 4]


def test_label_split_over_two_slots_keeps_the_slot_with_values() -> None:
    header = [["Substance", "More than", "Never", "Never"]]
    body = [["Cannabis", "6.3%", "", "80.1%"]]
    assert hollow_columns(header, body) == [2]


def test_a_named_empty_column_is_kept() -> None:
    assert hollow_columns([["Name", "Remarks"]], [["a", ""], ["b", ""]]) == []


def test_dropping_columns_renumbers_cells_and_shrinks_spans() -> None:
    cells = [Cell(row=0, col=0, col_span=3, text="Head"), Cell(row=1, col=2, text="x")]
    out = drop_cell_columns(cells, [1])
    assert [(c.col, c.col_span, c.text) for c in out] == [(0, 2, "Head"), (1, 1, "x")]


def test_assembled_table_without_sliver_columns() -> None:
    grid = [["Substance", "", "Share"], ["Cannabis", "", "9.6%"], ["Heroin", "", "0.5%"]]
    (t,) = assemble_tables("d" * 64, "x.pdf", [raw_table(grid)], [], pages(1), TransformConfig())
    assert t.columns == ("Substance", "Share")
    assert t.rows == (("Cannabis", "9.6%"), ("Heroin", "0.5%"))
    assert t.column_types == ("text", "percent")
    assert max(c.col for c in t.cells) == 1


def test_packed_body_row_is_split_by_its_text_lines() -> None:
    from tests.transforms.builders import line

    grid = [["Country", "Fund", "Total"], ["Bulgaria Cyprus Malta", "2.3 0.21 0.28", "5.5 0.21 0.72"]]
    piece = raw_table(grid, top=100, row_h=20).model_copy()
    # the packed row's cells are 20pt high in the builder; make the row tall enough for 3 lines
    cells = tuple(c.model_copy(update={"bbox": (c.bbox[0], 120, c.bbox[2], 170)}) if c.row == 1 else c
                  for c in piece.cells)
    piece = piece.model_copy(update={"cells": cells, "bbox": (50, 100, 545, 170)})
    xs = [60.0, 225.0, 390.0]
    lines = [line(t, 1, 122 + 15 * i, size=9, x0=xs[k])
             for k, col in enumerate(["Bulgaria Cyprus Malta".split(), ["2.3", "0.21", "0.28"],
                                      ["5.5", "0.21", "0.72"]]) for i, t in enumerate(col)]
    (t,) = assemble_tables("d" * 64, "x.pdf", [piece], lines, pages(1), TransformConfig())
    assert t.rows == (("Bulgaria", "2.3", "5.5"), ("Cyprus", "0.21", "0.21"), ("Malta", "0.28", "0.72"))
    assert t.column_types == ("text", "decimal", "decimal")


def test_row_packed_into_one_spanning_cell_is_cut_at_the_column_edges() -> None:
    from tests.transforms.builders import line

    grid = [["Country", "Unit", "Size", "Pos"], ["Austria Single 109 0.9", "", "", ""],
             ["Germany", "Single", "123", "0.8"]]
    piece = raw_table(grid, top=100, row_h=20, spans=[(1, 0, 1, 4)])
    cw = 495 / 4
    lines = [line(t, 1, 123, size=9, x0=55 + k * cw) for k, t in enumerate(["Austria", "Single", "109", "0.9"])]
    (t,) = assemble_tables("d" * 64, "x.pdf", [piece], lines, pages(1), TransformConfig())
    assert t.rows == (("Austria", "Single", "109", "0.9"), ("Germany", "Single", "123", "0.8"))


def test_body_spans_over_slivers_fold_with_the_header_labels_beside_them() -> None:
    # columns cut at every word edge: body cells span 3 slivers, the centred labels sit one
    # sliver right of the body text they name
    header = ["", "Category", "", "", "Description", ""]
    body = [["1", "", "", "Early involvement", "", ""], ["2", "", "", "Late involvement", "", ""]]
    piece = raw_table([header, *body], header_rows=1,
                      spans=[(1, 0, 1, 3), (1, 3, 1, 3), (2, 0, 1, 3), (2, 3, 1, 3)])
    (t,) = assemble_tables("d" * 64, "x.pdf", [piece], [], pages(1), TransformConfig())
    assert t.columns == ("Category", "Description")
    assert t.header_grid == (("Category", "Description"),)
    assert t.rows == (("1", "Early involvement"), ("2", "Late involvement"))
    assert {(c.row, c.col, c.text) for c in t.cells if c.text} == {
        (0, 0, "Category"), (0, 1, "Description"), (1, 0, "1"), (1, 1, "Early involvement"),
        (2, 0, "2"), (2, 1, "Late involvement")}


def test_a_debit_credit_pair_that_never_shares_a_row_is_kept() -> None:
    header = ["Item", "Debit", "Credit"]
    body = [["Rent", "1,200", ""], ["Refund", "", "300"], ["Fees", "45", ""]]
    (t,) = assemble_tables("d" * 64, "x.pdf", [raw_table([header, *body], header_rows=1)], [],
                           pages(1), TransformConfig())
    assert t.columns == tuple(header)
    assert t.rows == tuple(tuple(r) for r in body)


def test_centred_total_row_over_slivers_folds_like_the_header() -> None:
    # the header and a centred 'Total' row sit one sliver right of the body cells' start
    header = ["", "Age", "", "Enrollment", ""]
    total = ["", "Total", "", "17,758,000", ""]
    body = [["14-17", "", "231,000", "", ""], ["18-19", "", "3,769,000", "", ""]]
    piece = raw_table([header, *body, total], header_rows=1,
                      spans=[(1, 0, 1, 2), (1, 2, 1, 3), (2, 0, 1, 2), (2, 2, 1, 3)])
    (t,) = assemble_tables("d" * 64, "x.pdf", [piece], [], pages(1), TransformConfig())
    assert t.columns == ("Age", "Enrollment")
    assert t.rows == (("14-17", "231,000"), ("18-19", "3,769,000"), ("Total", "17,758,000"))

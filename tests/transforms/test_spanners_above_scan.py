"""Group labels over a scanned table's sub-columns (transforms/spanner_above.py): OCR gives each
label's ink box, a capital's height, and a slight skew sets the labels of one row at
different heights."""

from __future__ import annotations

from rowkeeper.models import RawTable, TextLine
from rowkeeper.transforms.merge import piece_grid
from rowkeeper.transforms.spanner_above import take_spanners_above
from tests.transforms.builders import X0, raw_table

SUBS = ["HU-EN", "EN-DE", "EN-VI"]
GROUPS = ["TER", "BLEU", "COMET"]


STUB, SUB = 150.0, 40.0


def _wide_stub(piece: RawTable) -> RawTable:
    """The piece with a stub column STUB wide and sub-columns SUB wide."""
    def x(col: int) -> float:
        return X0 if col == 0 else X0 + STUB + SUB * (col - 1)

    cells = tuple(c.model_copy(update={"bbox": (x(c.col), c.bbox[1], x(c.col + c.col_span), c.bbox[3])})
                  for c in piece.cells)
    return piece.model_copy(update={"cells": cells, "bbox": (X0, piece.bbox[1], x(piece.n_cols), piece.bbox[3])})


def test_group_labels_read_from_a_skewed_scan_head_their_sub_columns() -> None:
    """Three labels, each centred over three sub-columns, 7 pt tall (their ink), 11-14 pt over
    the table's top (the detector's box of the sub-column labels): all three one header row."""
    grid = [["Item", *SUBS * 3], *[[f"Site {i}", *[f"{i}{k},5" for k in range(9)]] for i in range(5)]]
    piece = _wide_stub(raw_table(grid, top=207.0))
    lines = []
    for g, (label, bottom) in enumerate(zip(GROUPS, (193.2, 194.7, 196.1), strict=True)):
        mid = X0 + STUB + SUB * (1.5 + 3 * g)
        lines.append(TextLine(page=1, bbox=(mid - 10, bottom - 7.2, mid + 10, bottom), text=label, font_size=6.9))
    grown = take_spanners_above(piece, lines)
    head = piece_grid(grown)[0]
    assert head == ["", *[g for g in GROUPS for _ in SUBS]]

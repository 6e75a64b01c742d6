"""Cells merged down over rows of a table ruled between its rows under some columns only, on a
scan (ocr_merged.merged_cells over the rule mask's pieces)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput
from samples.pdfgen import scanned_twin

pytest.importorskip("rapidocr")

HEADER = ["Site", "Group", "Item", "Amount"]
GROUPS = [("Dental care", ["braces", "filling", "crown"]), ("Cleaning", ["waste removal", "windows", "floors"])]
AMOUNTS = ["128 302", "64 919", "801 388", "267 640", "784 170", "433 671"]
SITE = "Northfield plant 6813"


def _merged_page(path: Path) -> DocumentInput:
    """A site printed once (level with the second row) beside its two groups, each group once beside its items; rules under
    each item across the item and amount columns, under each group from the group column on."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    xs, size, pitch = (60, 200, 290, 430), 9.5, 19.0
    page.insert_text((60, 80), "Operating costs by site", fontsize=14)
    page.draw_line((60, 100), (480, 100), width=1.0)
    for x, label in zip(xs, HEADER, strict=True):
        page.insert_text((x, 114), label, fontsize=size, fontname="hebo")
    page.draw_line((60, 120), (480, 120), width=0.8)
    y, k = 120.0, 0
    for group, items in GROUPS:
        top = y
        for item in items:
            page.insert_text((xs[2], y + 13), item, fontsize=size)
            page.insert_text((xs[3], y + 13), AMOUNTS[k], fontsize=size)
            y += pitch
            k += 1
            page.draw_line((xs[2] - 4, y), (480, y), width=0.5)
        page.insert_text((xs[1], (top + y) / 2 + 4), group, fontsize=size)
        page.draw_line((xs[1] - 4, y), (480, y), width=0.5)
    page.insert_text((xs[0], 120 + pitch + 13), SITE, fontsize=size)  # level with the second row
    page.draw_line((60, y), (480, y), width=1.0)
    page.insert_text((60, y + 30), "Amounts are rounded.", fontsize=size)
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.3, seed=4))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def test_cells_merged_down_span_the_rows_their_rules_leave_open(tmp_path: Path) -> None:
    """The site spans all six rows, each group its items' rows (base: each text in the one row
    where it is printed, the other rows blank)."""
    tables = OcrExtractor(OcrOptions()).extract(_merged_page(tmp_path / "m.pdf"), [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    t = tables[0]
    spans = {(c.text, c.row, c.row_span) for c in t.cells if c.col in (0, 1) and c.row > 0}
    assert spans == {(SITE, 1, 6), ("Dental care", 1, 3), ("Cleaning", 4, 3)}, t.grid()
    assert [r[3] for r in t.grid()[1:]] == AMOUNTS


def test_a_merged_label_of_two_words_in_a_sparse_column_stays_one_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group column holds two labels, each printed once: only "Outpatient care" reads its
    second word where no other label stands, one row of a word space the detector reads inside
    a run and no run starts at. It is no column: the group spans its rows (base: "Outpatient" |
    "care" over two columns, the merged cells left unread)."""
    groups = [("Outpatient care", ["diagnostics", "medication", "therapy"]), ("Maternity", ["delivery", "prenatal care", "surgery"])]
    monkeypatch.setattr(__name__ + ".GROUPS", groups)
    tables = OcrExtractor(OcrOptions()).extract(_merged_page(tmp_path / "m.pdf"), [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    t = tables[0]
    assert t.grid()[0] == HEADER, t.grid()
    spans = {(c.text, c.row, c.row_span) for c in t.cells if c.col == 1 and c.row > 0}
    assert spans == {("Outpatient care", 1, 3), ("Maternity", 4, 3)}, t.grid()
    assert [r[3] for r in t.grid()[1:]] == AMOUNTS

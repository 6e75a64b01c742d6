"""Group labels centred over sub-columns on a scanned page (extractors/scan_group_labels.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.scan_group_labels import centre_column, over_sub_labels
from samples.pdfgen import scanned_twin

GROUPS = ("Weight", "Lead time", "Power")
QUARTERS = ("Q1", "Q2", "Q3", "Q4")


def _spanner_page(groups: tuple[str, ...] = GROUPS, subs: tuple[str, ...] = QUARTERS) -> bytes:
    """A borderless table, its group labels centred over four sub-columns each (a stub, then
    figures right-aligned), under a heading, drawn with PyMuPDF."""
    rng = random.Random(7)
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((40, 60), "1. Quarterly figures", fontsize=13, fontname="hebo")
    x0, stub, pitch, size = 40, 100, 38, 8
    page.insert_text((x0, 100), "Table 1 Quarterly figures per site", fontsize=10, fontname="hebo")
    for g, label in enumerate(groups):
        left = x0 + stub + g * len(subs) * pitch
        w = pymupdf.get_text_length(label, fontname="hebo", fontsize=size)
        page.insert_text((left + len(subs) * pitch / 2 - w / 2, 125), label, fontsize=size, fontname="hebo")
    page.insert_text((x0, 140), "Item", fontsize=size, fontname="hebo")
    for k in range(len(groups) * len(subs)):
        w = pymupdf.get_text_length(subs[k % len(subs)], fontname="hebo", fontsize=size)
        page.insert_text((x0 + stub + (k + 1) * pitch - 4 - w, 140), subs[k % len(subs)], fontsize=size, fontname="hebo")
    for r, site in enumerate(("Maple Court", "Millbrook", "North Ridge", "Cedar Park", "Redwood", "Harbor View")):
        y = 158 + r * 15
        page.insert_text((x0, y), site, fontsize=size, fontname="helv")
        for k in range(len(groups) * len(subs)):
            text = f"{rng.randint(10, 99)},{rng.randint(100, 999)}"
            w = pymupdf.get_text_length(text, fontname="helv", fontsize=size)
            page.insert_text((x0 + stub + (k + 1) * pitch - 4 - w, y), text, fontsize=size, fontname="helv")
    return doc.tobytes()


def test_a_group_label_over_four_sub_columns_heads_all_four(tmp_path: Path) -> None:
    """Centred over four sub-columns, a label stands on the gap between the middle two and its
    words on both ("Lead" | "time"): each label heads its own four quarters, the stub none."""
    pytest.importorskip("rapidocr")
    from rowkeeper.flows.pipeline import load_document, process_document

    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(_spanner_page(), dpi=200, noise=0.02, rotate_deg=0.3, seed=3))
    tables = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out"))).tables
    assert len(tables) == 1
    assert tables[0].columns == ("Item", *(f"{g} {q}" for g in GROUPS for q in QUARTERS))


def _box(text: str, x0: float, x1: float, y: float = 0.0) -> OcrBox:
    words = text.split()
    step = (x1 - x0) / len(words)
    return OcrBox(text, (x0, y, x1, y + 30), 0.9,
                  tuple((w, x0 + i * step, x0 + (i + 1) * step - 8) for i, w in enumerate(words)))


COLS = [(0.0, 100.0), *((150.0 + 60 * k, 190.0 + 60 * k) for k in range(8))]


def test_a_row_of_labels_over_a_row_naming_every_column_is_group_labels() -> None:
    """Two labels, each centred over four sub-columns (on the gap between the middle two), over
    a row naming every column: group labels, each placed in a column of its own."""
    band = [_box("Lead time", 215, 305), _box("Power", 460, 540)]
    below = [_box("Item", 0, 60, 40), *(_box(f"Q{k % 4 + 1}", 165 + 60 * k, 190 + 60 * k, 40) for k in range(8))]
    assert over_sub_labels(band, below, COLS)
    assert [centre_column(b, COLS) for b in band] == [2, 6]


def test_labels_over_figures_or_over_each_column_are_no_group_labels() -> None:
    """A header naming every column over the body's figures, or a wrapped header's first line
    (one label over each column) over its second: no group labels."""
    wide = [_box("Lead time", 215, 305)]
    figures = [_box("Maple", 0, 60, 40), *(_box(f"{k},120", 150 + 60 * k, 190 + 60 * k, 40) for k in range(8))]
    assert not over_sub_labels(wide, figures, COLS)
    first = [_box("Item", 0, 60), *(_box("Cost", 150 + 60 * k, 190 + 60 * k) for k in range(8))]
    units = [_box("(EUR)", 150 + 60 * k, 190 + 60 * k, 40) for k in range(8)]
    assert not over_sub_labels(first, units, COLS)

"""A scanned page's runs joined into lines, not across a gutter (extractors/scan_lines.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.scan_lines import text_lines
from samples.pdfgen import scanned_twin

LEFT = ["Costs include maintenance, energy", "and external services but exclude", "depreciation. The figures below",
        "cover the reporting period and were", "checked by the controlling team.", "This section summarises the main",
        "results and compares them with the", "previous year."]
ROWS = [["Item", "Volume", "Headcount"], ["Brookfield depot", "207,118", "565,813"],
        ["Riverside store", "113,595", "52,320"], ["Harbor View", "672,064", "475,647"],
        ["Kingsway depot", "295,351", "529,117"], ["Maple Court", "727,686", "88,700"]]


def _run(text: str, x0: float, y0: float, x1: float, h: float = 44.0) -> OcrBox:
    return OcrBox(text, (x0, y0, x1, y0 + h), 0.99)


def test_runs_a_gutter_apart_are_two_lines_and_a_wide_space_in_a_line_is_not() -> None:
    """Pixels at 200 dpi, 10 pt print (detector boxes 44 px tall). A caption 60 px (about a
    font size and a half) right of a paragraph's first line, over a table beside the paragraph:
    the rows below hold print left and right of the gap and none across, so the caption is a
    line of its own. The same gap in a line over full-width prose is a wide space: one line."""
    page = [_run("Costs include maintenance, energy", 190, 470, 600), _run("Table 1 - Energy consumption", 660, 468, 1080),
            _run("and external services but exclude", 190, 505, 590), _run("Item", 680, 515, 750),
            _run("Volume", 900, 515, 1000),
            _run("The figures below cover the period", 190, 700, 620), _run("and were checked by", 680, 700, 1000),
            _run("the controlling team, which signed them off on the last day of the period.", 190, 735, 1450)]
    rest = [r for r in page if r.text not in ("Item", "Volume")]
    assert [t for t, _, _ in text_lines(rest, page)] == [
        "Costs include maintenance, energy", "Table 1 - Energy consumption", "and external services but exclude",
        "The figures below cover the period and were checked by",
        "the controlling team, which signed them off on the last day of the period."]


def test_a_tables_row_outside_its_box_stays_one_line() -> None:
    """A repeated header row over a continued table, read outside the table's box: its labels
    stand a column gap apart over the body's columns, as two blocks beside a gutter do, but
    none is running text; the row stays one line, as the steps that shape tables read it."""
    page = [_run("Kategorie", 460, 120, 620), _run("Gewicht (kg)", 660, 120, 860), _run("Budget (EUR)", 900, 120, 1090),
            _run("Werk", 460, 170, 560), _run("116.573", 680, 170, 800), _run("912.744", 960, 170, 1080)]
    assert [t for t, _, _ in text_lines(page[:3], page)] == ["Kategorie Gewicht (kg) Budget (EUR)"]


def test_a_caption_over_a_table_beside_a_paragraph_is_the_tables_caption_on_a_scan(tmp_path: Path) -> None:
    """A borderless table on the right, a paragraph on the left, the table's caption level with
    the paragraph's first line 25 pt (2.5 font sizes) right of it, on a 200 dpi scan: the
    caption is the table's, not the end of a prose line."""
    pytest.importorskip("rapidocr")
    from rowkeeper.config import load_config
    from rowkeeper.flows.pipeline import load_document, process_document

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), "Quarterly figures by site 2025", fontsize=20, fontname="hebo")
    page.insert_text((72, 130), "1. Outlook", fontsize=14, fontname="hebo")
    page.insert_text((72, 160), "Sites opened during the year are included from their first full month of operation.",
                     fontsize=10, fontname="helv")
    for i, text in enumerate(LEFT):
        page.insert_text((72, 190 + 13 * i), text, fontsize=10, fontname="helv")
    page.insert_text((250, 190), "Table 1 - Energy consumption", fontsize=10, fontname="helv")
    for r, row in enumerate(ROWS):
        for c, text in enumerate(row):
            x = 250 + 100 * c + (60 - pymupdf.get_text_length(text, "helv", 10) if c else 0)
            page.insert_text((x, 215 + 16 * r), text, fontsize=10, fontname="hebo" if r == 0 else "helv")
    page.insert_text((72, 340), "Values are rounded; totals may differ slightly from the sum of the rows.",
                     fontsize=10, fontname="helv")
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.02, seed=3))
    tables = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out"))).tables
    assert [t.caption for t in tables] == ["Table 1 - Energy consumption"]
    assert [t.section_path for t in tables] == [("Quarterly figures by site 2025", "1. Outlook")]

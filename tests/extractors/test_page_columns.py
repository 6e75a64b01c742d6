"""Tables in one column of a page set in two columns of prose."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.text_runs import aligned_regions
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from rowkeeper.extractors.text_layer import lines_of_dict, page_dict
from tests.extractors.helpers import doc_for

ROWS = [("Payroll Period", "Allowance"), ("Weekly", "71.15"), ("Biweekly", "142.31"),
        ("Semimonthly", "154.17"), ("Monthly", "308.33"), ("Quarterly", "925.00"),
        ("Annually", "3,700.00")]
PROSE = "employers should implement the new withholding tables soon"


def _two_column_page(path: Path) -> None:
    """Prose in both columns; a 2-column table in the right one, its rows level with the
    left column's lines half a line apart (as set by a layout program)."""
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(40):
        page.insert_text((42, 100 + 11.5 * i), PROSE, fontsize=9)
    for i in range(12):
        page.insert_text((318, 100 + 11.5 * i), PROSE, fontsize=9)
    for i, (label, value) in enumerate(ROWS):
        y = 250 + 16 * i
        page.insert_text((323, y), label, fontsize=9)
        page.insert_text((537 - pymupdf.get_text_length(value, fontsize=9), y), value, fontsize=9)
    for i in range(10):
        page.insert_text((318, 380 + 11.5 * i), PROSE, fontsize=9)
    doc.save(path)


def test_table_in_one_page_column_is_a_candidate(tmp_path: Path) -> None:
    path = tmp_path / "columns.pdf"
    _two_column_page(path)
    with pymupdf.open(path) as pdf:
        regions, _, _ = aligned_regions(lines_of_dict(1, page_dict(pdf[0])))
    assert len(regions) == 1
    x0, top, x1, bottom = regions[0]
    assert x0 > 300 and 235 < top < 245 and 340 < bottom < 350


def test_table_in_one_page_column_is_read(tmp_path: Path) -> None:
    path = tmp_path / "columns.pdf"
    _two_column_page(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == ROWS


def test_prose_in_two_columns_is_no_table(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(40):
        page.insert_text((42, 100 + 11.5 * i), PROSE, fontsize=9)
        page.insert_text((318, 100 + 11.5 * i), PROSE, fontsize=9)
    path = tmp_path / "prose.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:
        assert aligned_regions(lines_of_dict(1, page_dict(pdf[0])))[0] == []

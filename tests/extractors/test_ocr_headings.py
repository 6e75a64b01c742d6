"""Section paths on scanned pages: headings told by the print's ink (extractors/line_print.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rowkeeper.config import load_config
from rowkeeper.extractors.line_print import bold_lines, print_size
from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf, scanned_twin

pytest.importorskip("rapidocr")

PROSE = ("The figures below are taken from the signed delivery notes and exclude tax. "
         "Sites opened during the year are counted from their first full month.")


def test_a_scanned_tables_section_path_has_the_title_and_both_heading_levels(tmp_path: Path) -> None:
    """Title, a numbered bold heading and an unnumbered bold sub-heading (12 pt over 10 pt
    prose, on a 150 dpi tilted scan): the table's path holds all three, in order."""
    from rowkeeper.flows.pipeline import load_document, process_document

    spec = DocSpec(title="Quarterly report", blocks=[
        Heading("1. Costs"), Paragraph(PROSE), Heading("Regional offices", level=2), Paragraph(PROSE),
        TableSpec(caption="Table 1 Office costs", header=[["Office", "Rent", "Energy"]],
                  rows=[["North", "1,200", "310"], ["South", "2,340", "415"], ["East", "880", "190"]])])
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(build_pdf(spec), dpi=150, noise=0.02, rotate_deg=0.5, seed=4))
    result = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out")))
    assert [t.section_path for t in result.tables] == [("Quarterly report", "1. Costs", "Regional offices")]
    assert result.tables[0].caption == "Table 1 Office costs"


def _line(stroke: int, x_height: int, ascender: int = 0) -> np.ndarray:
    """A drawn line of 12 letters: stems `stroke` px wide, `x_height` px tall, the first one
    taller by `ascender` px."""
    ink = np.zeros((40, 12 * 20), dtype=np.uint8)
    for k in range(12):
        top = 30 - x_height - (ascender if k == 0 else 0)
        ink[top:30, k * 20:k * 20 + stroke] = 255
        ink[top:30, k * 20 + 10:k * 20 + 10 + stroke] = 255
    return ink


def test_stems_half_as_wide_again_as_the_pages_text_are_bold() -> None:
    page = np.vstack([_line(3, 10), _line(3, 10), _line(3, 10), _line(6, 10)])
    boxes = [(0.0, 40.0 * i, 240.0, 40.0 * (i + 1)) for i in range(4)]
    assert bold_lines(page, boxes) == [False, False, False, True]


def test_the_size_comes_from_the_x_height_band_not_from_ascenders() -> None:
    box = (0.0, 0.0, 240.0, 40.0)
    plain, tall = print_size(_line(3, 10), box, "lamp", 1.0), print_size(_line(3, 10, ascender=8), box, "lamp", 1.0)
    assert plain == tall == 20.0
    assert print_size(_line(3, 14), box, "2025", 1.0) is None  # no lowercase, no x-height: the detector's

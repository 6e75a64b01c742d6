"""A figure's marks from the page's other reading (ocr_figures), as `with_marks` applies it."""

from __future__ import annotations

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_extractor import with_marks
from rowkeeper.extractors.ocr_figures import figure_marks, marks_and_figures


def test_a_figure_read_without_its_group_marks_takes_the_other_readings() -> None:
    """Tesseract's "8.552 661" and "409311" beside RapidOCR's marked figures; letters and units
    stay the first reading's."""
    assert figure_marks("8.552 661 đ", "8.552.661 d") == "8.552.661 đ"
    assert figure_marks("409311", "409.311") == "409.311"
    assert figure_marks("96 587,2", "96.587,2") == "96.587,2"


def test_a_figure_read_with_marks_or_other_digits_stays() -> None:
    """Marks both readings saw stay the first's (the other may swap them); other digits, two
    figures, or spaces that group by the page's own rule ("128 302" both ways) stay."""
    assert figure_marks("23.750,66", "23,750.66") == "23.750,66"
    assert figure_marks("409311", "409.371") == "409311"
    assert figure_marks("12 34", "12 34") == "12 34"
    assert figure_marks("1.250 12", "1.250 1.2") == "1.250 12"


def test_with_marks_lends_letters_and_figures() -> None:
    """The second reading's run takes the first's tone marks and its figure's group marks."""
    run = OcrBox("Doanh thu 8.552 661", (0, 0, 300, 30), 0.9)
    hint = OcrBox("Doanh thu 8.552.661", (2, 1, 298, 29), 0.9)
    assert [b.text for b in with_marks([run], [hint], marks_and_figures)] == ["Doanh thu 8.552.661"]

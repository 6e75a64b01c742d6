"""A statement's header of years beside a "Note" label over a column of note numbers
(transforms/heads.years_over_numbers), and a first body row with an empty note whose
figures span nothing (transforms/spanners: group labels stand over the body, not in it)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

ROWS = {
    "vi": [("Doanh thu thuần", "", "2.300.008", "2.034.968"), ("Giá vốn hàng bán", "17", "439.832", "2.071.755"),
           ("Lợi nhuận gộp", "", "1.860.176", "1.663.213"), ("Chi phí bán hàng", "18", "120.001", "98.870"),
           ("Chi phí quản lý", "19", "82.440", "75.100")],
    "en": [("Revenue", "", "2,300,008", "2,034,968"), ("Cost of sales", "17", "439,832", "371,755"),
           ("Gross profit", "", "1,860,176", "1,663,213"), ("Selling expenses", "18", "120,001", "98,870"),
           ("Administrative expenses", "19", "82,440", "75,100")],
}
NOTE = {"vi": "Thuyết minh", "en": "Note"}


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_years_beside_a_note_label_are_the_header(tmp_path: Path, lang: str) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "Income statement", 14, "bold")
    for x, text in ((260, NOTE[lang]), (440, "2024"), (520, "2023")):
        put(page, x, 110, text, 9, "bold", "right")
    for i, row in enumerate(ROWS[lang]):
        y = 128 + 16 * i
        put(page, 60, y, row[0])
        for x, text in zip((260, 440, 520), row[1:], strict=True):
            if text:
                put(page, x, y, text, align="right")
    path = tmp_path / "statement.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("", NOTE[lang], "2024", "2023")
    assert [tuple(r) for r in t.rows] == ROWS[lang]

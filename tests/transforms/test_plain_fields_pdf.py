"""A ruled table of text keys and text values, its first row printed like the others (no bold,
no tint, no rule of its own): no header, every name `""`, every row a field; a text table whose
first row is bold keeps that row as its header (transforms/headers.plain_fields)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put

FIELDS = {
    "en": [("Project", "Harbour bridge renewal"), ("Owner", "City of Fairfield"), ("Status", "In design")],
    "de": [("Projekt", "Sanierung der Hafenbrücke"), ("Bauherr", "Stadt Kiel"), ("Stand", "In Planung")],
    "vi": [("Dự án", "Cải tạo cầu cảng"), ("Chủ đầu tư", "Thành phố Đà Nẵng"), ("Trạng thái", "Đang thiết kế")],
}


def _grid(path: Path, rows: list[tuple[str, str]], bold_first: bool) -> list:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 70, "Project sheet", 12, "bold")
    put(page, 72, 90, "The sheet is updated by the project office at the end of every month.")
    xs, ys = (72, 180, 400), [110 + 18 * i for i in range(len(rows) + 1)]
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for i, row in enumerate(rows):
        for x, text in zip(xs, row, strict=False):
            put(page, x + 4, ys[i] + 12, text, face="bold" if bold_first and i == 0 else "sans")
    put(page, 72, ys[-1] + 30, "Questions about the project go to the project office.")
    doc.save(path)
    return list(process_document(load_document(str(path), path.name), load_config(None)).tables)


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_text_fields_in_plain_type_have_no_header(tmp_path: Path, lang: str) -> None:
    (table,) = _grid(tmp_path / "fields.pdf", FIELDS[lang], bold_first=False)
    assert table.columns == ("", "")
    assert [tuple(r) for r in table.rows] == FIELDS[lang]


def test_a_bold_first_row_over_text_stays_the_header(tmp_path: Path) -> None:
    rows = [("Term", "Meaning"), *FIELDS["en"]]
    (table,) = _grid(tmp_path / "glossary.pdf", rows, bold_first=True)
    assert table.columns == ("Term", "Meaning")
    assert len(table.rows) == 3

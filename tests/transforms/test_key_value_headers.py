"""A form's fields keep `""` names: no first field taken for a header (issue 13 item 3)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save, ruled_grid

FIELDS = {
    "hu": [["Telefon", "Malomárok 10"], ["Cím", "2025. 11. 14."], ["Kapcsolattartó", "2019. 04. 03."],
           ["Dátum", "Erdőszél 84"]],
    "en": [["Phone", "Cedar Park 32"], ["Date", "2024-05-01"], ["Customer", "Fairfield 57"],
           ["Total", "$ 12,480.00"]],
}


def form_block(path: Path, lang: str, bold_keys: bool) -> Path:
    """A borderless block of fields, keys left and values beside them; the keys maybe bold."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Quotation", 14, True)
    y = 100.0
    for key, value in FIELDS[lang]:
        pg.text(LEFT, y, key, 9, bold_keys)
        pg.text(LEFT + 90, y, value, 9)
        y += 14
    pg.text(LEFT, y + 30, "Thank you for your order. Prices are valid for thirty days from the date.", 10)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["hu", "en"])
@pytest.mark.parametrize("bold_keys", [False, True])
def test_a_form_block_with_dates_among_its_values_has_no_header(tmp_path: Path, lang: str,
                                                                 bold_keys: bool) -> None:
    tables = [t for t in tables_of(form_block(tmp_path / "f.pdf", lang, bold_keys)) if len(t.columns) == 2]
    assert len(tables) == 1
    (t,) = tables
    assert t.columns == ("", "") and t.header_rows == 0
    assert [list(r) for r in t.rows] == FIELDS[lang]


PAIRS = [["Project", "$904,505", "Quote no.", "2026-02-01"],
         ["Valid until", "605-4992", "Contact", "$983,165"]]


def test_a_date_beside_an_amount_in_a_forms_first_row_heads_no_column(tmp_path: Path) -> None:
    """Two fields a row in a ruled grid, nothing bold (zoo dev15 headerless_kv-265-en): the
    first row's date stands over an amount, as a period heads a column of figures, but the
    same row holds an amount beside its first key, which no row of heads does."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Supplier overview", 14, True)
    pg.text(LEFT, 90, "Table 1: Quarterly figures by site", 9)
    ruled_grid(pg, 100, PAIRS, [70, 70, 70, 80], size=8)
    pg.text(LEFT, 170, "All amounts are stated before tax unless a note says otherwise.", 9)
    (t,) = tables_of(_save(doc, tmp_path / "pairs.pdf"))
    assert t.columns == ("", "", "", "") and t.header_rows == 0
    assert [list(r) for r in t.rows] == PAIRS

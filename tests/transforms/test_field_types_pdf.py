"""A key-value block's columns are typed text however alike its values read
(`assemble.field_types`): each row is a field of its own, so two dates or three amounts beside
different keys make no date or currency column (zoo dev16 form-285-en, dev17 headerless_kv-295-vi)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.extractors.finder.test_key_value import _estimate
from tests.transforms.pdf_docs import tables_of

BLOCKS = {
    "de": ([("Kunde:", "Hans Meier"), ("Telefon:", "030 123456"), ("Kunden-Nr.:", "K-2231")],
           [("Datum:", "01.12.2026"), ("Gültig bis:", "31.12.2026")]),
    "en": ([("Customer:", "Ashford Ltd"), ("Contact:", "J. Reed"), ("Quote no.:", "Q-118")],
           [("Deposit:", "$1,200.00"), ("Balance:", "$3,480.50"), ("Total:", "$4,680.50")]),
    "hu": ([("Ügyfél:", "Kovács Kft."), ("Telefon:", "06 1 234 5678"), ("Ajánlat:", "A-2026-7")],
           [("Kelt:", "2026.12.01."), ("Érvényes:", "2026.12.31.")]),
}


@pytest.mark.parametrize("lang", sorted(BLOCKS))
def test_the_values_of_a_form_s_fields_are_text(tmp_path: Path, lang: str) -> None:
    tables = tables_of(_estimate(tmp_path / "estimate.pdf", BLOCKS[lang], "sans", bold_keys=True))
    assert [[tuple(r) for r in t.rows] for t in tables] == [list(b) for b in BLOCKS[lang]]
    assert [t.column_types for t in tables] == [("text", "text")] * 2
    assert all(v is None for t in tables for r in t.values for v in r)


FIELDS = [("件名", "2021年5月8日", "顧客名", "富山"), ("電話番号", "2026年5月9日", "見積番号", "216-1331"),
          ("住所", "2026年7月20日", "担当者", "福岡")]


def test_a_ruled_block_of_two_fields_a_row_is_typed_text(tmp_path: Path) -> None:
    """A ruled grid of fields, two pairs a row, no header (zoo dev15 headerless_kv-255-ja): three
    dates in its second column are three fields' values, no date column."""
    import pymupdf

    from tests.transforms.surroundings_docs import Page, _save

    doc = pymupdf.open()
    pg = Page(doc)
    xs, top, step = [60, 150, 260, 350, 460], 100.0, 16.0
    for i, row in enumerate(FIELDS):
        for j, text in enumerate(row):
            pg.box(xs[j], top + step * i, xs[j + 1], top + step * (i + 1))
            pg.text(xs[j] + 3, top + step * i + 11.5, text, 8)
    (t,) = tables_of(_save(doc, tmp_path / "fields.pdf"))
    assert [tuple(r) for r in t.rows] == FIELDS
    assert t.column_types == ("text",) * 4

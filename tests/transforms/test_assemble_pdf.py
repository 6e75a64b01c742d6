"""End to end on generated PDFs: PyMuPDF pieces + text lines -> logical tables (issue 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.models import Table
from tests.transforms.pdf_docs import structure_specs, tables_of, write_pdf


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Table, ...]]:
    """Every structure document, extracted and assembled once."""
    d: Path = tmp_path_factory.mktemp("structure")
    return {name: tables_of(write_pdf(spec, d / f"{name}.pdf"))
            for name, spec in structure_specs().items()}


def test_japanese_two_page_table_with_header_only_on_page_one(tables) -> None:
    (t,) = tables["two_page"]
    assert t.pages == (1, 2)
    assert t.columns == ("物件名", "管理費", "修繕積立金")
    assert len(t.rows) == 40
    assert t.rows[0] == ("サンハイツ泉1", "13,000", "11,500")
    assert t.rows[-1][0] == "サンハイツ泉40"
    assert t.column_types == ("text", "integer", "integer")
    assert t.values[0] == (None, 13000.0, 11500.0)
    assert t.caption == "表2 管理費一覧"
    assert t.section_path == ("管理物件ハンドブック", "3. 管理物件")
    assert len(t.merged_from) == 2 and [r.page for r in t.regions] == [1, 2]
    assert t.validation.passed


def test_english_header_repeated_on_three_pages(tables) -> None:
    (t,) = tables["repeated_header"]
    assert t.pages == (1, 2, 3)
    assert t.columns == ("Part", "Price", "Weight", "Count")
    assert len(t.rows) == 95
    assert ("Part", "Price", "Weight", "Count") not in t.rows
    assert [r[0] for r in t.rows] == [f"Item {i:03d}" for i in range(1, 96)]
    assert t.caption == "Table 5 Spare parts"
    assert t.validation.passed


def test_same_shaped_tables_under_two_headings_stay_apart(tables) -> None:
    a, b = tables["split_by_heading"]
    assert (len(a.rows), len(b.rows)) == (44, 6)
    assert a.section_path[-1] == "1. Warehouse A"
    assert b.section_path[-1] == "2. Warehouse B"


def test_hungarian_numbers(tables) -> None:
    (t,) = tables["hungarian"]
    assert t.caption == "1. táblázat Árak"
    assert t.column_types == ("text", "currency", "decimal", "date")
    assert t.values[0][1:3] == (1137.0, 1.5)
    assert t.footnotes == ("* Az árak tájékoztató jellegűek.",)
    assert t.validation.passed


def test_vietnamese_numbers(tables) -> None:
    (t,) = tables["vietnamese"]
    assert t.caption == "Bảng 1 Phí quản lý hằng tháng"
    assert t.column_types == ("text", "currency", "percent", "date")
    assert t.values[1][1:3] == (50000.0, 2.25)
    assert t.footnotes == ("Ghi chú: Giá đã bao gồm VAT.",)
    assert t.section_path == ("Bảng phí quản lý", "1. Phí dịch vụ")


def test_german_dot_thousands_decided_by_document(tables) -> None:
    (t,) = tables["german"]
    assert t.column_types == ("text", "integer", "currency", "date")
    assert [v[1] for v in t.values] == [1234.0, 2234.0, 3234.0, 4234.0, 5234.0, 6234.0]
    assert t.values[0][2] == 12.5
    assert t.footnotes == ("Quelle: Lagerverwaltung",)


def test_multi_row_header_with_spans(tables) -> None:
    (t,) = tables["multi_header"]
    assert t.header_rows == 2
    assert t.columns == ("Model", "BLEU EN-DE", "BLEU EN-FR", "TER EN-DE", "TER EN-FR")
    assert t.header_grid[1] == ("", "EN-DE", "EN-FR", "EN-DE", "EN-FR")
    # the row-spanning "base" label repeats into the row it covers; cells keep the span
    assert [r[0] for r in t.rows] == ["base", "base", "big", "small"]
    assert any(c.text == "base" and c.row_span == 2 for c in t.cells)
    assert t.column_types == ("text",) + ("decimal",) * 4


def test_caption_below_and_note(tables) -> None:
    (t,) = tables["caption_below"]
    assert t.caption == "Table 9 Totals"
    assert t.footnotes == ("Note: unaudited.",)
    assert t.column_types == ("text", "decimal", "percent")


def test_every_table_is_rectangular_with_cited_cells(tables) -> None:
    for ts in tables.values():
        for t in ts:
            assert all(len(r) == len(t.columns) == len(t.column_types) for r in t.rows)
            assert len(t.values) == len(t.rows)
            assert all(c.page in t.pages and c.bbox for c in t.cells)

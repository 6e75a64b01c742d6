"""One document through the real pipeline (no Prefect): cell texts, merged tables, failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import Config, SinkConfig, load_config
from rowkeeper.flows.pipeline import load_document, pipeline_fingerprint, process_document


@pytest.fixture(scope="module")
def config() -> Config:
    return load_config()


def test_ruled_table_cells(pdf_dir: Path, config: Config) -> None:
    result = process_document(load_document(str(pdf_dir / "ruled.pdf")), config)
    doc = result.document
    assert doc.status == "ok" and doc.kind == "text" and doc.error is None
    assert [p.kind for p in doc.pages] == ["text"]
    (table,) = result.tables
    assert table.columns == ("Code", "Item", "Unit price", "Stock")
    assert len(table.rows) == 5
    assert table.rows[0] == ("01-001", "Desk lamp", "1,250.00", "42")
    assert table.rows[-1] == ("02-002", "Docking station", "21,990.00", "11")
    assert doc.n_tables == 1 and doc.n_chunks == len(result.chunks) > 5
    assert any(a.accepted for a in doc.attempts)
    assert doc.fingerprint == pipeline_fingerprint(config, "text")


def test_two_page_table_is_one_table(pdf_dir: Path, config: Config) -> None:
    result = process_document(load_document(str(pdf_dir / "two_page.pdf")), config)
    (table,) = result.tables
    assert table.pages == (1, 2)
    assert table.columns == ("物件名", "管理費", "修繕積立金")
    assert len(table.rows) == 40
    assert table.rows[0] == ("サンハイツ泉1", "13,000", "11,500")


@pytest.mark.parametrize(("name", "reason"), [
    ("corrupt.pdf", "damaged"),
    ("ruled_encrypted.pdf", "encrypted"),
    ("not_a_pdf.pdf", "not a PDF (no %PDF- header"),
])
def test_bad_files_become_failed_records(pdf_dir: Path, config: Config, name: str, reason: str) -> None:
    result = process_document(load_document(str(pdf_dir / name)), config)
    assert result.document.status == "failed"
    assert reason in (result.document.error or "")
    assert result.tables == () and result.chunks == ()


def test_fingerprint_follows_output_settings_only(config: Config) -> None:
    base = pipeline_fingerprint(config, "text")
    other_sink = config.model_copy(update={"sinks": (SinkConfig(type="folder", path="elsewhere"),)})
    assert pipeline_fingerprint(other_sink, "text") == base
    tighter = config.model_copy(update={"transform": config.transform.model_copy(
        update={"max_empty_ratio": 0.1})})
    assert pipeline_fingerprint(tighter, "text") != base
    # scanned-only layers (OCR) do not decide a text document's fingerprint
    no_ocr = config.model_copy(update={"extract": config.extract.model_copy(
        update={"scanned_layers": ("docling",)})})
    assert pipeline_fingerprint(no_ocr, "text") == base
    assert pipeline_fingerprint(no_ocr, "scanned") != pipeline_fingerprint(config, "scanned")

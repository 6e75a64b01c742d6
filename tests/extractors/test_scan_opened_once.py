"""The scanned-page layers (OCR, the cloud layers) read the document model the cascade holds:
a PDF with scanned pages is opened once per document, like a text-only one."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from samples.pdfgen import DocSpec, Heading, TableSpec, build_pdf, mixed, numbers_rows, scanned_twin
from tests.extractors.cloud_fakes import page_truth, serve
from tests.extractors.ocr_fixtures import RULED, write_pair
from tests.extractors.test_page_model import opens  # noqa: F401 - the fixture counting opens

HEADER = ["Part", "Price", "Weight"]


def test_a_mixed_document_is_opened_once_ocr_included(tmp_path: Path, opens: list[str]) -> None:  # noqa: F811
    pytest.importorskip("rapidocr")
    rows = numbers_rows(58, seed=5, cols=3)  # two pages: page 2 becomes the scan
    text = build_pdf(DocSpec(title="Parts", blocks=[Heading("1. Parts"), TableSpec(header=[HEADER], rows=rows)]))
    path = tmp_path / "mixed.pdf"
    path.write_bytes(mixed(text, scanned_twin(text, dpi=150, seed=2), {2}))
    opens.clear()
    result = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out")))
    assert [p.kind for p in result.document.pages] == ["text", "scanned"]
    assert any(a.extractor == "ocr" and a.pages == (2,) and a.accepted for a in result.document.attempts)
    assert len(result.tables) == 1 and list(result.tables[0].columns) == HEADER
    assert result.tables[0].pages == (1, 2) and len(result.tables[0].rows) == len(rows)
    assert opens == [str(path)]


def test_the_azure_layer_cuts_its_pages_from_the_open_document(tmp_path: Path, opens: list[str],  # noqa: F811
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("httpx")
    from tests.extractors.test_azure_extractor import KEY, _script_ok

    text, scan = write_pair(tmp_path, "ruled", RULED)
    truth = page_truth(text)
    config = load_config().with_out(str(tmp_path / "out"))
    config = config.model_copy(update={"extract": config.extract.model_copy(update={
        "scanned_layers": ("azure",), "options": {"azure": {"base_delay_s": 0.0, "poll_interval_s": 0.0}}})})
    opens.clear()
    with serve() as svc:
        _script_ok(svc, truth)
        monkeypatch.setenv("AZURE_DI_ENDPOINT", svc.url)
        monkeypatch.setenv("AZURE_DI_KEY", KEY)
        result = process_document(load_document(scan.path), config)
    assert result.document.status == "ok", result.document.error
    assert any(a.extractor == "azure" and a.accepted for a in result.document.attempts)
    assert list(result.tables[0].columns) == RULED.header[0]
    assert [list(r) for r in result.tables[0].rows] == RULED.rows
    assert opens == [scan.path]


def test_the_textract_layer_cuts_each_page_from_the_open_document(tmp_path: Path, opens: list[str],  # noqa: F811
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("boto3")
    from tests.extractors.cloud_fakes import textract_blocks
    from tests.extractors.test_textract_extractor import TARGET

    text, scan = write_pair(tmp_path, "ruled", RULED)
    for k, v in (("AWS_ACCESS_KEY_ID", "AKIATESTTESTTEST"), ("AWS_SECRET_ACCESS_KEY", "test-secret-not-real"),
                 ("AWS_REGION", "eu-west-1"), ("AWS_EC2_METADATA_DISABLED", "true")):
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    truth = page_truth(text)
    opens.clear()
    with serve() as svc:
        svc.script("POST", TARGET, (200, {}, textract_blocks(truth)))
        config = load_config().with_out(str(tmp_path / "out"))
        config = config.model_copy(update={"extract": config.extract.model_copy(update={
            "scanned_layers": ("textract",), "options": {"textract": {"endpoint_url": svc.url, "base_delay_s": 0.0}}})})
        result = process_document(load_document(scan.path), config)
    assert result.document.status == "ok", result.document.error
    assert any(a.extractor == "textract" and a.accepted for a in result.document.attempts)
    assert [list(r) for r in result.tables[0].rows] == RULED.rows
    assert opens == [scan.path]

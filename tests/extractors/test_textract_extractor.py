"""The Textract layer through boto3, pointed at a local server speaking AnalyzeDocument's JSON protocol."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rowkeeper.errors import BadInput, LayerUnavailable, TransientError
from rowkeeper.extractors.textract_extractor import TextractExtractor, TextractOptions
from rowkeeper.models import DocumentInput
from rowkeeper.protocols import Extractor
from tests.extractors.cloud_fakes import (
    PageTruth,
    failed_textract,
    page_truth,
    serve,
    textract_blocks,
    throttled_textract,
)
from tests.extractors.ocr_fixtures import SPANNED, write_pair

pytest.importorskip("boto3")

TARGET = "/#Textract.AnalyzeDocument"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> tuple[DocumentInput, DocumentInput, PageTruth]:
    """A spanned-header table with caption and footnote: text version, scanned twin, truth."""
    spec = dataclasses.replace(SPANNED, caption="Table 3 Sales by half", footnotes=["* EUR thousand"])
    text, scan = write_pair(tmp_path_factory.mktemp("textract"), "spanned", spec)
    return text, scan, page_truth(text)


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """Test credentials in the environment (the server ignores the signature)."""
    for k in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "TEXTRACT_ENDPOINT_URL"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIATESTTESTTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test-secret-not-real")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    return monkeypatch


def _opts(url: str, **kw: object) -> TextractOptions:
    return TextractOptions(endpoint_url=url, base_delay_s=0.0, **kw)


def test_not_configured_is_unavailable(monkeypatch: pytest.MonkeyPatch, docs) -> None:  # type: ignore[no-untyped-def]
    """No AWS credentials/region in the environment: skipped with what to set."""
    for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(k, raising=False)
    ex = TextractExtractor()
    assert isinstance(ex, Extractor) and ex.handles == frozenset({"scanned"})
    with pytest.raises(LayerUnavailable, match="not configured: set AWS_ACCESS_KEY_ID"):
        ex.extract(docs[1], [1])


def test_merged_cells_headers_and_points_after_throttling(aws, docs) -> None:  # type: ignore[no-untyped-def]
    """Throttled once, then Blocks: MERGED_CELLs become spans, COLUMN_HEADER flags, ratios -> points."""
    _, scan, truth = docs
    with serve() as svc:
        svc.script("POST", TARGET, throttled_textract(), (200, {}, textract_blocks(truth)))
        ex = TextractExtractor(_opts(svc.url))
        got = ex.extract(scan, [1])
    req = svc.seen[-1]
    assert req.headers["X-Amz-Target"] == "Textract.AnalyzeDocument"
    assert "AWS4-HMAC-SHA256" in req.headers["Authorization"]
    assert json.loads(req.body)["FeatureTypes"] == ["TABLES"]
    t = got.tables[0]
    assert (t.n_rows, t.n_cols) == (4, 5)
    assert t.grid() == [["Region", "2025", "", "2026", ""], ["", "H1", "H2", "H1", "H2"],
                        ["North", "10", "11", "12", "13"], ["South", "20", "21", "22", "23"]]
    slot = {(c.row, c.col): c for c in t.cells}
    assert (slot[0, 0].row_span, slot[0, 1].col_span, slot[0, 3].col_span) == (2, 2, 2)
    assert len(t.cells) == 4 * 5 - 1 - 1 - 1  # covered slots are folded into their span
    assert all(c.is_header == (c.row < 2) for c in t.cells)
    assert t.bbox == pytest.approx(truth.table_bbox, abs=0.05)
    assert (t.metrics["has_caption"], t.metrics["footnotes"], t.metrics["structured"]) == (1.0, 1.0, 1.0)
    texts = [ln.text for ln in got.lines]
    assert "Table 3 Sales by half" in texts and "* EUR thousand" in texts and "North" not in texts
    assert ex.ledger.snapshot()["pages_sent"] == 1 and ex.ledger.snapshot()["retries"] == 1
    assert ex.ledger.snapshot()["cost"] == pytest.approx(0.015)


def test_one_call_per_page_and_budget(aws, docs) -> None:  # type: ignore[no-untyped-def]
    """The sync API takes one page: two pages are two calls; a 1-page budget stops the second."""
    _, scan, truth = docs
    with serve() as svc:
        svc.script("POST", TARGET, (200, {}, textract_blocks(truth)))
        ex = TextractExtractor(_opts(svc.url, max_pages_per_run=1))
        ex.extract(scan, [1])
        with pytest.raises(LayerUnavailable, match="page budget exhausted"):
            ex.extract(scan, [1])
    assert len(svc.seen) == 1


def test_internal_errors_end_in_a_transient_error(aws, docs) -> None:  # type: ignore[no-untyped-def]
    """HTTP 500 every time: our retries (botocore's are off), then TransientError."""
    with serve() as svc:
        svc.script("POST", TARGET, failed_textract())
        ex = TextractExtractor(_opts(svc.url, retries=2))
        with pytest.raises(TransientError, match="InternalServerError"):
            ex.extract(docs[1], [1])
    assert len(svc.seen) == 3


def test_bad_document_and_rejected_credentials(aws, docs) -> None:  # type: ignore[no-untyped-def]
    """A document Textract cannot read is BadInput; rejected credentials make the layer unavailable."""
    with serve() as svc:
        svc.script("POST", TARGET, (400, {}, {"__type": "UnsupportedDocumentException",
                                              "message": "Request has unsupported document format"}))
        with pytest.raises(BadInput, match="UnsupportedDocumentException"):
            TextractExtractor(_opts(svc.url)).extract(docs[1], [1])
        svc.script("POST", TARGET, (400, {}, {"__type": "UnrecognizedClientException",
                                              "message": "The security token included in the request is invalid."}))
        with pytest.raises(LayerUnavailable, match="credentials rejected"):
            TextractExtractor(_opts(svc.url)).extract(docs[1], [1])

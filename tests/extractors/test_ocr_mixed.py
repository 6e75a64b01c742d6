"""A mixed PDF: a table starts on a text page and continues on a scanned one; it must merge."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import load_config
from samples.pdfgen import DocSpec, Heading, TableSpec, build_pdf, mixed, numbers_rows, scanned_twin

pytest.importorskip("rapidocr")

HEADER = ["Part", "Price", "Weight"]


def test_table_crossing_from_text_to_scanned_page_merges(tmp_path: Path) -> None:
    """Page 1 text, page 2 a 150 dpi tilted scan: one logical table with every body row."""
    from rowkeeper.flows.pipeline import load_document, process_document

    rows = numbers_rows(58, seed=7, cols=3)
    spec = DocSpec(title="Parts list", blocks=[
        Heading("1. Parts"), TableSpec(caption="Table 1 Parts", header=[HEADER], rows=rows)])
    text = build_pdf(spec)
    scan = scanned_twin(text, dpi=150, noise=0.01, rotate_deg=0.4, seed=3)
    path = tmp_path / "mixed.pdf"
    path.write_bytes(mixed(text, scan, {2}))
    config = load_config().with_out(str(tmp_path / "out"))
    result = process_document(load_document(str(path)), config)
    assert result.document.status == "ok", result.document.error
    assert [p.kind for p in result.document.pages] == ["text", "scanned"]
    assert any(a.extractor == "ocr" and a.pages == (2,) for a in result.document.attempts)
    assert len(result.tables) == 1, [(t.pages, len(t.rows)) for t in result.tables]
    table = result.tables[0]
    assert table.pages == (1, 2)
    assert list(table.columns) == HEADER
    assert len(table.rows) == len(rows)
    exact = sum(list(got) == want for got, want in zip(table.rows, rows, strict=True))
    assert exact >= len(rows) - 1, [(g, w) for g, w in zip(table.rows, rows, strict=True) if list(g) != w]
    numbers = [(g[1:], w[1:]) for g, w in zip(table.rows, rows, strict=True)]
    assert all(list(g) == w for g, w in numbers)  # every number exact, on both pages

"""The Docling layer: conversion of a docling-core document, and a clear skip without weights."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from rowkeeper.errors import LayerUnavailable
from rowkeeper.extractors.docling_extractor import (
    DoclingExtractor,
    DoclingOptions,
    estimate_font_size,
    extraction_from_docling,
    find_weights,
)
from rowkeeper.models import DocumentInput
from rowkeeper.protocols import Extractor

dc = pytest.importorskip("docling_core.types.doc")

DOC = DocumentInput(path="/nonexistent.pdf", source="scan.pdf", doc_id="ab" * 32)
PAGE_H = 842.0


def _bl(x0: float, t: float, r: float, b: float) -> object:
    """A bottom-left-origin BoundingBox from top-left numbers (Docling's PDF convention)."""
    return dc.BoundingBox(l=x0, t=PAGE_H - t, r=r, b=PAGE_H - b, coord_origin=dc.CoordOrigin.BOTTOMLEFT)


def _cell(text: str, r0: int, c0: int, rs: int = 1, cs: int = 1, header: bool = False) -> object:
    x0, y0 = 50 + 100 * c0, 200 + 20 * r0
    return dc.TableCell(
        text=text, row_span=rs, col_span=cs,
        start_row_offset_idx=r0, end_row_offset_idx=r0 + rs,
        start_col_offset_idx=c0, end_col_offset_idx=c0 + cs,
        column_header=header, row_header=(c0 == 0 and not header),
        bbox=_bl(x0, y0, x0 + 100 * cs, y0 + 20 * rs),
    )


def _document() -> object:
    """A two-page DoclingDocument: a heading, a caption, a table with a two-row header, a footnote."""
    d = dc.DoclingDocument(name="scan")
    for p in (1, 2):
        d.add_page(page_no=p, size=dc.Size(width=595.0, height=PAGE_H))

    def prov(t: float, b: float, text: str, page: int = 1, r: float = 400) -> object:
        return dc.ProvenanceItem(page_no=page, bbox=_bl(50, t, r, b), charspan=(0, len(text)))

    d.add_heading(text="3. Managed properties", prov=prov(100, 116, "3. Managed properties"))
    d.add_text(label=dc.DocItemLabel.TEXT, text="Fees are monthly.", prov=prov(130, 142, "Fees are monthly."))
    caption = d.add_text(label=dc.DocItemLabel.CAPTION, text="Table 2 Fees",
                         prov=prov(180, 192, "Table 2 Fees"))
    cells = [
        _cell("Property", 0, 0, rs=2, header=True), _cell("2026", 0, 1, cs=2, header=True),
        _cell("Fee", 1, 1, header=True), _cell("Reserve", 1, 2, header=True),
        _cell("Sun Heights", 2, 0), _cell("13,000", 2, 1), _cell("11,500", 2, 2),
        _cell("Grand Maison", 3, 0), _cell("15,200", 3, 1), _cell("12,000", 3, 2),
    ]
    data = dc.TableData(num_rows=4, num_cols=3, table_cells=cells)
    table = d.add_table(data=data, caption=caption,
                        prov=dc.ProvenanceItem(page_no=1, bbox=_bl(50, 200, 350, 280), charspan=(0, 0)))
    note = d.add_text(label=dc.DocItemLabel.FOOTNOTE, text="* JPY per month",
                      prov=prov(284, 292, "* JPY per month"))
    table.footnotes.append(note.get_ref())
    d.add_text(label=dc.DocItemLabel.TEXT, text="Second page text.", prov=prov(60, 72, "x", page=2))
    return d


def test_docling_tables_convert_with_spans_headers_and_top_left_bboxes() -> None:
    """Spans, column headers, page and bbox (bottom-left origin converted) survive conversion."""
    got = extraction_from_docling(_document(), DOC, [1], "docling-test")
    assert len(got.tables) == 1
    t = got.tables[0]
    assert (t.page, t.n_rows, t.n_cols) == (1, 4, 3)
    assert t.bbox == (50.0, 200.0, 350.0, 280.0)
    assert t.grid() == [["Property", "2026", ""], ["", "Fee", "Reserve"],
                        ["Sun Heights", "13,000", "11,500"], ["Grand Maison", "15,200", "12,000"]]
    by_slot = {(c.row, c.col): c for c in t.cells}
    assert (by_slot[0, 0].row_span, by_slot[0, 1].col_span) == (2, 2)
    assert [c.is_header for c in t.cells if c.row < 2] == [True] * 4
    assert not any(c.is_header for c in t.cells if c.row >= 2)
    assert by_slot[2, 1].bbox == (150.0, 240.0, 250.0, 260.0)
    assert t.piece_id.endswith(":p1.1") and t.extractor == "docling"


def test_docling_text_items_become_page_lines() -> None:
    """Heading, paragraph, caption and footnote come back as lines of the pages asked for."""
    got = extraction_from_docling(_document(), DOC, [1], "docling-test")
    texts = [ln.text for ln in got.lines]
    assert texts == ["3. Managed properties", "Fees are monthly.", "Table 2 Fees", "* JPY per month"]
    heading, body = got.lines[0], got.lines[1]
    assert heading.bold and not body.bold
    assert heading.font_size > body.font_size
    assert heading.bbox == (50.0, 100.0, 400.0, 116.0)
    assert [ln.text for ln in extraction_from_docling(_document(), DOC, [2], "v").lines] == [
        "Second page text."]


def test_font_size_estimate_from_one_line_and_from_a_paragraph() -> None:
    """One 12 pt line is 14.4 pt tall; a five-line 10 pt paragraph gives ~10 too."""
    assert estimate_font_size((0, 0, 300, 14.4), "A heading") == 12.0
    para = "word " * 110  # ~5 lines of 10 pt text in a 440 pt wide box
    assert 8.5 <= estimate_font_size((0, 0, 440, 60), para) <= 11.5


def test_without_weights_the_layer_is_unavailable_with_a_fetch_hint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """No Docling or no weights: LayerUnavailable naming the folders, the command and the key."""
    monkeypatch.setenv("DOCLING_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DOCLING_ARTIFACTS_PATH", raising=False)
    ex = DoclingExtractor(DoclingOptions(artifacts_path=str(tmp_path / "models")))
    assert isinstance(ex, Extractor) and ex.handles == frozenset({"scanned"})
    with caplog.at_level(logging.WARNING), pytest.raises(LayerUnavailable) as err:
        ex.extract(DOC, [1])
    msg = str(err.value)
    assert str(tmp_path / "models") in msg  # where it looked
    assert "docling" in msg and "docling-tools models download" in msg
    assert "extract.options.docling.artifacts_path" in msg
    with pytest.raises(LayerUnavailable):
        ex.extract(DOC, [1])
    assert sum("docling" in r.getMessage() for r in caplog.records) <= 1  # told once per process


def test_weights_are_found_in_a_downloaded_layout(tmp_path: Path) -> None:
    """The folder layout `docling-tools models download` writes is recognised (no docling needed)."""
    root = tmp_path / "models"
    (root / "docling-project--docling-layout-heron").mkdir(parents=True)
    (root / "docling-project--docling-models" / "model_artifacts" / "tableformer").mkdir(parents=True)
    assert find_weights(DoclingOptions(artifacts_path=str(root))) == root
    with pytest.raises(LayerUnavailable, match=str(tmp_path / "empty")):
        find_weights(DoclingOptions(artifacts_path=str(tmp_path / "empty")))

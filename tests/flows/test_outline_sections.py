"""Section paths from the PDF outline: headings set in body type are still sections when the
author bookmarked them, and a typographic sub-heading refines a chapters-only outline."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from samples.pdfgen import DocSpec, Heading, PageBreak, Paragraph, TableSpec, build_pdf

GOTO = pymupdf.LINK_GOTO
ROWS = [[f"Unit {i}", f"{1000 + i * 25:,}", f"{i * 3}"] for i in range(1, 6)]


def _doc() -> bytes:
    table = TableSpec(header=[["Unit", "Fee", "Area"]], rows=ROWS)
    return build_pdf(DocSpec(blocks=[
        Paragraph("Managed properties"),  # a section start a reader sees only through the outline
        Paragraph("The buildings the company manages on behalf of their owners are listed below."),
        TableSpec(header=[["Unit", "Fee", "Area"]], rows=ROWS),
        PageBreak(),
        Paragraph("Fees and deposits"),
        Paragraph("Deposits are returned within thirty days after the lease ends."),
        Heading("Refundable deposits", level=2),
        Paragraph("Refundable deposits are held in a separate account for each tenant."),
        table,
    ]))


def _with_outline(data: bytes, path: Path) -> Path:
    pdf = pymupdf.open("pdf", data)

    def where(text: str) -> dict:
        for page in pdf:
            hits = page.search_for(text)
            if hits:
                return {"kind": GOTO, "page": page.number, "to": pymupdf.Point(0, hits[0].y0)}
        raise AssertionError(text)

    pdf.set_toc([[1, "Property handbook", 1],
                 [2, "Managed properties", 1, where("Managed properties")],
                 [2, "Fees and deposits", 2, where("Fees and deposits")]])
    pdf.save(path)
    return path


def test_tables_and_text_chunks_take_their_section_from_the_outline(tmp_path: Path) -> None:
    data = _doc()
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(data)
    config = load_config(None)
    # without an outline, body-type section titles are invisible: the typography has no heading
    before = process_document(load_document(str(plain)), config)
    assert before.tables[0].section_path == ()

    result = process_document(load_document(str(_with_outline(data, tmp_path / "toc.pdf"))), config)
    first, second = result.tables
    assert first.section_path == ("Property handbook", "Managed properties")
    assert second.section_path == ("Property handbook", "Fees and deposits", "Refundable deposits")
    assert [r[0] for r in second.rows] == [r[0] for r in ROWS]
    text = {c.text.splitlines()[-1]: c.metadata["section_path"] for c in result.chunks
            if c.kind == "text"}
    assert text["Deposits are returned within thirty days after the lease ends."] == [
        "Property handbook", "Fees and deposits"]
    assert text["Refundable deposits are held in a separate account for each tenant."] == [
        "Property handbook", "Fees and deposits", "Refundable deposits"]
    for chunk in result.chunks:
        if chunk.kind == "row" and chunk.table_id == second.table_id:
            assert "Fees and deposits" in chunk.text

"""Files MuPDF cannot read but pdfium can: text-only output and chunks, not `failed`; and
MuPDF's raw `code=N:` errors never reach a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import Config
from rowkeeper.flows.pipeline import describe_error, load_document, process_document
from tests.hostile import rawpdf

_PAGE = rawpdf.pages_pdf([rawpdf.text_content("Structure test page")])


@pytest.mark.parametrize("name, damage", [
    ("pages_parent_loop", (b"/Type /Pages", b"/Type /Pages /Parent 2 0 R")),
    ("count_negative", (b"/Count 1", b"/Count -1")),
])
def test_pdfium_reads_what_mupdf_cannot(tmp_path: Path, name: str, damage: tuple[bytes, bytes]):
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(_PAGE.replace(*damage))
    result = process_document(load_document(str(path)), Config())
    rec = result.document
    assert rec.status == "ok", rec.error
    assert [c.text for c in result.chunks] == ["Structure test page"]
    assert rec.attempts[0].extractor == "pdfium"
    assert rec.warnings[0].startswith("MuPDF failed (damaged PDF: MuPDF cannot read it (")
    assert "code=" not in rec.warnings[0]


def test_an_unreadable_file_still_fails_with_a_readable_reason(tmp_path: Path):
    path = tmp_path / "kids_cycle.pdf"
    path.write_bytes(_PAGE.replace(b"/Count 1", b"/Count 3").replace(b"/Kids [", b"/Kids [2 0 R "))
    rec = process_document(load_document(str(path)), Config()).document
    assert rec.status == "failed"
    assert "code=" not in rec.error and "RuntimeError" not in rec.error, rec.error


def test_mupdf_error_codes_become_plain_reasons():
    assert describe_error(RuntimeError("code=7: cycle in page tree")) == \
        "damaged PDF: MuPDF cannot read it (cycle in page tree)"

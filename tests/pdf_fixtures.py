"""Generated PDFs shared by every test folder (session-scoped: built once per run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from samples import pdfgen
from samples.make_samples import sample_specs


@pytest.fixture(scope="session")
def pdf_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the bundled samples plus hostile and scanned variants."""
    d = tmp_path_factory.mktemp("pdfs")
    for name, spec in sample_specs().items():
        data = pdfgen.build_pdf(spec)
        (d / f"{name}.pdf").write_bytes(data)
    ruled = (d / "ruled.pdf").read_bytes()
    (d / "ruled_scanned.pdf").write_bytes(pdfgen.scanned_twin(ruled, dpi=150, rotate_deg=0.6))
    (d / "ruled_garbled.pdf").write_bytes(pdfgen.garbled(ruled))
    (d / "ruled_encrypted.pdf").write_bytes(pdfgen.encrypted(ruled))
    (d / "corrupt.pdf").write_bytes(ruled[: len(ruled) // 3])
    (d / "not_a_pdf.pdf").write_bytes(b"hello, I am a text file\n" * 20)
    return d

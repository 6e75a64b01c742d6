"""Print an HTML document to a tagged PDF with LibreOffice Writer (soffice, headless, the
HTML read by Writer and exported with UseTaggedPDF), as bench/exporters.py's `libreoffice`
exporter does: Writer's own layout (fixed column widths, a word broken where a column is too
narrow for it, list markers drawn as text, a <caption> as a centred paragraph before the
Table). A test that needs it is skipped where no soffice is installed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.html_page import export, write_page

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
needs_libreoffice = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) not installed")

_FILTER = json.dumps({"UseTaggedPDF": {"type": "boolean", "value": "true"}})


def print_html(body: str, path: Path, css: str = "", lang: str = "en") -> Path:
    """`body` (HTML) printed by LibreOffice Writer to the PDF `path`."""
    assert SOFFICE is not None
    page = write_page(body, path, "@page { size: A4; margin: 18mm; } td, th { padding: 2pt 5pt; vertical-align: top; } "
                      f"th {{ text-align: left; }} {css}", lang)
    profile = (path.parent / "soffice-profile").resolve().as_uri()
    cmd = [SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--infilter=HTML (StarWriter)",
           "--convert-to", f"pdf:writer_pdf_Export:{_FILTER}", "--outdir", str(path.parent), str(page)]
    return export(cmd, path, 300, "LibreOffice")

"""The exporters: programs that print an HTML document to a tagged PDF.

`chromium` (Debian's chromium, headless: its PDFs are tagged, Table > THead/TBody/TFoot > TR >
TH/TD, with the browser's own layout: a THead repeated on each page a table runs over) and
`libreoffice` (Writer reading the HTML, exported with UseTaggedPDF; optional: the bench says so
when soffice is not installed). Each prints a folder of HTML files into PDFs beside them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pymupdf


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def print_chromium(htmls: list[Path]) -> None:
    """Each HTML file to a PDF of the same name, by headless Chromium (one process a file)."""
    exe = _chromium()
    if exe is None:
        raise RuntimeError("chromium not installed")
    with tempfile.TemporaryDirectory(prefix="rk-chromium-") as profile:
        for h in htmls:
            cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                   "--export-tagged-pdf", f"--user-data-dir={profile}",
                   f"--print-to-pdf={h.with_suffix('.pdf')}", h.resolve().as_uri()]
            subprocess.run(cmd, capture_output=True, timeout=120, check=False)


FILTER = json.dumps({"UseTaggedPDF": {"type": "boolean", "value": "true"}})


def print_libreoffice(htmls: list[Path]) -> None:
    """Each HTML file to a PDF of the same name, by LibreOffice Writer (one process for all)."""
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        raise RuntimeError("soffice not installed")
    with tempfile.TemporaryDirectory(prefix="rk-soffice-") as profile:
        for folder in sorted({h.parent for h in htmls}):
            files = [str(h) for h in htmls if h.parent == folder]
            cmd = [exe, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless",
                   "--infilter=HTML (StarWriter)", "--convert-to", f"pdf:writer_pdf_Export:{FILTER}",
                   "--outdir", str(folder), *files]
            subprocess.run(cmd, capture_output=True, timeout=1200, check=False)


PRINTERS: dict[str, tuple[Callable[[list[Path]], None], Callable[[], str | None]]] = {
    "chromium": (print_chromium, _chromium),
    "libreoffice": (print_libreoffice, lambda: shutil.which("soffice") or shutil.which("libreoffice")),
}


def available(name: str) -> bool:
    """Whether the exporter's program is installed."""
    return PRINTERS[name][1]() is not None


def tags_of(pdf: Path) -> tuple[bool, int]:
    """Whether the PDF has a structure tree, and how many Table elements it declares."""
    with pymupdf.open(pdf) as d:
        cat = d.pdf_catalog()
        if d.xref_get_key(cat, "StructTreeRoot")[0] in ("null", "undefined"):
            return False, 0
        tables = 0
        for x in range(1, d.xref_length()):
            try:
                if d.xref_get_key(x, "S") == ("name", "/Table"):
                    tables += 1
            except (RuntimeError, ValueError):
                continue
        return True, tables

"""Print an HTML document to a tagged PDF with headless Chromium (Debian's chromium), as a
browser's "Save as PDF" does: the PDFs a real exporter writes, for the tagged layer's tests.
A test that needs it is skipped where no chromium is installed."""

from __future__ import annotations

import html
import shutil
from pathlib import Path

import pytest

from tests.html_page import export, write_page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")


def print_html(body: str, path: Path, css: str = "", lang: str = "en") -> Path:
    """`body` (HTML) printed by headless Chromium to the PDF `path`."""
    assert CHROMIUM is not None
    page = write_page(body, path, f"table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #777; "
                      f"padding: 2pt 5pt; }} {css}", lang)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
           f"--user-data-dir={path.parent / 'chromium-profile'}", f"--print-to-pdf={path}", page.resolve().as_uri()]
    return export(cmd, path, 120, "chromium")


def rows_html(rows: list[list[str]], tag: str = "td") -> str:
    """TRs of plain cells."""
    return "".join("<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in r) + "</tr>" for r in rows)

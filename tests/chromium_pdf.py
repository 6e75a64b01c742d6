"""Print an HTML document to a tagged PDF with headless Chromium (Debian's chromium), as a
browser's "Save as PDF" does: the PDFs a real exporter writes, for the tagged layer's tests.
A test that needs it is skipped where no chromium is installed."""

from __future__ import annotations

import html
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")


def print_html(body: str, path: Path, css: str = "", lang: str = "en") -> Path:
    """`body` (HTML) printed by headless Chromium to the PDF `path`."""
    assert CHROMIUM is not None
    page = path.with_suffix(".html")
    page.write_text(f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><style>'
                    'body { font-family: "DejaVu Sans", "IPAPGothic"; font-size: 10pt; } '
                    'table { border-collapse: collapse; } td, th { border: 1px solid #777; padding: 2pt 5pt; } '
                    f"{css}</style></head><body>{body}</body></html>", encoding="utf-8")
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
           f"--user-data-dir={path.parent / 'chromium-profile'}", f"--print-to-pdf={path}", page.resolve().as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    assert path.exists(), "chromium wrote no PDF"
    return path


def rows_html(rows: list[list[str]], tag: str = "td") -> str:
    """TRs of plain cells."""
    return "".join("<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in r) + "</tr>" for r in rows)

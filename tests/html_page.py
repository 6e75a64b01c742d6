"""The HTML page a test prints to a tagged PDF with a real exporter (tests.chromium_pdf,
tests.libreoffice_pdf): one page shell and one way to run the exporter; each exporter module
keeps its own styles and command line."""

from __future__ import annotations

import subprocess
from pathlib import Path

_BODY = 'body { font-family: "DejaVu Sans", "IPAPGothic"; font-size: 10pt; } '


def write_page(body: str, path: Path, css: str, lang: str) -> Path:
    """`body` in an HTML page beside the PDF `path` (its name, .html), with the shared body
    font and `css`."""
    page = path.with_suffix(".html")
    page.write_text(f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><style>'
                    f"{_BODY}{css}</style></head><body>{body}</body></html>", encoding="utf-8")
    return page


def export(cmd: list[str], path: Path, timeout: float, exporter: str) -> Path:
    """The PDF `path` the exporter's command line `cmd` writes."""
    subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
    assert path.exists(), f"{exporter} wrote no PDF"
    return path

"""Writing generated test pages cell by cell: embedded fonts (DejaVu Sans/Serif, PyMuPDF's
CJK font), left- or right-aligned text at a point, and the extractor's grids of a page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for

_FILES = {"sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
          "serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
          "bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"}


def font(name: str) -> pymupdf.Font:
    """The font registered on pages as `name` ("sans", "serif", "bold", "cjk")."""
    return pymupdf.Font("cjk") if name == "cjk" else pymupdf.Font(fontfile=_FILES[name])


def new_page(doc: pymupdf.Document, width: float = 595, height: float = 842) -> pymupdf.Page:
    """A page with every test font embedded under its name."""
    page = doc.new_page(width=width, height=height)
    for name, path in _FILES.items():
        page.insert_font(fontname=name, fontfile=path)
    page.insert_font(fontname="cjk", fontbuffer=pymupdf.Font("cjk").buffer)
    return page


def width(text: str, size: float = 9, face: str = "sans") -> float:
    """Printed width of `text`."""
    return font(face).text_length(text, fontsize=size)


def put(page: pymupdf.Page, x: float, y: float, text: str, size: float = 9, face: str = "sans",
        align: str = "left") -> None:
    """`text` on its baseline `y`, starting at `x` (align "left") or ending there ("right")."""
    if align == "right":
        x -= width(text, size, face)
    page.insert_text((x, y), text, fontsize=size, fontname=face)


def centred(page: pymupdf.Page, mid: float, y: float, text: str, size: float = 8, face: str = "sans") -> None:
    """`text` on its baseline `y`, centred on `mid`."""
    put(page, mid - width(text, size, face) / 2, y, text, size, face)


def grids(doc: pymupdf.Document, path: Path) -> list[list[list[str]]]:
    """Save `doc` to `path` and return the PyMuPDF layer's grids of its first page."""
    doc.save(path)
    return [t.grid() for t in PyMuPDFExtractor().extract(doc_for(path), [1]).tables]


def rows_page(path: Path, title: str, rows: list[tuple[str, ...]], xs: tuple[float, ...],
              top: float = 90, pitch: float = 12) -> Path:
    """A page with a bold `title` and a borderless table: `rows` at `xs`, the first row bold."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, xs[0], 60, title, 11, "bold")
    for i, row in enumerate(rows):
        for x, text in zip(xs, row, strict=True):
            put(page, x, top + pitch * i, text, face="bold" if i == 0 else "sans")
    doc.save(path)
    return path


def ruled_records(page: pymupdf.Page, xs: tuple[float, ...], header: tuple[str, ...],
                  records: list, pitch: float, top: float = 80.0) -> None:
    """A fully ruled table at `xs`: a bold `header`, then one row per record, each cell a list
    of lines `pitch` apart (an empty line left blank), each row as tall as its longest cell."""
    ys = [top]
    for h in [16.0] + [8.0 + pitch * max(len(c) for c in rec) for rec in records]:
        ys.append(ys[-1] + h)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x, text in zip(xs, header, strict=False):
        put(page, x + 3, ys[0] + 11, text, 8, "bold")
    for i, rec in enumerate(records):
        for x, lines in zip(xs, rec, strict=False):
            for k, line in enumerate(lines):
                if line:
                    put(page, x + 3, ys[i + 1] + 11 + pitch * k, line, 8)

"""The second opinion: text lines read with pdfium (pypdfium2, which pdfplumber already
requires) for files MuPDF cannot open or repairs into nothing (an xref loop, a broken object
stream). Text only: no tables, no classification beyond "has text"; the pipeline turns the
lines into text chunks so such a document is searchable instead of failed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.config import env_passwords
from rowkeeper.errors import BadInput
from rowkeeper.models import DocumentInput, PageInfo, TextLine


def _open(doc: DocumentInput, passwords: Sequence[str]):  # -> pypdfium2.PdfDocument
    import pypdfium2 as pdfium

    last: Exception | None = None
    for pw in (None, doc.password, *passwords, *env_passwords()):
        try:
            return pdfium.PdfDocument(doc.path, password=pw)
        except pdfium.PdfiumError as e:
            last = e
    raise BadInput(f"{doc.source}: pdfium cannot open it either ({last})")


def _page_lines(pno: int, page, height: float) -> list[TextLine]:
    """One TextLine per text rectangle pdfium reports (a run of text on one line), top-left
    coordinates. One nominal font size for all: glyph boxes vary with the letters, and sizes
    read from them would turn random lines into headings."""
    textpage = page.get_textpage()
    try:
        out = []
        for i in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(i)
            text = textpage.get_text_bounded(left, bottom, right, top).strip()
            if text:
                out.append(TextLine(page=pno, bbox=(left, height - top, right, height - bottom),
                                    text=" ".join(text.split()), font_size=10.0))
        return out
    finally:
        textpage.close()


def read_text(doc: DocumentInput, passwords: Sequence[str] = (),
              max_pages: int = 2000) -> tuple[tuple[PageInfo, ...], tuple[TextLine, ...]]:
    """Pages (all 'text', with their character counts) and text lines read by pdfium; BadInput
    when pdfium cannot open the file or reads no text at all."""
    pdf = _open(doc, passwords)
    try:
        pages: list[PageInfo] = []
        lines: list[TextLine] = []
        for i in range(min(len(pdf), max_pages)):
            page = pdf[i]
            try:
                width, height = page.get_size()
                found = _page_lines(i + 1, page, height)
            finally:
                page.close()
            chars = sum(len(ln.text.replace(" ", "")) for ln in found)
            pages.append(PageInfo(page=i + 1, kind="text", chars=chars, image_coverage=0.0,
                                  width=round(width, 2), height=round(height, 2)))
            lines.extend(found)
    finally:
        pdf.close()
    if not lines:
        raise BadInput(f"{doc.source}: pdfium opens it but reads no text")
    return tuple(pages), tuple(lines)

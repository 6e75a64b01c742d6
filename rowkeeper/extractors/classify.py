"""Page classification: does a page carry a usable text layer (text) or need OCR (scanned)?

Decided per page from three figures PyMuPDF gives cheaply: real text characters, the fraction
of the page covered by images, and the share of garbage characters in the text layer
((cid:x) escapes, U+FFFD, control and private-use code points), which is what a font without a
ToUnicode map produces. Thresholds come from `ClassifyConfig`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import pymupdf

from rowkeeper.config import ClassifyConfig
from rowkeeper.errors import BadInput
from rowkeeper.extractors.page_model import DocumentModel, PageModel, document_of
from rowkeeper.models import DocKind, DocumentInput, PageInfo

_CID = re.compile(r"\(cid:\d+\)")
_BAD_CATEGORIES = {"Cc", "Co", "Cs", "Cn"}
_SUSPECT = re.compile(r"[^\x20-\x7e]")


def text_stats(text: str) -> tuple[int, float]:
    """(real characters, garbled ratio) of a page's text; whitespace is not counted."""
    # most pages hold no "(cid:" escape at all: one substring test instead of two regex scans
    cids = len(_CID.findall(text)) if "(cid:" in text else 0
    body = _CID.sub("", text) if cids else text
    chars = "".join(body.split())  # str.split drops exactly the chars str.isspace calls blank
    # printable ASCII is never garbage: only controls and non-ASCII need their category looked up
    bad = sum(1 for c in _SUSPECT.findall(chars) if c == "\ufffd" or unicodedata.category(c) in _BAD_CATEGORIES)
    total = len(chars) + cids
    if total == 0:
        return 0, 0.0
    return total - bad - cids, (bad + cids) / total


def image_coverage(page: pymupdf.Page, infos: Sequence[dict] | None = None) -> float:
    """Fraction of the page area covered by images (overlaps counted once, on a coarse grid);
    `infos`: the page's get_image_info(), when already read."""
    area = page.rect.width * page.rect.height
    if area <= 0:
        return 0.0
    infos = page.get_image_info() if infos is None else infos
    boxes = [pymupdf.Rect(info["bbox"]) & page.rect for info in infos]
    boxes = [b for b in boxes if not b.is_empty]
    if not boxes:
        return 0.0
    if len(boxes) == 1:
        return min(1.0, boxes[0].get_area() / area)
    return _grid_coverage(page.rect, boxes)


def _grid_coverage(rect: pymupdf.Rect, boxes: Sequence[pymupdf.Rect], n: int = 64) -> float:
    # Overlapping tiles (scanners often split a page into strips) must not count twice.
    sx, sy = rect.width / n, rect.height / n
    hit = 0
    for i in range(n):
        for j in range(n):
            x, y = rect.x0 + (i + 0.5) * sx, rect.y0 + (j + 0.5) * sy
            hit += any(b.x0 <= x <= b.x1 and b.y0 <= y <= b.y1 for b in boxes)
    return hit / (n * n)


def page_kind(chars: int, coverage: float, garbled: float, config: ClassifyConfig) -> str:
    """'scanned' or 'text' from a page's figures (see ClassifyConfig for the thresholds)."""
    if chars > 0 and garbled > config.max_garbled_ratio:
        return "scanned"  # a text layer of garbage is worse than none: OCR the page
    if coverage >= config.scanned_image_coverage and chars < config.min_chars_with_image:
        return "scanned"
    if coverage > 0 and chars < config.min_text_chars:
        return "scanned"
    return "text"


def classify_page(page: pymupdf.Page | PageModel, config: ClassifyConfig) -> PageInfo:
    """Classify one page (a PyMuPDF page, or its page model: read from the model's caches)."""
    view = page if isinstance(page, PageModel) else PageModel(page, page.number + 1)
    page = view.page
    chars, garbled = text_stats(view.plain_text)
    coverage = image_coverage(page, view.image_info)
    return PageInfo(
        page=page.number + 1,
        kind=page_kind(chars, coverage, garbled, config),  # type: ignore[arg-type]
        chars=chars,
        image_coverage=round(coverage, 4),
        garbled_ratio=round(garbled, 4),
        width=round(page.rect.width, 2),
        height=round(page.rect.height, 2),
        rotation=page.rotation,
    )


def classify_document(
    doc: DocumentInput, config: ClassifyConfig, passwords: Sequence[str] = (),
    model: DocumentModel | None = None,
) -> tuple[PageInfo, ...]:
    """Per-page classification (read from `model` when open); BadInput for a corrupt, non-PDF
    or unopenable encrypted file."""
    with document_of(doc, model, passwords) as m:
        pdf = m.pdf
        pages = tuple(classify_page(view, config) for view in m.pages())
        if pdf.is_repaired and all(p.chars == 0 and p.image_coverage == 0 for p in pages):
            # MuPDF "repairs" a truncated file into blank pages: that is damage, not a blank doc.
            raise BadInput(f"{doc.source}: damaged PDF (xref repaired, no readable page content)")
    return pages


def document_kind(pages: Sequence[PageInfo]) -> DocKind:
    """'text' or 'scanned' when every page is, else 'mixed' (an empty document is 'text')."""
    kinds = {p.kind for p in pages}
    if kinds == {"scanned"}:
        return "scanned"
    if kinds <= {"text"}:
        return "text"
    return "mixed"

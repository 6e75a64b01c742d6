"""Images drawn on PDF pages (PyMuPDF): their boxes, and a rendered crop of each on demand.

The boxes feed `transforms.evidence`, which attaches images inside tables to table rows; the
flow writes the crops next to the run's output so a chunk can cite the picture itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from rowkeeper.extractors.page_model import DocumentModel, document_of
from rowkeeper.models import DocumentInput, ImageRef

MIN_SIDE = 2.0
"""Images thinner than this (points) are rules or spacers, not pictures."""


def image_id(doc_id: str, page: int, n: int) -> str:
    """`<doc_id[:12]>:p<page>.i<n>`: the n-th image placed on a page (1-based)."""
    return f"{doc_id[:12]}:p{page}.i{n}"


def images_of_page(page: pymupdf.Page, doc_id: str, pno: int,
                   infos: Sequence[dict] | None = None) -> list[ImageRef]:
    """Every placement of a raster image on the page, in drawing order, clipped to the page;
    `infos`: the page's get_image_info(), when already read."""
    out: list[ImageRef] = []
    for info in page.get_image_info() if infos is None else infos:
        rect = pymupdf.Rect(info["bbox"]) & page.rect
        if rect.is_empty or rect.width < MIN_SIDE or rect.height < MIN_SIDE:
            continue
        out.append(ImageRef(image_id=image_id(doc_id, pno, len(out) + 1), page=pno,
                            bbox=(round(rect.x0, 2), round(rect.y0, 2),
                                  round(rect.x1, 2), round(rect.y1, 2)),
                            width=int(info.get("width", 0)), height=int(info.get("height", 0))))
    return out


def read_images(doc: DocumentInput, pages: Sequence[int] | None = None,
                model: DocumentModel | None = None) -> tuple[ImageRef, ...]:
    """Images placed on `pages` (1-based; all pages when None) with their page boxes; read
    from `model` when the document is open."""
    with document_of(doc, model) as m:
        return tuple(img for v in m.pages(pages) for img in images_of_page(v.page, doc.doc_id, v.pno, v.image_info))


def crop_png(doc: DocumentInput, image: ImageRef, dpi: int = 144, model: DocumentModel | None = None) -> bytes:
    """The page area under `image`, rendered as PNG (what a reader sees, overlays included)."""
    with document_of(doc, model) as m:
        pix = m.pdf[image.page - 1].get_pixmap(clip=pymupdf.Rect(image.bbox), dpi=dpi)
        return bytes(pix.tobytes("png"))

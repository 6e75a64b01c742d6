"""Pictures of pages: crops of the images inside tables (so chunks can cite the picture itself),
and page renders for report.html (a thumbnail and an enlarged view per page, boxes overlaid)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rowkeeper.config import env_passwords
from rowkeeper.models import DocumentInput, ImageRef, Table

if TYPE_CHECKING:  # the run process writes report.html without PyMuPDF or the page model
    from rowkeeper.extractors.page_model import DocumentModel

CROPS_DIR = "images"
"""Crops live under `<out>/images/<doc_id[:12]>/`, and chunks cite them relative to `<out>`."""


def crop_name(image: ImageRef) -> str:
    """A file name for the image's crop (its id with path-unsafe characters replaced)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", image.image_id) + ".png"


def write_crops(doc: DocumentInput, images: Sequence[ImageRef], tables: Sequence[Table],
                out: str | os.PathLike[str], model: DocumentModel | None = None) -> tuple[ImageRef, ...]:
    """Crop every image inside a table into `out` (rendered from `model` when open); return all
    images, crop_path set on those."""
    from rowkeeper.extractors.images import crop_png
    from rowkeeper.transforms.evidence import in_table

    folder = Path(out) / CROPS_DIR / doc.doc_id[:12]
    result: list[ImageRef] = []
    for img in images:
        if not any(in_table(t, img) for t in tables):
            result.append(img)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / crop_name(img)
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_bytes(crop_png(doc, img, model=model))
            tmp.replace(path)  # atomic: a rerun never leaves a half-written crop
        finally:  # a full disk: no half crop left (the caller goes on without crops)
            tmp.unlink(missing_ok=True)
        result.append(img.model_copy(update={"crop_path": path.relative_to(out).as_posix()}))
    return tuple(result)


QUALITY = 60
"""Modest lossy quality: the report is for reading, and pages are many."""


@dataclass(frozen=True)
class PageImage:
    """A page rendered at some widths, as data URIs, and the page's shown size in points."""

    uris: tuple[str, ...]
    width: float
    height: float
    boxes: tuple[tuple[float, float, float, float], ...]
    """The boxes asked for, carried into the shown (rotated) page's coordinates."""


def _encoded(pix: Any) -> str:
    """The page as a JPEG data URI, encoded by Pillow's libjpeg-turbo (which pdfplumber brings).
    JPEG, not WebP: at 1400 px WebP's fastest method took 46-63 ms a page against JPEG's 6-11 ms
    for ~25% fewer bytes, and was most of a run's picture CPU (bench/RESULTS.md, speed6); text
    at this quality and width stays as legible (report_html's byte budget allows for the bytes).
    Without Pillow, PyMuPDF's own JPEG encoder (the same picture, slower)."""
    try:
        from PIL import Image
    except ImportError:
        data = pix.tobytes("jpeg", jpg_quality=QUALITY)
    else:
        buf = io.BytesIO()
        mode = "RGB" if pix.n >= 3 else "L"
        # samples_mv: the pixmap's own memory, not a copy of it (`samples` copied ~8 MB a page)
        Image.frombytes(mode, (pix.width, pix.height), pix.samples_mv).save(buf, "JPEG", quality=QUALITY)
        data = buf.getvalue()
    return "data:image/jpeg;base64," + base64.b64encode(data).decode()


@dataclass(frozen=True)
class PageRender:
    """A page's pictures by pixel width (data URIs), its shown size and the matrix that carries
    unrotated boxes onto it: what a render yields before any box is placed."""

    uris: dict[int, str]
    width: float
    height: float
    rotation: tuple[float, ...]


def render_pictures(source: str, page: int, widths: Sequence[int]) -> PageRender | None:
    """`page` (1-based) of `source` rendered once per pixel width, or None if it cannot be read."""
    return render_document_pictures(source, [(page, widths)]).get(page)


def render_document_pictures(source: str, wanted: Sequence[tuple[int, Sequence[int]]]) -> dict[int, PageRender]:
    """Each (page, widths) of `wanted` rendered as `render_pictures` does, the PDF opened once;
    a page that cannot be read is left out."""
    import pymupdf

    got: dict[int, PageRender] = {}
    try:
        with pymupdf.open(source) as pdf:
            if pdf.needs_pass and not any(pdf.authenticate(p) for p in env_passwords()):
                return got
            for page, widths in wanted:
                with contextlib.suppress(Exception):  # a missing picture must not cost the report
                    got[page] = _rendered(pdf[page - 1], widths)
    except Exception:  # noqa: BLE001 - an unreadable file: no pictures, the report says "page N"
        pass
    return got


def _rendered(pg: Any, widths: Sequence[int]) -> PageRender:
    import pymupdf

    size = pg.rect
    uris = {w: _encoded(pg.get_pixmap(matrix=pymupdf.Matrix(w / size.width, w / size.width), alpha=False))
            for w in widths}
    return PageRender(uris=uris, width=size.width, height=size.height, rotation=tuple(pg.rotation_matrix))


def pictures_to_json(got: dict[int, PageRender]) -> str:
    """Rendered pages as JSON (a worker's reply to the run process)."""
    return json.dumps([{"page": p, "uris": {str(w): u for w, u in r.uris.items()}, "width": r.width,
                        "height": r.height, "rotation": list(r.rotation)} for p, r in got.items()])


def pictures_from_json(text: str) -> dict[int, PageRender]:
    """`pictures_to_json`'s pages back."""
    return {int(d["page"]): PageRender(uris={int(w): u for w, u in d["uris"].items()}, width=d["width"],
                                       height=d["height"], rotation=tuple(d["rotation"]))
            for d in json.loads(text)}


def render_page(source: str, page: int, widths: Sequence[int],
                boxes: Sequence[Sequence[float]] = (), rendered: PageRender | None = None) -> PageImage | None:
    """`page` (1-based) of `source` rendered once per pixel width, or None if it cannot be read.
    `boxes` are in the page's unrotated coordinates (those of every bbox rowkeeper writes);
    `rendered`: the page already rendered (flows.page_pictures), used when it has every width."""
    if rendered is None or any(w not in rendered.uris for w in widths):
        rendered = render_pictures(source, page, widths)
        if rendered is None:
            return None
    shown = shown_boxes(rendered.rotation, boxes)
    return PageImage(uris=tuple(rendered.uris[w] for w in widths), width=rendered.width,
                     height=rendered.height, boxes=tuple((b[0], b[1], b[2], b[3]) for b in shown))


_UPRIGHT = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_FLOAT = struct.Struct("f")


def shown_boxes(rotation: Sequence[float], boxes: Sequence[Sequence[float]]) -> list[tuple[float, ...]]:
    """`boxes` carried by the page's rotation matrix into the shown page, as PyMuPDF's
    `Rect * Matrix` does (in MuPDF's single-precision floats). A page not turned needs no
    PyMuPDF: its boxes are only rounded to single precision, which is all that product does
    with the identity (so the run process, whose workers rendered the pictures, imports none)."""
    if tuple(rotation) == _UPRIGHT:
        return [tuple(_FLOAT.unpack(_FLOAT.pack(v))[0] for v in b) for b in boxes]
    import pymupdf

    m = pymupdf.Matrix(rotation)
    return [tuple(pymupdf.Rect(b) * m) for b in boxes]

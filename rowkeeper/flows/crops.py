"""Write crops of the images that lie inside tables, so chunks can cite the picture itself."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from rowkeeper.extractors.images import crop_png
from rowkeeper.models import DocumentInput, ImageRef, Table
from rowkeeper.transforms.evidence import in_table

CROPS_DIR = "images"
"""Crops live under `<out>/images/<doc_id[:12]>/`, and chunks cite them relative to `<out>`."""


def crop_name(image: ImageRef) -> str:
    """A file name for the image's crop (its id with path-unsafe characters replaced)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", image.image_id) + ".png"


def write_crops(doc: DocumentInput, images: Sequence[ImageRef], tables: Sequence[Table],
                out: str | os.PathLike[str]) -> tuple[ImageRef, ...]:
    """Crop every image inside a table into `out`; return all images, crop_path set on those."""
    folder = Path(out) / CROPS_DIR / doc.doc_id[:12]
    result: list[ImageRef] = []
    for img in images:
        if not any(in_table(t, img) for t in tables):
            result.append(img)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / crop_name(img)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(crop_png(doc, img))
        tmp.replace(path)  # atomic: a rerun never leaves a half-written crop
        result.append(img.model_copy(update={"crop_path": path.relative_to(out).as_posix()}))
    return tuple(result)

"""Sideways pages: text printed at 90/180 degrees on a page shown upright (or a /Rotate page
whose text runs sideways in its unrotated space) is read on an upright copy, and what is found
there is mapped back to the original page's coordinates."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pymupdf

from rowkeeper.models import BBox, RawTable

_UPRIGHT_FOR_DIR = {(0, -1): 90, (0, 1): 270, (-1, 0): 180, (1, 0): 0}
"""/Rotate that shows text running in this (unrotated-space) direction left to right."""


def upright_rotation(d: dict[str, Any], rotation: int, min_share: float = 0.6) -> int | None:
    """The /Rotate that shows the page's dominant text direction upright, None when the page
    reads upright unrotated with /Rotate 0 (or has no dominant direction): the chars of most
    of the page's text run one way (a landscape table printed sideways on a portrait page, or
    a page whose /Rotate turns sideways text upright for the reader)."""
    weight: dict[int, int] = {}
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            want = _UPRIGHT_FOR_DIR.get((round(line["dir"][0]), round(line["dir"][1])))
            n = sum(len(s["text"].strip()) for s in line["spans"])
            if want is not None and n:
                weight[want] = weight.get(want, 0) + n
    total = sum(weight.values())
    if not total:
        return None
    want, n = max(weight.items(), key=lambda kv: kv[1])
    if n < min_share * total or (want == 0 and rotation % 360 == 0):
        return None
    # A /Rotate page that displays its text upright still has it sideways in the unrotated
    # space the text dict, words and rulings are read in: it is read on an upright copy too.
    return want


@contextmanager
def upright_copy(pdf: pymupdf.Document, pno: int, rotation: int) -> Iterator[tuple[pymupdf.Page, pymupdf.Matrix]]:
    """Page `pno` (1-based) of an in-memory copy, turned to `rotation` and baked upright (the
    rotation moved into the content stream, /Rotate 0), so text, words and ruling segments all
    share upright coordinates; and the matrix mapping them back to the original page's
    unrotated coordinates (those of its text and drawings, whatever its /Rotate)."""
    from pymupdf.table import page_rotation_set0

    copy = pymupdf.open()
    try:
        copy.insert_pdf(pdf, from_page=pno - 1, to_page=pno - 1)
        page = copy[0]
        page.set_rotation(rotation)
        back = page.derotation_matrix
        page, *_ = page_rotation_set0(page)
        yield page, back
    finally:
        copy.close()


def map_table(t: RawTable, m: pymupdf.Matrix) -> RawTable:
    """`t` with its box and its cells' boxes carried through `m` (see `map_bbox`)."""
    return t.model_copy(update={
        "bbox": map_bbox(t.bbox, m),
        "cells": tuple(c.model_copy(update={"bbox": map_bbox(c.bbox, m)}) if c.bbox else c for c in t.cells)})


def unrotated(t: RawTable, page: pymupdf.Page) -> RawTable:
    """A table read in the shown coordinates of a page with a /Rotate (pdfplumber and Camelot
    read pages as shown) in the page's unrotated ones, those of its text and drawings."""
    return map_table(t, page.derotation_matrix) if page.rotation % 360 else t


def map_bbox(b: BBox, m: pymupdf.Matrix) -> BBox:
    """`b` carried through `m`, normalised (x0 < x1, top < bottom), rounded to 0.01 pt."""
    r = pymupdf.Rect(b).transform(m).normalize()
    return (round(r.x0, 2), round(r.y0, 2), round(r.x1, 2), round(r.y1, 2))

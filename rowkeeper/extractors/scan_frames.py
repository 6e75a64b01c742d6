"""Borderless tables on a scan read one frame at a time: a frame bounds the table inside it.

A frame is a ruled box whose rules part no columns (a rule under the header only, or a box
around a form's field row). Its words are read by the borderless finder, but apart from the
words outside it: read together, a block of fields above a framed header-and-values row ran
into it as one table, and the frame's own row was lost to it. Inside a frame two rows make a
table (the frame and its rule are the evidence a third row gives elsewhere); a frame whose words
make none stands as drawn. Pure geometry on `OcrBox`es in pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_tables import PxTable

Finder = Callable[[Sequence[OcrBox], int], list[tuple[PxTable, set[int]]]]
"""The borderless finder: boxes and min_rows in; tables and the indices of the boxes each took."""

FRAMED_ROWS = 2
"""Rows of a table inside a frame, at least, where the page's `min_rows` finds none there."""


def framed_tables(frames: Sequence[tuple[PxTable, set[int]]], rest: Sequence[OcrBox], boxes: Sequence[OcrBox],
                  find: Finder, min_rows: int) -> tuple[list[PxTable], set[int]]:
    """Tables of `rest` (the page's runs outside ruled grids, pictures included), each frame's
    words (`took`: indices into `boxes`) read apart from the others; the ids of the boxes taken."""
    tables: list[PxTable] = []
    taken: set[int] = set()
    inside: set[int] = set()
    for frame, took in frames:
        words = [boxes[j] for j in sorted(took) if id(boxes[j]) not in inside]
        inside |= {id(b) for b in words}
        # the page's rule first: with two rows a table's two header lines would part from its body
        found = (find(words, min_rows) or find(words, FRAMED_ROWS)) if words else []
        if found:
            tables += [t for t, _ in found]
            taken |= {id(words[k]) for _, ids in found for k in ids}
        else:
            tables.append(frame)
            taken |= {id(b) for b in words}
    outside = [b for b in rest if id(b) not in inside]
    found = find(outside, min_rows)
    return tables + [t for t, _ in found], taken | {id(outside[k]) for _, ids in found for k in ids}

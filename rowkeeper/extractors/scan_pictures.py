"""Pictures on a scanned page: solid shapes of ink too large to be a glyph.

A picture column (a product photo, a logo, a chart swatch per row) is a column of cells that
hold no text. On a text page the finder sees an image object there; on a scan it is ink like
any other, and the OCR engines read it as stray words ("m", "©", "ƑP") or glue it to the text
beside it. Pictures are therefore told apart from text by their ink: a connected blot at least
about a line tall and wide, solid (a glyph is strokes, however bold; a photo, a swatch or a
disc is thick all through), not a long band (a dark header band with white text is a band) and
with few holes (text printed in white on a dark box leaves a hole per letter).
"""

from __future__ import annotations

import cv2
import numpy as np

from rowkeeper.extractors.grid_lines import PxBox

GLYPHS = 1.2
"""Side of a picture over the page's typical glyph height (the median height of its ink
components), at least: a thumbnail in a table row is about a line tall, and a glyph that tall
(a capital, a title's letters) fills much less of its box than `FILL`."""
SOLID = 0.4
"""Radius of the widest disc inside the blot over its shortest side, at least: a picture is
solid (a square or a disc: 0.46-0.49 as scanned), a glyph is strokes (a bold title's letters
~0.15; a bold kanji the scan's blur filled in reads 0.3-0.45, hence `APART` too)."""
APART = 0.6
"""Glyph heights of blank paper a picture has on its left and on its right, at least: a glyph,
however solid the scan made it, stands a letter space from the next one in its line."""
ASPECT = 1.8
"""Longest over shortest side, at most (a 16:9 photo is 1.78): a longer blot is a band (a tinted
header, a bar) or a bold word whose letters the scan's blur ran together."""
FILL = 0.65
"""Share of its box the blot's ink covers, at least (a disc 0.785, a square 1; a bold word run
together by blur ~0.6)."""
HOLES = 2
"""White holes a picture may hold; more are letters printed in white on a dark box."""


def picture_boxes(ink: np.ndarray) -> list[PxBox]:
    """Boxes of the pictures in `ink` (255 on 0, rules already removed), top to bottom."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = [int(s[3]) for s in stats[1:n] if s[4] >= 12]
    if not heights:
        return []
    side = GLYPHS * float(np.median(heights))
    out = []
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        if min(w, h) < side or max(w, h) > ASPECT * min(w, h) or a < FILL * w * h:
            continue
        blot = labels[y:y + h, x:x + w] == i
        if _radius(blot) < SOLID * min(w, h) or _holes(blot) > HOLES:
            continue
        if _inked_beside(ink, (x, y, w, h), round(APART * side / GLYPHS)):
            continue
        out.append((float(x), float(y), float(x + w), float(y + h)))
    return sorted(out, key=lambda b: (b[1], b[0]))


def _inked_beside(ink: np.ndarray, box: tuple[int, int, int, int], gap: int) -> bool:
    """Whether ink (more than a speck) lies within `gap` pixels left or right of the box."""
    x, y, w, h = box
    left = ink[y:y + h, max(x - gap, 0):x]
    right = ink[y:y + h, x + w:x + w + gap]
    return bool(np.count_nonzero(left) >= 12 or np.count_nonzero(right) >= 12)


def _radius(blot: np.ndarray) -> float:
    """Radius of the widest disc of ink inside the blot (its thickest point)."""
    inside = np.pad(blot.astype(np.uint8), 1)
    return float(cv2.distanceTransform(inside, cv2.DIST_L2, 3).max())


def _holes(blot: np.ndarray) -> int:
    """White regions enclosed by the blot (letters cut out of it), specks left out."""
    white = np.pad((~blot).astype(np.uint8), 1, constant_values=1)
    n, _, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=4)
    # label 0 is the blot itself (black), the first white label touches the padding outside
    return sum(1 for s in stats[2:n] if s[4] >= 12)


def blank_pictures(gray: np.ndarray, boxes: list[PxBox], pad: int = 2) -> np.ndarray:
    """`gray` with the picture boxes whitened (their ink is not text to read)."""
    out = gray.copy()
    for x0, y0, x1, y1 in boxes:
        out[max(int(y0) - pad, 0):int(y1) + pad, max(int(x0) - pad, 0):int(x1) + pad] = 255
    return out

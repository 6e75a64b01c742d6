"""A table's caption and footnotes: the caption line nearest its edge, the notes under it."""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import BBox, TextLine
from rowkeeper.transforms.context import FOOTNOTE, PageText, is_caption, is_continued

CAPTION_REACH = 40.0
"""Points between a caption line and the table edge it names."""


def _overlaps_x(a: BBox, b: BBox) -> bool:
    return a[0] < b[2] and b[0] < a[2]


def nearest_rows(lines: Sequence[TextLine], n: int = 2) -> list[TextLine]:
    """The lines of the first `n` rows of text in `lines` (given nearest first): the cells of
    one table row, or of a row the table's box left out, stand level and count as one row."""
    out: list[TextLine] = []
    rows: list[TextLine] = []
    for ln in lines:
        y = (ln.bbox[1] + ln.bbox[3]) / 2
        if not any(r.bbox[1] < y < r.bbox[3] for r in rows):
            if len(rows) == n:
                break
            rows.append(ln)
        out.append(ln)
    return out


def _caption_pairs(text: dict[int, PageText],
                   boxes: Sequence[tuple[int, BBox]]) -> list[tuple[str, float, int, TextLine]]:
    """(side, gap, box index, line) for each caption line among the two rows of text nearest a
    box's top or bottom edge, over the box's columns; a continuation caption names no table
    below."""
    out = []
    for i, (page, bbox) in enumerate(boxes):
        pt = text.get(page)
        if pt is None:
            continue
        # text in another column of the page stands beside the table, not between it and
        # its caption
        for ln in nearest_rows([ln for ln in pt.above(bbox, CAPTION_REACH) if _overlaps_x(ln.bbox, bbox)]):
            if is_caption(ln.text):
                out.append(("above", bbox[1] - ln.bbox[3], i, ln))
        for ln in nearest_rows([ln for ln in pt.below(bbox, CAPTION_REACH) if _overlaps_x(ln.bbox, bbox)]):
            if is_caption(ln.text) and not is_continued(ln.text):
                out.append(("below", ln.bbox[1] - bbox[3], i, ln))
    return out


def assign_captions(text: dict[int, PageText],
                    boxes: Sequence[tuple[int, BBox]]) -> dict[int, TextLine]:
    """Captions for all table boxes of a document at once: each caption line names one table
    and each table gets one line, the nearest, on the side the document sets its captions
    (above, unless more tables have one below). Asked box by box, the caption under one table
    of a stack is also the line over the next, and both tables would take it."""
    pairs = _caption_pairs(text, boxes)
    votes = {side: len({i for s, _, i, _ in pairs if s == side}) for side in ("above", "below")}
    prefer = "below" if votes["below"] > votes["above"] else "above"
    out: dict[int, TextLine] = {}
    taken: set[tuple[int, BBox]] = set()
    for _side, _gap, i, ln in sorted(pairs, key=lambda p: (p[0] != prefer, p[1])):
        if i not in out and (ln.page, ln.bbox) not in taken:
            out[i] = ln
            taken.add((ln.page, ln.bbox))
    return out


def find_caption(text: PageText | None, bbox: BBox, page: int = 0) -> TextLine | None:
    """The caption of a table box when it is the only table around (see `assign_captions`)."""
    return assign_captions({page: text} if text else {}, [(page, bbox)]).get(0)


def find_footnotes(text: PageText | None, bbox: BBox) -> tuple[str, ...]:
    """Footnote lines directly below a table box (`※ …`, `* …`, `Note: …` and their wrap)."""
    if text is None:
        return ()
    notes: list[TextLine] = []
    bottom = bbox[3]
    for ln in text.below(bbox, 400.0):
        gap = ln.bbox[1] - bottom
        height = max(ln.bbox[3] - ln.bbox[1], 6.0)
        if gap > (30.0 if not notes else 1.2 * height):
            break
        if FOOTNOTE.match(ln.text.strip()) and not is_caption(ln.text):
            notes.append(ln)
        elif notes and ln.font_size <= notes[-1].font_size + 0.1 and not ln.bold:
            notes[-1] = notes[-1].model_copy(update={"text": notes[-1].text + " " + ln.text})
        elif not is_caption(ln.text):
            break
        bottom = ln.bbox[3]
    return tuple(n.text.strip() for n in notes)

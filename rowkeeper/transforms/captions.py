"""A table's caption and footnotes: the caption line nearest its edge, the notes under it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rowkeeper.caption_text import is_caption, is_caption_label, is_continued
from rowkeeper.label_text import clean_text
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import PageColumns
from rowkeeper.transforms.context import FOOTNOTE, PageText

CAPTION_REACH = 40.0
"""Points between a caption line and the table edge it names."""

TAB_REACH = 4.0
"""Line heights between a caption's label and its title set beside it at a tab stop."""

CENTRED_TOL = 3.0
"""Points between the middles of two lines set centred on one axis."""


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


def _continues(prev: TextLine, ln: TextLine, first: TextLine, any_type: bool = False) -> bool:
    """Whether `ln` is the next line of a caption wrapped after `prev`: set right under it (less
    than half a line of white, where a paragraph after a caption leaves a line or more), in the
    same type (`any_type`: under a label alone, its title in a type of its own), starting within
    the caption's first line (flush, indented, centred) or centred on it and wider, and no
    caption or note of its own."""
    height = max(prev.bbox[3] - prev.bbox[1], 4.0)
    gap = ln.bbox[1] - prev.bbox[3]
    return (-0.25 * height <= gap <= 0.5 * height
            and (any_type or (ln.bold == prev.bold and abs(ln.font_size - prev.font_size) <= 0.3))
            and (first.bbox[0] - 2.0 <= ln.bbox[0] < first.bbox[2] or _centred_under(ln, first))
            and not is_caption(ln.text) and not FOOTNOTE.match(ln.text.strip()))


def _centred_under(ln: TextLine, first: TextLine) -> bool:
    """Whether `ln` is centred on the caption's first line and wider than it (a centred
    caption's longer second line starts left of the first)."""
    return ln.bbox[0] < first.bbox[0] and abs(ln.bbox[0] + ln.bbox[2] - first.bbox[0] - first.bbox[2]) <= 2 * CENTRED_TOL


def _title_beside(pt: PageText, label: TextLine, columns: PageColumns | None) -> TextLine | None:
    """The title set on a caption label's line at a tab stop (`Table 18.`, then `Actual and
    projected …` with its wrapped lines hung under it): the nearest line level with the label
    on its right, within `TAB_REACH` line heights, about its size, in its column box, and no
    caption of its own."""
    height = max(label.bbox[3] - label.bbox[1], 4.0)
    y = (label.bbox[1] + label.bbox[3]) / 2
    box = columns.box_of(label) if columns is not None else 0
    beside = [ln for ln in pt.lines if ln.bbox[1] < y < ln.bbox[3]
              and -1.0 <= ln.bbox[0] - label.bbox[2] <= TAB_REACH * height
              and abs(ln.font_size - label.font_size) <= 1.0 and not is_caption(ln.text)
              and (columns is None or columns.box_of(ln) == box)]
    return min(beside, key=lambda ln: ln.bbox[0], default=None)


def caption_block(pt: PageText, first: TextLine, limit: float | None = None,
                  columns: PageColumns | None = None) -> list[TextLine]:
    """The lines of the caption that starts with `first`: it, the title set beside a label
    alone (`_title_beside`) and the lines it wraps onto (`_continues`, under the title where
    one stands beside the label; under a label alone, its title's line in any type), each
    standing alone on its row (a header row the table's box left out has labels beside it;
    with the page's `columns`, in its column box: the next column's caption may stand level
    with its second line); with `limit`, only lines ending above it (the top of the table
    under the caption)."""
    label = is_caption_label(first.text)
    title = _title_beside(pt, first, columns) if label else None
    head = title or first
    out = [first] if title is None else [first, title]
    for ln in pt.lines:
        if ln.bbox[1] <= out[-1].bbox[1] or not _overlaps_x(ln.bbox, head.bbox):
            continue
        if ln.bbox[1] - out[-1].bbox[3] > 0.5 * max(out[-1].bbox[3] - out[-1].bbox[1], 4.0):
            break
        if (limit is not None and ln.bbox[3] > limit + 3) \
                or not _continues(out[-1], ln, head, label and len(out) == 1) or pt.in_a_row(ln, columns):
            break
        out.append(ln)
    return out


def caption_line(lines: Sequence[TextLine]) -> TextLine:
    """One line for a caption's lines: their text joined (no space where a CJK character meets
    the break), their boxes united."""
    if len(lines) == 1:
        return lines[0]
    box = (min(ln.bbox[0] for ln in lines), lines[0].bbox[1], max(ln.bbox[2] for ln in lines), lines[-1].bbox[3])
    return lines[0].model_copy(update={"text": clean_text("\n".join(ln.text for ln in lines)), "bbox": box})


def caption_continuations(pt: PageText) -> set[int]:
    """ids of the lines of a page that continue a wrapped caption (no heading, for one)."""
    return {id(ln) for first in pt.lines if is_caption(first.text) for ln in caption_block(pt, first)[1:]}


def _caption_pairs(text: dict[int, PageText], boxes: Sequence[tuple[int, BBox]],
                   columns: Mapping[int, PageColumns]) -> list[tuple[str, float, int, TextLine]]:
    """(side, gap, box index, caption) for each caption among the two rows of text nearest a
    box's top or bottom edge, over the box's columns (a caption above counts by its last line,
    the one nearest the table); a continuation caption names no table below."""
    out = []
    for i, (page, bbox) in enumerate(boxes):
        pt = text.get(page)
        if pt is None:
            continue
        # text in another column of the page stands beside the table, not between it and
        # its caption
        near = nearest_rows([ln for ln in pt.above(bbox, CAPTION_REACH) if _overlaps_x(ln.bbox, bbox)])
        ends = {id(ln) for ln in near}
        for ln in pt.lines:
            if ln.bbox[3] <= bbox[1] + 3 and is_caption(ln.text) and _overlaps_x(ln.bbox, bbox):
                block = caption_block(pt, ln, bbox[1], columns.get(page))
                if id(block[-1]) in ends or _lead_in_between(pt, block[-1], bbox):
                    out.append(("above", bbox[1] - block[-1].bbox[3], i, caption_line(block)))
        # the table's notes stand between it and a caption set under them
        notes = {id(ln) for note in _note_lines(pt, bbox) for ln in note}
        reach = CAPTION_REACH + max((ln.bbox[3] - bbox[3] for ln in pt.lines if id(ln) in notes), default=0.0)
        for ln in nearest_rows([ln for ln in pt.below(bbox, reach)
                                if _overlaps_x(ln.bbox, bbox) and id(ln) not in notes]):
            if is_caption(ln.text) and not is_continued(ln.text):
                out.append(("below", ln.bbox[1] - bbox[3], i, caption_line(caption_block(pt, ln, columns=columns.get(page)))))
    return out


LEAD_IN_ROWS = 3
"""Rows of a paragraph set between a caption and its table that leave the caption its table."""


def _lead_in_between(pt: PageText, last: TextLine, bbox: BBox) -> bool:
    """Whether only a short paragraph stands between a caption (its last line `last`) and the
    table under it (`Table 2: Financial literacy`, then two lines saying what the table holds,
    then the table), each of its lines set tight under the one before, the first under the
    caption and the table right under the last: the caption names the table across it."""
    between = [ln for ln in pt.lines if ln.bbox[1] > (last.bbox[1] + last.bbox[3]) / 2 and ln.bbox[3] <= bbox[1] + 3
               and _overlaps_x(ln.bbox, bbox)]
    rows = nearest_rows(sorted(between, key=lambda ln: ln.bbox[1]), LEAD_IN_ROWS + 1)
    if not between or len(rows) < len(between) or len(rows) > LEAD_IN_ROWS \
            or bbox[1] - last.bbox[3] > CAPTION_REACH:
        return False
    edges = [last.bbox[3], *(y for ln in rows for y in (ln.bbox[1], ln.bbox[3])), bbox[1]]
    height = max(min(ln.bbox[3] - ln.bbox[1] for ln in rows), 4.0)
    return all(b - a <= 0.5 * height for a, b in zip(edges[::2], edges[1::2], strict=True)) \
        and not any(is_caption(ln.text) for ln in rows)


Place = tuple[int, int]
"""(page, index of a column box in the page's reading order)."""


def _place(columns: Mapping[int, PageColumns], page: int, bbox: BBox) -> Place:
    cols = columns.get(page)
    return (page, cols.index(bbox) if cols is not None else 0)


def _line_place(columns: Mapping[int, PageColumns], line: TextLine) -> Place:
    cols = columns.get(line.page)
    return (line.page, cols.box_of(line) if cols is not None else 0)


def _column_foot_pairs(text: dict[int, PageText], boxes: Sequence[tuple[int, BBox]],
                       columns: Mapping[int, PageColumns]) -> list[tuple[str, float, int, TextLine]]:
    """("above", CAPTION_REACH, box index, caption) for a table that opens its column box (the
    next column, or the next page) while its caption ends the column box read before it: the
    caption stayed at the foot as the table moved on, and in reading order nothing stands
    between them. Counted as far as a caption can be, so one set beside a table comes first."""
    lines: dict[Place, list[TextLine]] = {}
    for pt in text.values():
        for ln in pt.lines:
            lines.setdefault(_line_place(columns, ln), []).append(ln)
    starts = [(_place(columns, p, b), b[1], b[3]) for p, b in boxes]
    out = []
    for i, (at, top, _bottom) in enumerate(starts):
        page = at[0]
        if any(ln.bbox[1] < top for ln in lines.get(at, ())) or any(
                q == at and t < top for q, t, _ in starts):
            continue  # something is read before it in its column box
        before = (page, at[1] - 1) if at[1] > 0 else max((q for q in lines if q[0] == page - 1), default=None)
        foot = lines.get(before) if before is not None else None
        if not foot:
            continue
        last = max(foot, key=lambda ln: ln.bbox[3])
        if any(q == before and b > last.bbox[3] for q, _, b in starts):
            continue  # a table ends that column box: a caption under it is its own
        pt = text[last.page]
        for first in (ln for ln in foot if is_caption(ln.text)):
            block = caption_block(pt, first, columns=columns.get(last.page))
            if block[-1] is last:
                out.append(("above", CAPTION_REACH, i, caption_line(block)))
    return out


def _names_one(pairs: Sequence[tuple[str, float, int, TextLine]]) -> dict[str, int]:
    """Per side, how many tables have a caption there that could name no other table: the
    document's own convention (a caption between two stacked tables, under one and over the
    next, shows none)."""
    boxes: dict[tuple[int, float, float], set[int]] = {}
    for _, _, i, ln in pairs:
        boxes.setdefault(_at(ln), set()).add(i)
    return {side: len({i for s, _, i, ln in pairs if s == side and len(boxes[_at(ln)]) == 1})
            for side in ("above", "below")}


def _at(ln: TextLine) -> tuple[int, float, float]:
    """Where a caption starts: its first line, however many it wraps onto."""
    return (ln.page, ln.bbox[1], ln.bbox[0])


def assign_captions(text: dict[int, PageText], boxes: Sequence[tuple[int, BBox]],
                    columns: Mapping[int, PageColumns] | None = None) -> dict[int, TextLine]:
    """Captions for all table boxes of a document at once: each caption line names one table
    and each table gets one line, on the side the document sets its captions (`_names_one`:
    above, unless more stand below), the nearest first; where no caption shows the side, the
    nearest table in reading order takes it, above or below (with the pages' text `columns`,
    one at the foot of the column before a table that opens the next: `_column_foot_pairs`).
    Asked box by box, the caption under one table of a stack is also the line over the next,
    and both tables would take it."""
    pairs = _caption_pairs(text, boxes, columns or {}) + _column_foot_pairs(text, boxes, columns or {})
    votes = _names_one(pairs)
    prefer = None if votes["above"] == votes["below"] else max(votes, key=lambda side: votes[side])
    ranked = sorted(pairs, key=lambda p: (prefer is not None and p[0] != prefer, p[1], p[0] != "above"))
    out: dict[int, TextLine] = {}
    taken: set[tuple[int, float, float]] = set()
    for _side, _gap, i, ln in ranked:
        if i not in out and _at(ln) not in taken:
            out[i] = ln
            taken.add(_at(ln))
    return out


def find_caption(text: PageText | None, bbox: BBox, page: int = 0) -> TextLine | None:
    """The caption of a table box when it is the only table around (see `assign_captions`)."""
    return assign_captions({page: text} if text else {}, [(page, bbox)]).get(0)


def _note_lines(text: PageText, bbox: BBox) -> list[list[TextLine]]:
    """The footnotes directly below a table box, each as its lines (`※ …`, `* …`, `Note: …`
    and the lines it wraps onto); a caption among them is passed over."""
    notes: list[list[TextLine]] = []
    bottom = bbox[3]
    for ln in text.below(bbox, 400.0):
        gap = ln.bbox[1] - bottom
        height = max(ln.bbox[3] - ln.bbox[1], 6.0)
        if gap > (30.0 if not notes else 1.2 * height):
            break
        if FOOTNOTE.match(ln.text.strip()) and not is_caption(ln.text):
            notes.append([ln])
        elif notes and ln.font_size <= notes[-1][0].font_size + 0.1 and not ln.bold:
            notes[-1].append(ln)
        elif not is_caption(ln.text):
            break
        bottom = ln.bbox[3]
    return notes


def find_footnotes(text: PageText | None, bbox: BBox) -> tuple[str, ...]:
    """Footnote lines directly below a table box (`※ …`, `* …`, `Note: …` and their wrap)."""
    if text is None:
        return ()
    return tuple(" ".join(ln.text for ln in note).strip() for note in _note_lines(text, bbox))

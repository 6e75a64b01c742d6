"""Header labels put back over the columns they name, from the printed lines of the header.

A finder that draws column boundaries from the body cuts a header row at those boundaries, so
a label wider than its column's figures loses its first word to the column on its left
("Volume (m3) Lead" | "time (days)"), or two labels set close together land in one cell and
leave the next one empty. The text layer printed each label as one line (or two labels as one
line when their gap was narrow). Each label line belongs to the column whose body text (its
ink, not its cell box) it stands over; a line over the ink of two columns holds two labels and
is cut where a unit closes the first ("Khối lượng [kg]" | "Ngân sách [VNĐ]"), else at the word
gap nearest the gap between the two columns' ink.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.caption_text import is_caption
from rowkeeper.glyphs import SPACELESS, span_x
from rowkeeper.label_text import clean_text, wrapped_rows
from rowkeeper.models import DECLARED_HEADER_ROWS, BBox, Cell, RawTable, TextLine
from rowkeeper.transforms.captions import caption_block
from rowkeeper.transforms.context import PageText
from rowkeeper.transforms.figures import figure_columns
from rowkeeper.transforms.merge import piece_grid

Extent = tuple[float, float]


def _body_cell_lines(piece: RawTable, lines: Sequence[TextLine],
                     body_from: int) -> Iterator[tuple[Cell, list[TextLine]]]:
    """Each body cell with text, one column wide and boxed, and the page's lines whose centre
    lies in it (the lines sorted by centre height once: a cell looks only at those level with it)."""
    page = [ln for ln in lines if ln.page == piece.page and centre_in(ln.bbox, piece.bbox, 1.0)]
    order = sorted(range(len(page)), key=lambda i: _mid_y(page[i]))
    ys = [_mid_y(page[i]) for i in order]
    for c in piece.cells:
        if c.row < body_from or c.col_span != 1 or c.bbox is None or not c.text.strip():
            continue
        # a wider window than centre_in's pad: the test below decides, the window only narrows
        level = order[bisect_left(ys, c.bbox[1] - 2.0):bisect_right(ys, c.bbox[3] + 2.0)]
        yield c, [page[i] for i in sorted(level) if centre_in(page[i].bbox, c.bbox, 1.0)]


def _mid_y(line: TextLine) -> float:
    return (line.bbox[1] + line.bbox[3]) / 2


def column_ink(piece: RawTable, lines: Sequence[TextLine], body_from: int) -> dict[int, Extent]:
    """Per column, the x range its body text covers (lines whose centre lies in a body cell).
    A line that runs over another column's body cells (a source note under the table read
    into one cell of its last row) tells no column's ink; a line that holds the cell's text
    and the cell's neighbour's (two columns' figures set closer than the reader's line break,
    "182.635 5.613.162 ₫") tells the cell's share of it (`_share`)."""
    out: dict[int, Extent] = {}
    boxes = _body_boxes(piece, body_from)
    for c, level in _body_cell_lines(piece, lines, body_from):
        for ln in level:
            if clean_text(ln.text) in clean_text(c.text) and not _across(ln, c.col, boxes):
                a, b = ln.bbox[0], ln.bbox[2]
            elif (part := _share(ln, c)) is not None:
                a, b = part
            else:
                continue
            x0, x1 = out.get(c.col, (a, b))
            out[c.col] = (min(x0, a), max(x1, b))
    return out


def _share(line: TextLine, cell: Cell, tol: float = 1.0) -> Extent | None:
    """Where a cell's text lies in a longer line that holds it once (`glyphs.span_x`), when
    that lies inside the cell's box; else None."""
    text, whole = clean_text(cell.text), clean_text(line.text)
    at = whole.find(text)
    if not text or len(text) == len(whole) or at < 0 or whole.count(text) != 1 or cell.bbox is None:
        return None
    x0, x1 = span_x(whole, line.bbox[0], line.bbox[2], at, at + len(text))
    return (x0, x1) if cell.bbox[0] - tol <= x0 and x1 <= cell.bbox[2] + tol else None


def _across(line: TextLine, col: int, boxes: dict[int, Extent]) -> bool:
    """Whether a line reaches over the body cells of a column other than `col`."""
    return any(j != col and line.bbox[0] < x1 - 1 and x0 + 1 < line.bbox[2] for j, (x0, x1) in boxes.items())


def right_aligned(piece: RawTable, lines: Sequence[TextLine], body_from: int) -> frozenset[int]:
    """The columns whose body lines end at one x and start at several, or hold figures of
    one width (figures are set flush right): their labels end where the figures do."""
    ends: dict[int, list[tuple[float, float]]] = {}
    for c, level in _body_cell_lines(piece, lines, body_from):
        ends.setdefault(c.col, []).extend(
            (ln.bbox[0], ln.bbox[2]) for ln in level if clean_text(ln.text) == clean_text(c.text))
    figures = figure_columns(piece_grid(piece)[body_from:])
    out = set()
    for j, xs in ends.items():
        if len(xs) < 3:  # too few lines read whole to tell
            continue
        lefts, rights = [x0 for x0, _ in xs], [x1 for _, x1 in xs]
        ragged = max(lefts) - min(lefts) > 1.5 or (j < len(figures) and figures[j])
        if max(rights) - min(rights) <= 1.5 and ragged:
            out.add(j)
    return frozenset(out)


def _body_boxes(piece: RawTable, body_from: int) -> dict[int, Extent]:
    """Per column with body text, the x range of its body cells."""
    out: dict[int, Extent] = {}
    for c in piece.cells:
        if c.row >= body_from and c.col_span == 1 and c.bbox and c.text.strip():
            x0, x1 = out.get(c.col, (c.bbox[0], c.bbox[2]))
            out[c.col] = (min(x0, c.bbox[0]), max(x1, c.bbox[2]))
    return out


def stand_in_ink(ink: dict[int, Extent], stand_ins: dict[int, Extent]) -> dict[int, Extent]:
    """`ink` with a stand-in extent for each column that has none: the one fallback for a
    column whose body text tells no ink (a line across two cells; pictures or an empty body,
    where the column's own label cell stands in so a line over it and its neighbour still
    holds two labels)."""
    return {**{j: x for j, x in stand_ins.items() if j not in ink}, **ink}


def _label_extent(box: BBox, text: str, band: Sequence[TextLine]) -> Extent:
    """The x range of a label as printed: its lines inside its cell `box`, else the box (a
    picture column's cell is far wider than its label, and would reach the next one's)."""
    own = [ln for ln in band if centre_in(ln.bbox, box, 1.0) and clean_text(ln.text) in clean_text(text)]
    if not own:
        return (box[0], box[2])
    return (min(ln.bbox[0] for ln in own), max(ln.bbox[2] for ln in own))


def _overlapped(line: TextLine, ink: dict[int, Extent]) -> list[int]:
    """The columns whose ink the line stands over by more than half a character (labels set
    tight reach a point or two over the figures of the column beside theirs)."""
    text = clean_text(line.text)
    by = max(1.0, (line.bbox[2] - line.bbox[0]) / max(sum(_advance(ch) for ch in text), 1.0) / 2)
    return sorted(j for j, (x0, x1) in ink.items() if line.bbox[0] < x1 - by and x0 + by < line.bbox[2])


def _nearest(line: TextLine, ink: dict[int, Extent]) -> int:
    mid = (line.bbox[0] + line.bbox[2]) / 2
    return min(ink, key=lambda j: min(abs(mid - ink[j][0]), abs(mid - ink[j][1])))


_UNIT_END = re.compile(r"[)\]）］]\s*(?=\S)")


def _advance(ch: str) -> float:
    """A character's width in half-widths: a CJK character (or a full-width form) sets two."""
    return 2.0 if unicodedata.east_asian_width(ch) in "WF" else 1.0


def _breaks(text: str, cjk: bool = False) -> list[int]:
    """Where a line of labels may be cut: at its spaces; CJK labels set with no space between
    them ("納期利益率(%)"), or too few spaces (`cjk`: "費用数量(個) 納期(日)"), also at any
    character boundary beside a CJK character; never inside a bracket nor before one (a
    bracketed unit closes the label it follows: "Lead time [days]")."""
    spaces = [i for i, ch in enumerate(text) if ch == " " and text[i + 1:i + 2] not in _OPEN]
    if " " in text and not cjk:
        return spaces
    return sorted({*spaces, *(i for i in range(1, len(text)) if 2.0 in (_advance(text[i - 1]), _advance(text[i]))
                              and text[i] not in _CLOSE + _OPEN + " " and text[i - 1] not in _OPEN + " ")})


_OPEN, _CLOSE = "([（［【", ")]）］】%％"
_SHUT = ")]）］】"


def _parts_bracket(parts: Sequence[str]) -> bool:
    """Whether a cut leaves a bracket open at a part's end that a later part closes
    (`取引先人数(` | `人)`): a unit belongs to the label it follows."""
    depth, open_at_end = 0, False
    for k, part in enumerate(parts):
        for ch in part:
            depth = max(0, depth + (ch in _OPEN) - (ch in _SHUT))
        open_at_end = open_at_end or (depth > 0 and k < len(parts) - 1)
    return open_at_end and depth == 0


def cut_line(line: TextLine, inks: Sequence[Extent], flush: Sequence[bool] = ()) -> list[str] | None:
    """A line holding the labels of the columns whose ink it stands over (`inks`, left to
    right) cut into one label each: after a closing unit bracket ("Khối lượng [kg]"), else at
    the break (`_breaks`) whose estimated x (characters spread by their widths, a CJK one
    two half-widths) falls nearest the end of the left column's ink or the start of the
    right one's (right- or left-aligned labels); only the end of the left ink where `flush`
    says that column is set flush right (its label ends with its figures: CJK labels with no
    gap between them leave both readings a character apart). CJK character boundaries are
    tried when the spaces fit no reading."""
    text = clean_text(line.text)
    return _cut(line, text, inks, _breaks(text), flush) or \
        _cut(line, text, inks, _breaks(text, cjk=True), flush)


def _cut(line: TextLine, text: str, inks: Sequence[Extent], spaces: Sequence[int],
         flush: Sequence[bool] = ()) -> list[str] | None:
    """`cut_line` with the breaks `spaces` to choose from."""
    offsets = [0.0]
    for ch in text:
        offsets.append(offsets[-1] + _advance(ch))
    unit = (line.bbox[2] - line.bbox[0]) / max(offsets[-1], 1.0)
    units = [m.end() for m in _UNIT_END.finditer(text)]
    gaps = list(zip(inks, inks[1:], strict=False))

    def miss(i: int, g: int) -> float:
        x = line.bbox[0] + offsets[i] * unit
        if g < len(flush) and flush[g]:
            return abs(x - gaps[g][0][1])
        return min(abs(x - gaps[g][0][1]), abs(x - gaps[g][1][0]))

    at: dict[int, int] = {}
    for i in units:  # a unit ends the label of the gap it stands nearest
        g = min(range(len(gaps)), key=lambda g, i=i: miss(i, g))
        if g not in at or miss(i, g) < miss(at[g], g):
            at[g] = i
    for g in range(len(gaps)):
        if g not in at:
            if not spaces:
                return None
            at[g] = min(spaces, key=lambda i, g=g: miss(i, g))
    cuts = [at[g] for g in range(len(gaps))]
    if cuts != sorted(set(cuts)):
        return None
    parts = [text[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return parts if all(parts) else None


def _home(line: TextLine, boxes: dict[int, BBox]) -> int | None:
    """The column whose cell holds the whole line, if one does."""
    return next((j for j, b in boxes.items() if b[0] - 2 <= line.bbox[0] and line.bbox[2] <= b[2] + 2), None)


def _kept(line: TextLine, cols: Sequence[int], cells: dict[int, str],
          inks: Sequence[Extent] = (), flush: Sequence[bool] = ()) -> list[str] | None:
    """The finder's own cut of a line over several columns, when it is one: each of those
    cells holds a part of the line, none empty, the parts make the line, every unit bracket
    closes a part, and no part of a column set flush right runs past its figures
    (`_past_flush_end`). The finder cut at the words' gaps, which this line's text no longer
    shows; ink alone cannot tell a right-aligned label's first word ("Nhà cung cấp" | "Công
    suất [kW]"), so a cut that breaks no label stays. A line whose letters are spaced out
    (`E N - V I` `E N - D E`) is the finder's parts when it has their letters, spaces aside:
    the finder parted it where its columns' figures end (`column_edges`)."""
    parts = [clean_text(cells.get(j, "")) for j in cols]
    text, joined = _tight(clean_text(line.text)), _tight(" ".join(parts))
    if joined != text and joined.replace(" ", "") == text.replace(" ", ""):
        text = joined  # letter-spaced labels (`H U - E N`) the finder read from their glyphs
    if not all(parts) or joined != text or _parts_bracket(parts):
        return None
    ends = [len(_tight(" ".join(parts[: i + 1]))) for i in range(len(parts))]
    units = {m.end() for m in _UNIT_END.finditer(text)}
    if not all(u in ends or u - 1 in ends for u in units) or _past_flush_end(line, text, ends, inks, flush):
        return None
    return parts


def _past_flush_end(line: TextLine, text: str, ends: Sequence[int], inks: Sequence[Extent],
                    flush: Sequence[bool]) -> bool:
    """Whether a part of the line (`ends`: where each part ends in `text`) over a column set
    flush right (`flush`: its labels or its figures are) ends nearer the next column's figures
    than its own, and more than two characters past its own (where a part ends is estimated
    from character widths, a few points out on a tight CJK line): a flush-right label ends with
    its figures, so the words past them head the next column (a label wider than its figures, `Quantity (units)`, reaching left into the
    gap; CJK labels printed as one word, `単価構成比`)."""
    offsets = [0.0]
    for ch in text:
        offsets.append(offsets[-1] + _advance(ch))
    unit = (line.bbox[2] - line.bbox[0]) / max(offsets[-1], 1.0)
    for g, (a, b) in enumerate(zip(inks, inks[1:], strict=False)):
        x = line.bbox[0] + offsets[ends[g]] * unit
        if g < len(flush) and flush[g] and x - a[1] > max(b[0] - x, 2 * unit):  # an estimate's slack: two characters
            return True
    return False


def _tight(text: str) -> str:
    """`text` without the spaces beside a CJK character: CJK labels set close print as one
    line with no space between them ("納期単価(円)"), where the finder's cells part them."""
    return "".join(ch for i, ch in enumerate(text)
                   if ch != " " or 2.0 not in (_advance(text[i - 1:i] or " "), _advance(text[i + 1:i + 2] or " ")))


def _labels(band: Sequence[TextLine], ink: dict[int, Extent], boxes: dict[int, BBox],
            cells: dict[int, str] | None = None,
            flush: frozenset[int] = frozenset(),
            figures: frozenset[int] = frozenset()) -> dict[int, list[TextLine]] | None:
    """Column -> the label lines over it; None when a line fits no single reading. A line
    inside one cell stays there unless it stands over another column's ink; a line over
    several keeps the finder's cut of it (`cells`: the row's texts) when that breaks no label."""
    out: dict[int, list[TextLine]] = {}
    for ln in band:
        cols = _overlapped(ln, ink)
        home = _home(ln, boxes)
        if home is not None and set(cols) <= {home}:
            out.setdefault(home, []).append(ln)
            continue
        if len(cols) >= 2:
            inks, flushed = [ink[j] for j in cols], [j in flush for j in cols[:-1]]
            right = [j in flush or j in figures for j in cols[:-1]]  # figures are set flush right
            parts = _kept(ln, cols, cells or {}, inks, right) or cut_line(ln, inks, flushed)
            if parts is None:
                return None
            for j, text in zip(cols, parts, strict=True):
                out.setdefault(j, []).append(ln.model_copy(update={"text": text}))
            continue
        out.setdefault(cols[0] if cols else _nearest(ln, ink), []).append(ln)
    return out


def _text(parts: Sequence[TextLine]) -> str:
    parts = sorted(parts, key=lambda ln: (round(ln.bbox[1]), ln.bbox[0]))
    return "\n".join(clean_text(ln.text) for ln in parts)


def _words(texts: Sequence[str]) -> list[str]:
    """The characters of some texts, sorted, spaces left out: the same whichever cells they
    were read into (a finder may join two cut words with no space: "(m3)Lead")."""
    return sorted("".join(texts).replace(" ", "").replace("\n", "").replace("\u3000", ""))


def _spaced_as(cell: str, label: str) -> str:
    """The label the lines give a column, or the cell's own text when it holds the same
    characters in the same order, spaced otherwise, in a script that spaces its words: the
    lines move words between columns, and a label letter-spaced by a word space reads
    `N a m e d e s B l a t t e s` on its line, while the finder's words, joined by the gaps
    between its glyphs, read `Name des Blattes`. In kana and Han the lines' spacing stands
    (`利益率` / `[ % ]` over a cell cut `利 益率[%]`)."""
    same = "".join(cell.split()) == "".join(label.split())
    return cell if same and cell.split() != label.split() and not SPACELESS.search(cell) else label


def relabel_row(piece: RawTable, r: int, lines: Sequence[TextLine], ink: dict[int, Extent],
                flush: frozenset[int] = frozenset(), figures: frozenset[int] = frozenset()) -> RawTable:
    """Row r's cells given the label lines over their columns' ink, when the row's words stay
    the same and only their columns change."""
    row = {c.col: c for c in piece.cells if c.row == r}
    if len(row) != piece.n_cols or any(c.col_span != 1 or c.bbox is None for c in row.values()) \
            or len(ink) < 2:
        return piece
    top = min(c.bbox[1] for c in row.values() if c.bbox)
    bottom = max(c.bbox[3] for c in row.values() if c.bbox)
    box = (piece.bbox[0], top, piece.bbox[2], bottom)
    band = [ln for ln in lines if ln.page == piece.page and clean_text(ln.text) and centre_in(ln.bbox, box, 1.0)]
    ink = stand_in_ink(ink, {j: _label_extent(c.bbox, c.text, band) for j, c in row.items()
                             if c.text.strip() and c.bbox})
    cells = [row[j].text for j in sorted(row)]
    caption = _caption_over(band) if r == 0 else []
    band = [ln for ln in band if all(ln is not c for c in caption)]
    boxes = {j: c.bbox for j, c in row.items() if c.bbox}
    labels = _labels(band, ink, boxes, {j: c.text for j, c in row.items()}, flush, figures) if band else None
    found = [_text(v) for _, v in sorted(labels.items())] if labels is not None else []
    if labels is None or _words(cells) != _words([ln.text for ln in caption] + found):
        return piece
    texts = {j: _spaced_as(cells[j] if j < len(cells) else "", _text(v)) for j, v in labels.items()}
    if all(clean_text(texts.get(j, "")) == clean_text(t) for j, t in enumerate(cells)):
        return piece
    new = tuple(c.model_copy(update={"text": texts.get(c.col, "")}) if c.row == r else c
                for c in piece.cells)
    if not caption:
        return piece.model_copy(update={"cells": new})
    # the caption read into the header row leaves the table: its box starts under it
    start = min(ln.bbox[1] for ln in band) - 1
    new = tuple(c.model_copy(update={"bbox": (c.bbox[0], start, c.bbox[2], c.bbox[3])})
                if c.row == r and c.bbox else c for c in new)
    b = piece.bbox
    return piece.model_copy(update={"cells": new, "bbox": (b[0], start, b[2], b[3])})


def _caption_over(band: Sequence[TextLine]) -> list[TextLine]:
    """The lines of a caption set above every other line of the row, the lines it wraps onto
    too (a caption and a header line the finder read as one row); [] when there is none."""
    top = min(band, key=lambda ln: ln.bbox[1], default=None)
    if top is None or not is_caption(top.text):
        return []
    block = caption_block(PageText(tuple(sorted(band, key=lambda ln: (ln.bbox[1], ln.bbox[0])))), top)
    rest = [ln for ln in band if all(ln is not c for c in block)]
    return block if rest and all(ln.bbox[1] >= block[-1].bbox[3] - 1 for ln in rest) else []


def relabel_header(piece: RawTable, lines: Sequence[TextLine], header_rows: int) -> RawTable:
    """The piece with its last header row's labels over the columns they stand over, and those
    of the rows that wrap onto it; other rows above hold group labels, which `spanners` places
    over their sub-columns."""
    if header_rows <= 0 or not lines or DECLARED_HEADER_ROWS in piece.metrics:
        return piece  # a tagged table's labels stand in the cells its tags give them, whole
    # a body line across two cells tells no column's ink: their cells' span stands in
    body = {j: (x0 + 2, x1 - 2) for j, (x0, x1) in _body_boxes(piece, header_rows).items()}
    ink = stand_in_ink(column_ink(piece, lines, header_rows), body)
    # a row whose labels wrap onto the next (units under names) is relabelled too
    wrapped = wrapped_rows(piece_grid(piece)[:header_rows])
    flush = right_aligned(piece, lines, header_rows)
    figures = frozenset(j for j, f in enumerate(figure_columns(piece_grid(piece)[header_rows:])) if f)
    for r in range(header_rows):
        if r == header_rows - 1 or wrapped[r + 1]:
            piece = relabel_row(piece, r, lines, ink, flush, figures)
    return piece

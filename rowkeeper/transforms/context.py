"""What surrounds a table on the page: caption, footnotes, section path, page furniture.

All from `TextLine`s (text, bbox, font size, bold). Running headers/footers and page numbers
are "furniture": ignored for captions, headings and merge decisions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rowkeeper.models import BBox, OutlineEntry, PageInfo, Region, Table, TextLine
from rowkeeper.page_columns import PageColumns, text_columns, units

CAPTION = re.compile(
    r"^(?:(?:table|tab\.|tabelle|tableau|tabla|tabella|tabel|tabulka|bảng|biểu|표)\s*"
    r"(?:[\d０-９]+(?:[.\-][\d０-９]+)*|(?-i:[IVXLC]+|[A-Z]\d*))(?=[\s.:：)\-]|$)"
    r"|(?:表|図表)\s*[\d０-９]+(?:[\-－.][\d０-９]+)?"
    r"|[\d]+(?:\.\d+)*\.?\s*(?:táblázat|tabelle)"
    r"|(?:tábla|táblázat)\s*\d+)",
    re.I,
)
CONTINUED = re.compile(
    r"continued|\bcont(?:'d|\.|inued)|続き|続く|つづき|fortsetzung|forts\.|folytatás|"
    r"tiếp theo|\(tt\)|\(suite\)|continuación",
    re.I,
)
FOOTNOTE = re.compile(
    r"^(?:※|\*|†|‡|§|¹|²|³|注|（注|\(注|出典|出所|資料|備考|"
    r"(?:note|notes|source|sources|remark|n\.b\.|anmerkung|hinweis|quelle|fußnote|"
    r"megjegyzés|forrás|ghi chú|nguồn|chú thích|lưu ý)\b|\(?[a-z\d]{1,2}\)\s)",
    re.I,
)
PAGE_NUMBER = re.compile(
    r"^[-–—\s]*(?:page|seite|oldal|trang|p\.|s\.)?\s*\d{1,4}\s*(?:(?:/|of|von|sur|trên)\s*\d{1,4})?"
    r"\s*(?:\.?\s*oldal|ページ|頁)?[-–—\s]*$",
    re.I,
)
NUMBERED_HEADING = re.compile(
    r"^(?:(?:\d+\.)+\d*|\d+\s|第[\d一二三四五六七八九十百]+[章節条部]|[IVX]+\.\s|[A-Z]\.\s|"
    r"chapter\s+\d+|kapitel\s+\d+|chương\s+\w+|mục\s+\d+|§\s*\d+)",
    re.I,
)
MARGIN_BAND = 0.1
"""Top and bottom share of a page where running headers, footers and page numbers live."""


def _center(b: BBox) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def inside(line: TextLine, bbox: BBox, pad: float = 2.0) -> bool:
    """Whether the line's centre lies within `bbox` (grown by `pad`)."""
    x, y = _center(line.bbox)
    return bbox[0] - pad <= x <= bbox[2] + pad and bbox[1] - pad <= y <= bbox[3] + pad


def lines_outside_tables(lines: Sequence[TextLine], tables: Iterable[Table]) -> tuple[TextLine, ...]:
    """The text lines that lie in no region of any table (prose for text chunks, captions)."""
    regions: dict[int, list[Region]] = {}
    for t in tables:
        for r in t.regions:
            regions.setdefault(r.page, []).append(r)
    return tuple(ln for ln in lines if not any(inside(ln, r.bbox) for r in regions.get(ln.page, ())))


def page_heights(pages: Sequence[PageInfo], lines: Sequence[TextLine]) -> dict[int, float]:
    out = {p.page: p.height for p in pages if p.height > 0}
    fallback = max((ln.bbox[3] for ln in lines), default=842.0) + 20
    for ln in lines:
        out.setdefault(ln.page, max(fallback, 842.0))
    return out


def furniture(lines: Sequence[TextLine], pages: Sequence[PageInfo]) -> frozenset[int]:
    """Indices of running headers/footers and page numbers (text repeated in the page margins)."""
    heights = page_heights(pages, lines)
    band = [_band(ln, heights[ln.page]) for ln in lines]
    pages_with: dict[tuple[str, str], set[int]] = {}
    for ln, b in zip(lines, band, strict=True):
        if b:
            pages_with.setdefault((b, _shape(ln.text)), set()).add(ln.page)
    return frozenset(
        i for i, (ln, b) in enumerate(zip(lines, band, strict=True))
        if b and (len(pages_with[(b, _shape(ln.text))]) >= 2 or PAGE_NUMBER.match(ln.text.strip()))
    )


def _band(line: TextLine, height: float) -> str:
    if line.bbox[3] <= height * MARGIN_BAND:
        return "top"
    if line.bbox[1] >= height * (1 - MARGIN_BAND):
        return "bottom"
    return ""


def _shape(text: str) -> str:
    """Text with digits masked, so 'Page 3 of 9' and 'Page 4 of 9' repeat."""
    return re.sub(r"\d+", "#", text.strip().lower())


def is_caption(text: str) -> bool:
    """Whether a line reads like a table caption ('Table 3 …', '表2 …', '1. táblázat …')."""
    return bool(CAPTION.match(text.strip()))


def is_continued(text: str) -> bool:
    """Whether a caption marks a continuation ('Table 5 (continued)', '表2（続き）')."""
    return bool(CONTINUED.search(text))


@dataclass(frozen=True)
class PageText:
    """The content lines of one page (no furniture, nothing inside a table), top to bottom."""

    lines: tuple[TextLine, ...]
    tables: tuple[BBox, ...] = ()
    """The table boxes of the page."""

    def beside_table(self, line: TextLine, reach: float = 15.0) -> bool:
        """Whether the line stands level with a table, just left or right of it (a header
        label or row label the table's box left out), not above or below it."""
        y = (line.bbox[1] + line.bbox[3]) / 2
        return any(b[1] < y < b[3] and (0 <= b[0] - line.bbox[2] <= reach or 0 <= line.bbox[0] - b[2] <= reach)
                   for b in self.tables)

    def in_a_row(self, line: TextLine) -> bool:
        """Whether other labels set like it stand on the same line, as cells of a header row
        the table's box left out do (a heading stands alone)."""
        y = (line.bbox[1] + line.bbox[3]) / 2
        return any(ln is not line and ln.bbox[1] < y < ln.bbox[3] and ln.bold == line.bold
                   and abs(ln.font_size - line.font_size) <= 0.5
                   and (ln.bbox[0] >= line.bbox[2] or ln.bbox[2] <= line.bbox[0]) for ln in self.lines)

    def above(self, bbox: BBox, reach: float) -> list[TextLine]:
        """Lines ending above `bbox`'s top within `reach` points, nearest first."""
        out = [ln for ln in self.lines if ln.bbox[3] <= bbox[1] + 3 and bbox[1] - ln.bbox[3] <= reach]
        return sorted(out, key=lambda ln: -ln.bbox[3])

    def below(self, bbox: BBox, reach: float) -> list[TextLine]:
        """Lines starting below `bbox`'s bottom within `reach` points, nearest first."""
        out = [ln for ln in self.lines if ln.bbox[1] >= bbox[3] - 3 and ln.bbox[1] - bbox[3] <= reach]
        return sorted(out, key=lambda ln: ln.bbox[1])


def content_by_page(
    lines: Sequence[TextLine], pages: Sequence[PageInfo], table_boxes: Sequence[tuple[int, BBox]]
) -> dict[int, PageText]:
    """Per page, the lines that are neither furniture nor inside a table box."""
    skip = furniture(lines, pages)
    out: dict[int, list[TextLine]] = {}
    for i, ln in enumerate(lines):
        if i in skip or any(p == ln.page and inside(ln, b) for p, b in table_boxes):
            continue
        out.setdefault(ln.page, []).append(ln)
    return {p: PageText(tuple(sorted(v, key=lambda ln: (ln.bbox[1], ln.bbox[0]))),
                        tuple(b for q, b in table_boxes if q == p))
            for p, v in out.items()}


CAPTION_REACH = 40.0
"""Points between a caption line and the table edge it names."""


def _overlaps_x(a: BBox, b: BBox) -> bool:
    return a[0] < b[2] and b[0] < a[2]


def _caption_pairs(text: dict[int, PageText],
                   boxes: Sequence[tuple[int, BBox]]) -> list[tuple[str, float, int, TextLine]]:
    """(side, gap, box index, line) for each caption line among the two lines nearest a box's
    top or bottom edge, over the box's columns; a continuation caption names no table below."""
    out = []
    for i, (page, bbox) in enumerate(boxes):
        pt = text.get(page)
        if pt is None:
            continue
        for ln in pt.above(bbox, CAPTION_REACH)[:2]:
            if is_caption(ln.text) and _overlaps_x(ln.bbox, bbox):
                out.append(("above", bbox[1] - ln.bbox[3], i, ln))
        for ln in pt.below(bbox, CAPTION_REACH)[:2]:
            if is_caption(ln.text) and not is_continued(ln.text) and _overlaps_x(ln.bbox, bbox):
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


PROSE_LINE = 34
"""Characters from which a line is running text (headings, labels and cells are shorter);
a CJK character counts two, as wide as two Latin letters (a column of a two-column Japanese
page at 11 points holds 17-19 characters a line)."""


def body_font_size(lines: Sequence[TextLine], fallback: Sequence[TextLine] = ()) -> float:
    """The font size running text is set in: the character-weighted median over the lines of
    prose length, else over all lines; from `fallback` (say, every line of the document,
    tables' too) when `lines` hold no prose, as on a page of headings and tables."""
    for pool in (lines, fallback):
        prose = [ln for ln in pool if units(ln.text) >= PROSE_LINE and ln.font_size]
        if prose:
            break
    else:
        prose = [ln for ln in (*lines, *fallback) if ln.font_size]
    return _weighted_median([(ln.font_size, min(len(ln.text), 200)) for ln in prose]) or 10.0


def _weighted_median(pairs: Sequence[tuple[float, int]]) -> float | None:
    """statistics.median of each value repeated weight times, without building that list."""
    ranked = sorted(p for p in pairs if p[1] > 0)
    n = sum(w for _, w in ranked)
    if not n:
        return None

    def nth(k: int) -> float:
        for v, w in ranked:
            if k < w:
                return v
            k -= w
        raise IndexError(k)

    return nth(n // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2


_ENDS_SENTENCE = ("。", ".", ":", "：")


def bold_marks_headings(lines: Sequence[TextLine]) -> bool:
    """Bold is a heading signal unless nearly all the running text (80% of the lines of prose
    length) is bold: a document set all in bold would otherwise be all headings and no paragraph."""
    prose = [ln for ln in lines if units(ln.text) >= PROSE_LINE]
    bold = sum(len(ln.text) for ln in prose if ln.bold)
    return not prose or bold < 0.8 * sum(len(ln.text) for ln in prose)


def heading_key(line: TextLine, body: float, bold: bool = True) -> tuple[float, int] | None:
    """Sort key of a heading line (bigger font first, then shallower numbering), else None.

    The one heading rule, for tables' section paths and text chunks alike: a short line that
    is no sentence, set larger than the body text or in bold at body size ("Summary",
    "2. Ausgaben"; not "Hinweis:" nor "Die Preise sind Nettopreise."). `bold=False` where bold
    marks nothing (`bold_marks_headings`)."""
    if line.font_size < body + 1.0 and not (bold and line.bold):
        return None  # the last test below, first: it rules out body text without a regex
    text = line.text.strip()
    if not text or len(text) > 120 or is_caption(text) or FOOTNOTE.match(text):
        return None
    numbered = NUMBERED_HEADING.match(text)
    if text.endswith(_ENDS_SENTENCE) and (len(text) > 30 or not numbered):
        return None  # a sentence, or a lead-in label ("Hinweis:")
    small = line.font_size < body - 0.5 and not numbered  # a bold note under a table
    if line.font_size < body + 1.0 and (not (bold and line.bold) or len(text) > 80 or small):
        return None
    depth = numbered.group(0).rstrip(". ").count(".") + 1 if numbered else 0
    return (-round(line.font_size * 2) / 2, depth)


def is_strong_heading(line: TextLine, body: float, bold: bool = True) -> bool:
    """A heading by size or numbering: one that a table's bold row label never looks like."""
    numbered = NUMBERED_HEADING.match(line.text.strip())
    return heading_key(line, body, bold) is not None and (line.font_size >= body + 1.0 or bool(numbered))


SectionIndex = list[tuple[int, float, tuple[str, ...]]]
"""(page, top, section path in force from there on), in reading order."""


def section_index(pages: dict[int, PageText], outline: Sequence[OutlineEntry] = (),
                  body: float | None = None) -> SectionIndex:
    """Where each section starts: the PDF outline when it has one, refined by headings."""
    return with_outline(heading_index(pages, body), outline)


@dataclass(frozen=True)
class ReadingOrder:
    """Where a box comes in reading order on its page: the page's column boxes
    (`rowkeeper.page_columns`) one after the other, each top to bottom; on a page set in two
    columns the right column after the left (a box over the gutter is read where it starts)."""

    columns: dict[int, PageColumns] = field(default_factory=dict)
    heights: dict[int, float] = field(default_factory=dict)

    def top(self, page: int, bbox: BBox) -> float:
        """The box's top as a position in the page's reading order."""
        cols = self.columns.get(page)
        return cols.position(bbox, self.heights.get(page, 842.0)) if cols is not None else bbox[1]

    def box(self, page: int, bbox: BBox) -> int:
        """The index of the column box the box starts in (0 on a page set in one column)."""
        cols = self.columns.get(page)
        return cols.index(bbox) if cols is not None else 0


def reading_order(lines: Sequence[TextLine], pages: Sequence[PageInfo] = ()) -> ReadingOrder:
    """The reading order of each page, from the text columns of all its `lines` (table cells
    and furniture too: the same columns the table finder searched)."""
    by_page: dict[int, list[TextLine]] = {}
    for ln in lines:
        by_page.setdefault(ln.page, []).append(ln)
    columns = {p: text_columns(v) for p, v in by_page.items()}
    return ReadingOrder({p: c for p, c in columns.items() if c.multi}, page_heights(pages, lines))


@dataclass(frozen=True)
class Sections:
    """A document's section starts, its heading lines and its reading order."""

    index: SectionIndex
    headings: tuple[TextLine, ...]
    order: ReadingOrder

    def path_at(self, page: int, bbox: BBox) -> tuple[str, ...]:
        """The section path in force where the box starts, in reading order."""
        return section_path_at(self.index, page, self.order.top(page, bbox))


def document_sections(text: dict[int, PageText], lines: Sequence[TextLine],
                      outline: Sequence[OutlineEntry] = (), pages: Sequence[PageInfo] = ()) -> Sections:
    """A document's sections, for its tables and its text chunks alike: headings among the
    content lines (`text`), sized against the body text (from all `lines` when the content
    holds no prose), placed in reading order, the outline first when there is one."""
    content = [ln for p in text.values() for ln in p.lines]
    body = body_font_size(content, lines)
    bold = bold_marks_headings(content)
    order = reading_order(lines, pages)
    index = with_outline(heading_index(text, body, order, bold), outline)
    return Sections(index, tuple(heading_lines(text, body, bold)), order)


def heading_lines(pages: dict[int, PageText], body: float | None = None,
                  bold: bool = True) -> list[TextLine]:
    """The content lines that are headings, in reading order."""
    if body is None:
        body = body_font_size([ln for p in pages.values() for ln in p.lines])
    return [ln for page in sorted(pages) for ln in pages[page].lines
            if heading_key(ln, body, bold) is not None and not pages[page].beside_table(ln)
            and (is_strong_heading(ln, body, bold) or not pages[page].in_a_row(ln))]


def heading_index(pages: dict[int, PageText], body: float | None = None,
                  order: ReadingOrder | None = None, bold: bool = True) -> SectionIndex:
    """(page, top, section path) after each heading found by typography, in reading order."""
    order = order or ReadingOrder()
    if body is None:
        body = body_font_size([ln for p in pages.values() for ln in p.lines])
    stack: list[tuple[tuple[float, int], str]] = []
    out = []
    # the stack follows reading order: a heading atop the right column comes after the left's
    for ln in sorted(heading_lines(pages, body, bold), key=lambda h: (h.page, order.top(h.page, h.bbox))):
        key = heading_key(ln, body, bold) or (0.0, 0)
        while stack and stack[-1][0] >= key:
            stack.pop()
        stack.append((key, ln.text.strip()))
        out.append((ln.page, order.top(ln.page, ln.bbox), tuple(t for _, t in stack)))
    return sorted(out, key=lambda m: (m[0], m[1]))


def outline_index(outline: Sequence[OutlineEntry]) -> SectionIndex:
    """(page, top, path of titles) for each outline entry, in page order."""
    stack: list[str] = []
    out = []
    for e in outline:
        del stack[max(e.level - 1, 0):]
        stack.append(e.title)
        out.append((e.page, e.top, tuple(stack)))
    return sorted(out, key=lambda m: (m[0], m[1]))


def _title_key(text: str) -> str:
    """A title without numbering, punctuation or case ('3. Managed properties' = 'MANAGED PROPERTIES')."""
    return re.sub(r"[\W\d_]+", "", text.casefold())


def with_outline(headings: SectionIndex, outline: Sequence[OutlineEntry]) -> SectionIndex:
    """Section starts from the outline (the author's structure, exact even where headings are
    set in body type) plus, below the outline entry in force, the latest typographic heading
    that is not itself an outline title (an outline often lists chapters only)."""
    if not outline:
        return list(headings)
    marks = outline_index(outline)
    titles = {_title_key(e.title) for e in outline}
    out = list(marks)
    for page, top, path in headings:
        if path and _title_key(path[-1]) not in titles:
            out.append((page, top, section_path_at(marks, page, top) + (path[-1],)))
    return sorted(out, key=lambda m: (m[0], m[1]))


def section_path_at(index: Sequence[tuple[int, float, tuple[str, ...]]], page: int,
                    top: float) -> tuple[str, ...]:
    """The section path in force at a position (the last section start at or before it)."""
    path: tuple[str, ...] = ()
    for p, y, sp in index:
        if (p, y) <= (page, top):
            path = sp
        else:
            break
    return path

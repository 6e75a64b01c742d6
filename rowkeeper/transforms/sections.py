"""A document's sections: where each starts, and the path in force at a table's position."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rowkeeper.models import BBox, OutlineEntry, PageInfo, TextLine
from rowkeeper.page_columns import PageColumns, text_columns
from rowkeeper.transforms.context import PageText, lines_around_tables, page_heights
from rowkeeper.transforms.headings import (
    body_font_size,
    bold_marks_headings,
    heading_key,
    heading_lines,
)

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


def reading_order(lines: Sequence[TextLine], pages: Sequence[PageInfo] = (),
                  tables: dict[int, Sequence[BBox]] | None = None) -> ReadingOrder:
    """The reading order of each page, from the text columns of all its `lines` (table cells
    and furniture too: the same columns the table finder searched), each table in `tables`
    (boxes by page) read in the column it stands in."""
    by_page: dict[int, list[TextLine]] = {}
    for ln in lines:
        by_page.setdefault(ln.page, []).append(ln)
    columns = {p: text_columns(v, (tables or {}).get(p, ())) for p, v in by_page.items()}
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
    tables = {p: pt.tables for p, pt in text.items()}
    order = reading_order(lines_around_tables(lines, tables, pages), pages, tables)
    index = with_outline(heading_index(text, body, order, bold), outline)
    return Sections(index, tuple(heading_lines(text, body, bold, order.columns)), order)


def heading_index(pages: dict[int, PageText], body: float | None = None,
                  order: ReadingOrder | None = None, bold: bool = True) -> SectionIndex:
    """(page, top, section path) after each heading found by typography, in reading order."""
    order = order or ReadingOrder()
    if body is None:
        body = body_font_size([ln for p in pages.values() for ln in p.lines])
    stack: list[tuple[tuple[float, int], str]] = []
    out = []
    # the stack follows reading order: a heading atop the right column comes after the left's
    for ln in sorted(heading_lines(pages, body, bold, order.columns),
                     key=lambda h: (h.page, order.top(h.page, h.bbox))):
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

"""What surrounds a table on the page: the content lines around it and the page furniture.

All from `TextLine`s (text, bbox, font size, bold). Running headers/footers and page numbers
are "furniture": ignored for captions, headings and merge decisions. The caption and footnotes
of a table are in `captions`, heading lines in `headings`, section paths in `sections`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rowkeeper.caption_text import is_caption
from rowkeeper.models import BBox, PageInfo, Region, Table, TextLine
from rowkeeper.page_columns import PageColumns

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


def lines_around_tables(lines: Sequence[TextLine], tables: Mapping[int, Sequence[BBox]],
                        pages: Sequence[PageInfo]) -> Sequence[TextLine]:
    """The lines that the steps shaping a table and the reading order read: on a scanned page,
    none inside a table box (`tables`, by page).

    The OCR layer gives a table's own runs as page text too (the body text a heading is sized
    against), but a run has no glyph positions: a header label cut at a character's x, as the
    steps do with the text layer's lines, would be cut at a guess; and a box the finder drew
    over prose beside a table would part the page into text columns."""
    scanned = {p.page for p in pages if p.kind == "scanned"}
    if not scanned:
        return lines
    return [ln for ln in lines if ln.page not in scanned or not any(inside(ln, b) for b in tables.get(ln.page, ()))]


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
    """Text with digits masked, so 'Page 3 of 9' and 'Page 4 of 9' repeat; a caption keeps its
    number ('Table 1: Costs' atop one page and 'Table 2: Costs' atop the next name two tables,
    no running header)."""
    t = text.strip().lower()
    return t if is_caption(t) else re.sub(r"\d+", "#", t)


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

    def in_a_row(self, line: TextLine, columns: PageColumns | None = None) -> bool:
        """Whether other labels set like it stand on the same line, as cells of a header row
        the table's box left out do (a heading stands alone); with the page's `columns`, in
        its own column box (a line of the next page column's text stands level by chance)."""
        y = (line.bbox[1] + line.bbox[3]) / 2
        box = columns.box_of(line) if columns is not None else 0
        return any(ln is not line and ln.bbox[1] < y < ln.bbox[3] and ln.bold == line.bold
                   and abs(ln.font_size - line.font_size) <= 0.5
                   and (ln.bbox[0] >= line.bbox[2] or ln.bbox[2] <= line.bbox[0])
                   and (columns is None or columns.box_of(ln) == box) for ln in self.lines)

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

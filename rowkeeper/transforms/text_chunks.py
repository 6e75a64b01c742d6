"""Text chunks for the prose around tables: paragraphs grouped under their section path.

A text chunk never holds a line from inside a table region (nor a table's caption or notes),
never mixes two sections, and never runs across a table: a table ends the chunk before it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rowkeeper.config import ChunkConfig
from rowkeeper.glyphs import is_cjk
from rowkeeper.models import BBox, Chunk, OutlineEntry, PageInfo, Table, TextLine
from rowkeeper.transforms.context import content_by_page, lines_outside_tables
from rowkeeper.transforms.orientation import (
    Turn,
    shown_lines,
    shown_outline,
    turn_bbox,
    turn_table,
    turns,
)
from rowkeeper.transforms.sections import ReadingOrder, Sections, document_sections
from rowkeeper.transforms.table_text import clean, count_tokens

_PAGE_NO = re.compile(r"^[-–—\s]*(page\s*)?\d+(\s*(/|of)\s*\d+)?[-–—\s]*$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*")


@dataclass(frozen=True)
class Para:
    """A paragraph: its lines, the section it is under, and the table-delimited block it is in."""

    section: tuple[str, ...]
    block: int
    lines: tuple[TextLine, ...]

    @property
    def text(self) -> str:
        """The paragraph's lines joined (CJK lines without a space between them)."""
        out = ""
        for ln in self.lines:
            t = clean(ln.text)
            sep = "" if not out or (is_cjk(out[-1]) and is_cjk(t[:1])) else " "
            out += sep + t
        return out


def _furniture(lines: Sequence[TextLine], cleaned: dict[int, str] | None = None) -> set[str]:
    """Running headers/footers: the same text (digits ignored) on at least two pages
    (`cleaned`: each line's clean text by id, when the caller has it)."""
    pages: dict[str, set[int]] = defaultdict(set)
    for ln in lines:
        text = cleaned[id(ln)] if cleaned is not None else clean(ln.text)
        pages[_DIGITS.sub("#", text)].add(ln.page)
    return {k for k, v in pages.items() if len(v) >= 2}


def prose_lines(lines: Sequence[TextLine], tables: Sequence[Table]) -> list[TextLine]:
    """Lines that are prose: not in a table region, not a caption or note, not page furniture."""
    owned = {clean(t.caption or "") for t in tables} | {clean(f) for t in tables for f in t.footnotes}
    cleaned = {id(ln): clean(ln.text) for ln in lines}  # each line's text cleaned once, not twice
    furniture = _furniture(lines, cleaned)
    kept, repeated = [], []
    for ln in lines_outside_tables(lines, tables):
        text = cleaned[id(ln)]  # lines_outside_tables keeps the same line objects
        if not text or text in owned or _PAGE_NO.match(text):
            continue
        (repeated if _DIGITS.sub("#", text) in furniture else kept).append(ln)
    # The furniture rule must never empty a page: where every line repeats on other pages (a
    # form, the same notice on each page), those lines are the page's content, not furniture.
    alone = {ln.page for ln in repeated} - {ln.page for ln in kept}
    out = kept + [ln for ln in repeated if ln.page in alone]
    return sorted(out, key=lambda ln: (ln.page, ln.bbox[1], ln.bbox[0]))


def _block_of(line: TextLine, anchors: Sequence[tuple[int, float]], order: ReadingOrder) -> int:
    """How many tables come before the line in reading order (the text block it lies in)."""
    if not anchors:  # a document without tables is one block (most of a corpus's pages)
        return 0
    at = (line.page, order.top(line.page, line.bbox))
    return sum(1 for a in anchors if a <= at)


def paragraphs(lines: Sequence[TextLine], tables: Sequence[Table],
               outline: Sequence[OutlineEntry] = (), pages: Sequence[PageInfo] = ()) -> list[Para]:
    """The prose as paragraphs, each tagged with its section path and table-delimited block.
    Headings, section paths and the reading order (column by column on a page set in columns)
    come from `sections.document_sections`, the same as the tables'."""
    boxes = [(r.page, r.bbox) for t in tables for r in t.regions]
    sections = document_sections(content_by_page(lines, pages, boxes), lines, outline, pages)
    order = sections.order
    prose = sorted(prose_lines(lines, tables), key=lambda ln: (ln.page, order.top(ln.page, ln.bbox), ln.bbox[0]))
    is_heading = {(ln.page, ln.bbox) for ln in sections.headings}
    anchors = sorted((r.page, order.top(r.page, r.bbox)) for t in tables for r in t.regions)
    out: list[list[TextLine]] = []
    for ln in prose:
        if (ln.page, ln.bbox) in is_heading:
            out.append([])
        elif out and out[-1] and not _breaks(out[-1][-1], ln, anchors, order):
            out[-1].append(ln)
        else:
            out.append([ln])
    paras = [Para(sections.path_at(g[0].page, g[0].bbox), _block_of(g[0], anchors, order), tuple(g))
             for g in out if g]
    return _keep_heading_only_pages(paras, [ln for ln in prose if (ln.page, ln.bbox) in is_heading],
                                    sections, anchors)


def _keep_heading_only_pages(paras: list[Para], heads: Sequence[TextLine], sections: Sections,
                             anchors: Sequence[tuple[int, float]]) -> list[Para]:
    """The heading rule must never empty a page: on a page where every prose line was taken for
    a heading, those lines are kept as a paragraph too (under the section they open)."""
    with_body = {ln.page for p in paras for ln in p.lines}
    by_page: dict[int, list[TextLine]] = defaultdict(list)
    for ln in heads:
        if ln.page not in with_body:
            by_page[ln.page].append(ln)
    order = sections.order
    extra = [Para(sections.path_at(found[0].page, found[0].bbox)[:-1], _block_of(found[0], anchors, order),
                  tuple(found)) for found in by_page.values()]
    if not extra:
        return paras
    return sorted([*paras, *extra], key=lambda p: (p.lines[0].page, order.top(p.lines[0].page, p.lines[0].bbox),
                                                   p.lines[0].bbox[0]))


def _breaks(prev: TextLine, line: TextLine, anchors: Sequence[tuple[int, float]], order: ReadingOrder) -> bool:
    """Whether `line` starts a new paragraph: new page, new column, a table between, or a wide gap."""
    if prev.page != line.page or _block_of(prev, anchors, order) != _block_of(line, anchors, order):
        return True
    if order.box(prev.page, prev.bbox) != order.box(line.page, line.bbox):
        return True
    height = max(prev.bbox[3] - prev.bbox[1], 1.0)
    return line.bbox[1] - prev.bbox[3] > 0.6 * height


def _pieces(text: str, budget: int, config: ChunkConfig) -> list[str]:
    """A paragraph cut at sentence ends (then hard) so that each piece fits the budget."""
    size = (lambda s: count_tokens(s)) if config.size_unit == "tokens" else len
    if size(text) <= budget:
        return [text]
    out, cur = [], ""
    for sent in (s for s in _SENTENCE.split(text) if s):
        while size(sent) > budget:  # one sentence longer than the budget: cut it hard
            head = sent[:budget] if config.size_unit == "chars" else " ".join(sent.split()[:budget])
            head = head or sent[:budget]
            out.append(head)
            sent = sent[len(head):].strip()
        if cur and size(cur + " " + sent) > budget:
            out.append(cur)
            cur = ""
        cur = (cur + " " + sent).strip()
    return out + ([cur] if cur else [])


def _regions(paras: Sequence[Para], by_page: dict[int, Turn]) -> list[dict[str, object]]:
    """Per page, the box around the paragraphs' lines (unrotated, like every cited box)."""
    boxes: dict[int, list[BBox]] = defaultdict(list)
    for p in paras:
        for ln in p.lines:
            boxes[ln.page].append(ln.bbox)
    out: list[dict[str, object]] = []
    for pg, bs in sorted(boxes.items()):
        box = (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))
        out.append({"page": pg, "bbox": list(turn_bbox(box, by_page[pg], back=True) if pg in by_page else box)})
    return out


def _text_chunk(doc_id: str, source: str, n: int, paras: Sequence[Para], body: str,
                by_page: dict[int, Turn]) -> Chunk:
    section = list(paras[0].section)
    head = [" > ".join(section)] if section else []
    regions = _regions(paras, by_page)
    return Chunk(chunk_id=f"{doc_id[:12]}:x{n}", doc_id=doc_id, source=source, table_id=None,
                 kind="text", text="\n".join(head + [body]),
                 metadata={"table_id": None, "pages": [r["page"] for r in regions],
                           "regions": regions, "section_path": section, "columns": [],
                           "caption": None, "row_start": None, "row_end": None,
                           "n_body_rows": 0})


def chunk_text(doc_id: str, source: str, lines: Sequence[TextLine], tables: Sequence[Table],
               config: ChunkConfig, outline: Sequence[OutlineEntry] = (),
               pages: Sequence[PageInfo] = ()) -> list[Chunk]:
    """Text chunks: consecutive paragraphs of one section and one block, packed to the budget.
    On pages with a /Rotate, lines are read in the order the page shows them."""
    by_page = turns(pages)
    if by_page:
        lines = shown_lines(lines, by_page)
        tables = [turn_table(t, by_page) for t in tables]
        outline = shown_outline(outline, by_page)
    groups: list[list[Para]] = []
    for p in paragraphs(lines, tables, outline, pages):
        if groups and (groups[-1][0].section, groups[-1][0].block) == (p.section, p.block):
            groups[-1].append(p)
        else:
            groups.append([p])
    out: list[Chunk] = []
    for group in groups:
        head = len(" > ".join(group[0].section)) + 1 if config.size_unit == "chars" else 0
        budget = max(1, config.text_max_chars - head)
        pieces = [(piece, p) for p in group for piece in _pieces(p.text, budget, config)]
        for body, paras in _pack(pieces, budget, config):
            out.append(_text_chunk(doc_id, source, len(out) + 1, paras, body, by_page))
    return out


def _pack(pieces: Sequence[tuple[str, Para]], budget: int,
          config: ChunkConfig) -> list[tuple[str, list[Para]]]:
    """Consecutive pieces joined by newlines while they fit, with the paragraphs they came from."""
    size = (lambda s: count_tokens(s)) if config.size_unit == "tokens" else len
    out: list[tuple[str, list[Para]]] = []
    for piece, para in pieces:
        if out and size(out[-1][0] + "\n" + piece) <= budget:
            body, paras = out[-1]
            out[-1] = (body + "\n" + piece, paras if paras[-1] is para else [*paras, para])
        else:
            out.append((piece, [para]))
    return out

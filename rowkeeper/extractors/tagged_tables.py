"""A tagged PDF's own tables: the structure tree's Table > TR > TH/TD, read per page.

MuPDF ties each marked-content glyph to its structure element (`TEXT_COLLECT_STRUCTURE`: the
text dict nests the page's text in blocks of the elements it belongs to, each with its tag and
its index among its parent's kids), so a cell's text is the text MuPDF reads inside the cell's
element: the same reader as the page model's lines and words. The element's own object gives
what the page's text cannot: RowSpan / ColSpan (its /A attributes), found by following those
indices down from /StructTreeRoot. A cell with no glyphs on the page has no block: a row short
of cells (an empty cell left out, a total under the last column) is laid on the columns by x.

`declared_tables` reads a page's declarations; `refusal` says what is wrong with one (tags
are often wrong: a layout table around a page, a one-column list, prose in TDs), None when it
may stand as the page's table. No record holds a PDF handle.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.finder.bullet_lists import MARKER
from rowkeeper.extractors.tagged_objects import attributes_of, element_at, kids_of
from rowkeeper.extractors.tagged_words import (
    WordBreak,
    spaced_wraps,
    word_breaks,
    word_end,
    word_start,
)
from rowkeeper.extractors.text_cells import clean_cell
from rowkeeper.glyphs import WIDE
from rowkeeper.models import BBox

ROW_GROUPS = frozenset({"THead", "TBody", "TFoot"})
CELLS = frozenset({"TH", "TD"})
_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
"""Hebrew and Arabic: a line in them keeps MuPDF's order of its spans (right to left)."""


@dataclass
class DeclaredCell:
    """One TH/TD with glyphs on the page: its text, box, spans and where it stands in its TR."""

    text: str
    bbox: BBox
    header: bool
    lines: int = 1
    row_span: int = 1
    col_span: int = 1
    nested: bool = False
    """It holds a Table of its own (a layout table around a data table)."""
    scope: str = ""
    """A TH's /Scope: Row (the head of its row, not a column's), Column or Both."""
    ident: str = ""
    """The element's /ID, which other cells' /Headers may name."""
    headers: tuple[str, ...] = ()
    """The /IDs of its header cells (/Headers in its /A: named instead of scoped)."""
    index: int = -1
    """Its index among its TR's kids (the same cell on two pages has the same)."""
    line_texts: tuple[str, ...] = ()
    """Its lines' texts, top to bottom (`text` joins them with a space at each break)."""
    breaks: tuple[WordBreak, ...] = ()
    """Its line breaks that may fall inside a word (`tagged_words`)."""
    line_ends: tuple[float, ...] = ()
    """Its lines' right edges."""
    word_edges: tuple[float | None, float | None] = (None, None)
    """`tagged_words.word_end` of its last line and `word_start` of its first: where a word
    may go on into the rest of the cell on the next page (a row the page break cut)."""


@dataclass
class DeclaredRow:
    """One TR with glyphs on the page, and whether it is in the table's THead."""

    cells: list[DeclaredCell] = field(default_factory=list)
    in_head: bool = False
    in_foot: bool = False
    key: tuple[int, int] = (-1, -1)
    """Where the TR stands in its Table element: (its row group's index, its index there);
    (-1, index) for a TR straight under the Table."""


@dataclass
class Declaration:
    """One Table element's rows on one page, as tagged."""

    page: int
    bbox: BBox
    rows: list[DeclaredRow] = field(default_factory=list)
    element: int | None = None
    """The Table element's object number (its pieces on other pages have the same)."""
    caption: str = ""
    """The text of its Caption element (its kid, or its sibling just before or after it)."""
    caption_bbox: BBox | None = None
    continued: bool = False
    """Its Table element has rows on the page before: a piece of a table over pages (it may
    hold a single row, the last one)."""
    moved: list[BBox] = field(default_factory=list)
    """Boxes of its text read into a row of the page before (a row the page break cut)."""
    spaced_wraps: bool = False
    """The page's layout keeps the space at its wraps (`tagged_words.spaced_wraps`)."""
    edges: list[tuple[float, float]] = field(default_factory=list)
    """(right edge, next character's advance) of the line breaks that may fall inside a word
    in the same Table element's cells on its other pages (`tagged_pages.broken_words_shared`)."""


def declared_tables(pdf: pymupdf.Document, structure: dict[str, Any], pno: int) -> list[Declaration]:
    """The Table elements with glyphs on page `pno` (`structure`: its `structure_dict`),
    outermost first, each with its rows there."""
    out: list[Declaration] = []
    spaced: bool | None = None
    for path, block, beside in _tables(structure["blocks"], ()):
        element = element_at(pdf, path)
        decl = _declaration(pdf, block, element, pno)
        decl.element = element
        spaced = spaced_wraps(structure["blocks"]) if spaced is None else spaced
        decl.spaced_wraps = spaced
        caption = next((b for b in _struct(block) if b.get("std") == "Caption"), beside)
        if caption is not None:
            spans, _ = _own_spans(caption)
            decl.caption = cell_text(_lines(spans))
            decl.caption_bbox = _union([s["bbox"] for s in spans]) if spans else None
        out.append(decl)
    return out


def declares_table(structure: dict[str, Any]) -> bool:
    """Whether the page's structure holds a Table element with glyphs on it."""
    return next(_tables(structure["blocks"], ()), None) is not None


def _tables(blocks: Sequence[dict[str, Any]], path: tuple[int, ...]
            ) -> Iterator[tuple[tuple[int, ...], dict[str, Any], dict[str, Any] | None]]:
    """(index path, block, Caption beside it) of every Table structure block, nested ones
    after their table; the Caption a sibling element just before the Table or just after it,
    on the side the parent sets its captions (its first Caption before its first Table: before,
    so that a Caption between two tables goes to one of them only). A paragraph next to a
    Table that reads as a caption counts as one (`_caption_like`)."""
    struct = [b for b in blocks if b.get("type") == 2]
    tags = [None, *(_caption_like(struct, k) or b.get("std") for k, b in enumerate(struct)), None]
    first = {t: tags.index(t) if t in tags else len(tags) for t in ("Caption", "Table")}
    side = -1 if first["Caption"] < first["Table"] else 1
    for k, b in enumerate(struct):
        here = (*path, int(b.get("index", -1)))
        if b.get("std") == "Table":
            yield here, b, struct[k + side] if tags[k + 1 + side] == "Caption" else None
        yield from _tables(b.get("blocks", ()), here)


CAPTION_REACH = 40.0
"""Points between a paragraph that reads as a caption and the Table element beside it."""
CAPTION_LINES = 3
"""Lines a paragraph read as a caption may have (more is prose that begins `Table 2 shows`)."""


def _caption_like(struct: Sequence[dict[str, Any]], k: int) -> str | None:
    """"Caption" when sibling element k is a paragraph set just before or after a Table element
    (within `CAPTION_REACH`), short, whose text reads as a table's caption (`表1：主要指標`:
    LibreOffice writes an HTML table's <caption> as a P before the Table; an author's
    `Table 2 …` line is one too); None otherwise."""
    b = struct[k]
    if b.get("std") in ("Caption", "Table") or not _holds_text(b):
        return None
    near = [t for t in (struct[k - 1] if k else None, struct[k + 1] if k + 1 < len(struct) else None)
            if t is not None and t.get("std") == "Table"
            and max(t["bbox"][1] - b["bbox"][3], b["bbox"][1] - t["bbox"][3]) <= CAPTION_REACH]
    if not near:
        return None
    lines = [ln for ln in _lines(_own_spans(b)[0]) if ln.strip()]
    return "Caption" if 0 < len(lines) <= CAPTION_LINES and is_caption(cell_text(lines)) else None


def _holds_text(block: dict[str, Any]) -> bool:
    return any(True for _ in _text_blocks(block))


def _declaration(pdf: pymupdf.Document, block: dict[str, Any], element: int | None, pno: int) -> Declaration:
    """The rows of one Table block (TRs directly under it or under THead/TBody/TFoot), THead's
    first and TFoot's last, wherever the structure lists them (HTML 4 put TFoot before TBody)."""
    decl = Declaration(page=pno, bbox=tuple(block["bbox"]))
    kids = kids_of(pdf, element) if element is not None else []
    groups: list[tuple[int, list[DeclaredRow]]] = []
    for b in _struct(block):
        tag = b.get("std")
        sub = _kid(kids, b)
        if tag in ROW_GROUPS:
            rows = kids_of(pdf, sub) if sub is not None else []
            at = int(b.get("index", -1))
            groups.append((_GROUP_ORDER[tag], [_row(pdf, tr, _kid(rows, tr), tag, (at, int(tr.get("index", -1))))
                                               for tr in _struct(b) if tr.get("std") == "TR"]))
        elif tag == "TR":
            groups.append((1, [_row(pdf, b, sub, "", (-1, int(b.get("index", -1))))]))
    decl.rows = [r for _, rows in sorted(groups, key=lambda g: g[0]) for r in rows]
    return decl


_GROUP_ORDER = {"THead": 0, "TBody": 1, "TFoot": 2}


def _struct(block: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in block.get("blocks", ()) if b.get("type") == 2]


def _kid(kids: Sequence[int | None], block: dict[str, Any]) -> int | None:
    i = int(block.get("index", -1))
    return kids[i] if 0 <= i < len(kids) else None


def _row(pdf: pymupdf.Document, tr: dict[str, Any], element: int | None, group: str,
         key: tuple[int, int]) -> DeclaredRow:
    """One TR's cells with glyphs on the page, text in MuPDF's reading order within each."""
    kids = kids_of(pdf, element) if element is not None else []
    row = DeclaredRow(in_head=group == "THead", in_foot=group == "TFoot", key=key)
    for b in _struct(tr):
        if b.get("std") not in CELLS:
            continue
        spans, glued = _own_spans(b)
        groups = _line_groups(spans)
        lines = [_joined(g) for g in groups]
        box = _union([s["bbox"] for s in spans]) if glued and spans else tuple(b["bbox"])
        a = attributes_of(pdf, _kid(kids, b))
        ends = tuple(max(s["bbox"][2] for s in g) for g in groups)
        edges = (word_end(groups[-1]), word_start(groups[0])) if groups else (None, None)
        row.cells.append(DeclaredCell(text=cell_text(lines), bbox=box, line_texts=tuple(lines),
                                      breaks=word_breaks(groups), line_ends=ends, word_edges=edges,
                                      header=b.get("std") == "TH",
                                      lines=len([ln for ln in lines if ln.strip()]), row_span=a.row_span,
                                      col_span=a.col_span, nested=_holds_table(b), scope=a.scope,
                                      ident=a.ident, headers=a.headers, index=int(b.get("index", -1))))
    return row


def cell_text(lines: Sequence[str], glued: frozenset[int] = frozenset()) -> str:
    """A cell's lines as one text: a space at each line break, none where it falls between two
    CJK characters (a wrap inside Japanese text, which has no spaces: `札幌セン | ター`) nor
    after a line in `glued` (by index: a word the layout broke, `tagged_words`)."""
    out, glue = "", False
    for k, line in enumerate(" ".join(ln.split()) for ln in lines):
        if line:
            out += ("" if not out or glue or WIDE.match(out[-1]) and WIDE.match(line[0]) else " ") + line
            glue = k in glued
    return clean_cell(out)


def _labels_dropped(block: dict[str, Any]) -> dict[str, Any]:
    """The block less the labels of the list items in it: an LI's Lbl element that holds a list
    marker (`•`, `1.`), or the marker its text starts with, set apart from the item's words
    (LibreOffice draws a bullet as text inside the item's body): the list's marks, not the
    cell's words (a browser draws them as paths, and HTML's text holds none)."""
    if block.get("type") != 2:
        return block
    kids = [_labels_dropped(b) for b in block.get("blocks", ())
            if not (block.get("std") == "LI" and b.get("std") == "Lbl" and _is_marker(b))]
    out = {**block, "blocks": kids}
    return _marker_dropped(out) if block.get("std") == "LI" else out


def _is_marker(label: dict[str, Any]) -> bool:
    """Whether an Lbl element's text is a list marker (a bullet, `1.`, `a)`), not a cell's words."""
    return bool(MARKER.match("".join(s["text"] for tb in _text_blocks(label) for ln in tb.get("lines", ())
                                     for s in ln["spans"]).strip()))


def _marker_dropped(item: dict[str, Any]) -> dict[str, Any]:
    """The LI block less its first span when that span is a lone list marker and the item's
    words follow it on its line."""
    spans = [s for tb in _text_blocks(item) for ln in tb.get("lines", ()) for s in ln["spans"] if s["text"].strip()]
    if len(spans) < 2:
        return item
    first = min(spans, key=lambda s: (round(s["bbox"][1]), s["bbox"][0]))
    level = [s for s in spans if s is not first and abs(s["bbox"][1] - first["bbox"][1]) < 0.5 * first["size"]]
    if not MARKER.match(first["text"].strip()) or not any(s["bbox"][0] > first["bbox"][2] for s in level):
        return item

    def walk(b: dict[str, Any]) -> dict[str, Any]:
        if b.get("type") == 2:
            return {**b, "blocks": [walk(k) for k in b.get("blocks", ())]}
        if b.get("type") == 0:
            lines = [{**ln, "spans": [s for s in ln["spans"] if s is not first]} for ln in b.get("lines", ())]
            return {**b, "lines": [ln for ln in lines if ln["spans"]]}
        return b

    return walk(item)


def _own_spans(block: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The spans of a cell's own text, and whether text glued to it was left out. MuPDF closes
    an element only when the next marked content opens: text drawn after the cell's last MCID
    and before the next (an /Artifact: a running header, a page number; unmarked text) lands
    in the cell as text blocks of its own, set apart from the cell's text. A block more than
    two lines away from the blocks before it is such text."""
    blocks = list(_text_blocks(_labels_dropped(block) if _holds(block, "LI") else block))
    if not blocks:
        return [], False
    kept, glued = [blocks[0]], False
    for tb in blocks[1:]:
        size = max((s["size"] for ln in tb.get("lines", ()) for s in ln["spans"]), default=10.0)
        top, bottom = min(k["bbox"][1] for k in kept), max(k["bbox"][3] for k in kept)
        if tb["bbox"][1] - bottom > 2 * size or top - tb["bbox"][3] > 2 * size:
            glued = True
            continue
        kept.append(tb)
    return [{**s, "block": k} for k, tb in enumerate(kept) for ln in tb.get("lines", ()) for s in ln["spans"]
            if s["text"]], glued


def _text_blocks(block: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for b in block.get("blocks", ()):
        if b.get("type") == 2:
            yield from _text_blocks(b)
        elif b.get("type") == 0:
            yield b


def _union(boxes: Sequence[Sequence[float]]) -> BBox:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _lines(spans: Sequence[dict[str, Any]]) -> list[str]:
    """The text lines of a cell's spans (nested elements included): grouped into lines by
    height, each read left to right, a space only where the glyphs stand apart (nested marked
    content, a `Span` around a sign, is no word break of its own)."""
    return [_joined(g) for g in _line_groups(spans)]


def _line_groups(spans: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A cell's spans grouped into lines by height, top to bottom, each left to right (a line
    in Hebrew or Arabic in MuPDF's order)."""
    spans = sorted(spans, key=lambda s: (s["bbox"][1] + s["bbox"][3]) / 2)
    lines: list[list[dict[str, Any]]] = []
    for sp in spans:
        mid = (sp["bbox"][1] + sp["bbox"][3]) / 2
        if lines and abs(mid - _mid(lines[-1])) < 0.5 * max(sp["size"], 1.0):
            lines[-1].append(sp)
        else:
            lines.append([sp])
    return [ln if any(_RTL.search(s["text"]) for s in ln) else sorted(ln, key=lambda s: s["bbox"][0])
            for ln in lines]


def _mid(line: list[dict[str, Any]]) -> float:
    return statistics.median((s["bbox"][1] + s["bbox"][3]) / 2 for s in line)


def _joined(spans: list[dict[str, Any]]) -> str:
    """A line's spans as one text: a space where they stand more than 0.2 em apart, or 0.4 em
    beside a full-width glyph (a layout sets about a quarter em between Asian and Western text,
    LibreOffice's `表 1`; a half-width space is 0.5 em)."""
    text = ""
    for prev, sp in zip([None, *spans], spans, strict=False):
        gap = max(sp["bbox"][0] - prev["bbox"][2], prev["bbox"][0] - sp["bbox"][2]) if prev else 0.0
        wide = bool(text.strip()) and bool(sp["text"].strip()) and (
            bool(WIDE.match(text.rstrip()[-1])) or bool(WIDE.match(sp["text"].lstrip()[0])))
        apart = gap > (0.4 if wide else 0.2) * max(sp["size"], 1.0)
        text += (" " if apart and text and not text[-1].isspace() else "") + sp["text"]
    return text


def _holds_table(block: dict[str, Any]) -> bool:
    return _holds(block, "Table")


def _holds(block: dict[str, Any], tag: str) -> bool:
    return any(b.get("std") == tag or _holds(b, tag) for b in _struct(block))


def median_height(decl: Declaration) -> float:
    """The median height of one line of the declaration's cells."""
    heights = [(c.bbox[3] - c.bbox[1]) / max(c.lines, 1) for r in decl.rows for c in r.cells]
    return statistics.median(heights) if heights else 0.0

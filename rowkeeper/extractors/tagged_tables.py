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

from rowkeeper.extractors.text_layer import clean_cell
from rowkeeper.glyphs import WIDE
from rowkeeper.models import BBox

ROW_GROUPS = frozenset({"THead", "TBody", "TFoot"})
CELLS = frozenset({"TH", "TD"})
_REF = re.compile(r"(\d+)\s+\d+\s+R")
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


def is_tagged(pdf: pymupdf.Document) -> bool:
    """Whether the catalog has a structure tree and says its content is marked (the cheap gate:
    an untagged PDF costs one catalog read)."""
    try:
        cat = pdf.pdf_catalog()
        if cat <= 0 or pdf.xref_get_key(cat, "StructTreeRoot")[0] in ("null", "undefined"):
            return False
        kind, marked = pdf.xref_get_key(cat, "MarkInfo/Marked")
    except (RuntimeError, ValueError):
        return False
    return kind == "null" or marked == "true"  # a tree without MarkInfo: the tables decide


def structure_dict(page: pymupdf.Page) -> dict[str, Any]:
    """The page's text dict with its structure blocks (MuPDF's structure of marked content)."""
    flags = pymupdf.TEXT_COLLECT_STRUCTURE | pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    _mcr_as_numbers(page)
    return page.get_textpage(flags=flags).extractDICT()


def _mcr_as_numbers(page: pymupdf.Page) -> None:
    """Write the marked-content references (/MCR dictionaries, ISO 32000 14.7.4.2) among the
    /K of the page's elements as the bare MCIDs they stand for, in the open document only.
    MuPDF ties a glyph to the element the ParentTree names only when that element's /K holds
    the MCID as a number: an element whose kids are MCR dictionaries (iText, Acrobat for content
    on another page than its /Pg) would have no glyphs. An MCR into a form XObject (/Stm) stays."""
    pdf = page.parent
    for xref in _parent_tree_entry(pdf, page):
        try:
            kind, value = pdf.xref_get_key(xref, "K")
            if "MCID" not in value or kind not in ("dict", "array"):
                continue
            fixed = _MCR.sub(lambda m: f" {m.group(2)} " if "/Stm" not in m.group(0) else m.group(0), value)
            if fixed != value:
                pdf.xref_set_key(xref, "K", f"[{fixed}]" if kind == "dict" else fixed)
        except (RuntimeError, ValueError):
            continue


_MCR = re.compile(r"<<((?:(?!<<|>>).)*?)/MCID\s+(\d+)(?:(?!<<|>>).)*>>", re.S)


def _parent_tree_entry(pdf: pymupdf.Document, page: pymupdf.Page) -> list[int]:
    """The xrefs of the elements the ParentTree lists for the page's marked content (its
    /StructParents key in the number tree; [] when there is none)."""
    try:
        kind, key = pdf.xref_get_key(page.xref, "StructParents")
        root = pdf.xref_get_key(pdf.pdf_catalog(), "StructTreeRoot/ParentTree")
        if kind != "int" or root[0] != "xref":
            return []
        node, n = int(root[1].split()[0]), int(key)
        for _ in range(32):  # down the number tree's /Kids to the leaf holding n
            nums = pdf.xref_get_key(node, "Nums")
            if nums[0] == "array":
                return _numbered(pdf, nums[1], n)
            kids = [int(m.group(1)) for m in _REF.finditer(pdf.xref_get_key(node, "Kids")[1])]
            node = next((k for k in kids if _in_limits(pdf, k, n)), 0)
            if not node:
                return []
    except (RuntimeError, ValueError):
        return []
    return []


def _in_limits(pdf: pymupdf.Document, node: int, n: int) -> bool:
    lo_hi = re.findall(r"-?\d+", pdf.xref_get_key(node, "Limits")[1])
    return len(lo_hi) == 2 and int(lo_hi[0]) <= n <= int(lo_hi[1])


def _numbered(pdf: pymupdf.Document, nums: str, n: int) -> list[int]:
    """The element xrefs of entry `n` of a /Nums array (key, value pairs; the value an array,
    inline or by reference)."""
    tokens = re.findall(r"\[|\]|\d+\s+\d+\s+R|-?\d+", nums[1:-1])
    i = 0
    while i + 1 < len(tokens):
        key, value = tokens[i], tokens[i + 1]
        if value == "[":
            end = tokens.index("]", i + 1)
            refs, i = tokens[i + 2:end], end + 1
        else:
            refs, i = [value], i + 2
        if key.lstrip("-").isdigit() and int(key) == n:
            if value != "[" and value.endswith("R"):  # the array by reference
                refs = _REF.findall(pdf.xref_object(int(value.split()[0]), compressed=True))
                return [int(r) for r in refs]
            return [int(r.split()[0]) for r in refs if r.endswith("R")]
    return []


def declared_tables(pdf: pymupdf.Document, structure: dict[str, Any], pno: int) -> list[Declaration]:
    """The Table elements with glyphs on page `pno` (`structure`: its `structure_dict`),
    outermost first, each with its rows there."""
    out: list[Declaration] = []
    for path, block, beside in _tables(structure["blocks"], ()):
        element = _element(pdf, path)
        decl = _declaration(pdf, block, element, pno)
        decl.element = element
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
    so that a Caption between two tables goes to one of them only)."""
    struct = [b for b in blocks if b.get("type") == 2]
    tags = [None, *(b.get("std") for b in struct), None]  # tags[k + 1] is struct[k]'s
    first = {t: tags.index(t) if t in tags else len(tags) for t in ("Caption", "Table")}
    side = -1 if first["Caption"] < first["Table"] else 1
    for k, b in enumerate(struct):
        here = (*path, int(b.get("index", -1)))
        if b.get("std") == "Table":
            yield here, b, struct[k + side] if tags[k + 1 + side] == "Caption" else None
        yield from _tables(b.get("blocks", ()), here)


def _kids(pdf: pymupdf.Document, xref: int, key: str = "K") -> list[int | None]:
    """The kids of an object's /K as xrefs (None for an MCID or an inline marked-content or
    object reference: they count in the indices MuPDF gives)."""
    try:
        kind, value = pdf.xref_get_key(xref, key)
    except (RuntimeError, ValueError):
        return []
    if kind == "xref":
        return [int(value.split()[0])]
    if kind != "array":
        return [None] if kind in ("int", "dict") else []
    out: list[int | None] = []
    depth = 0
    tokens = re.findall(r"<<|>>|\d+\s+0\s+R|[^\s\[\]<>]+", value[1:-1])
    for tok in tokens:
        if tok == "<<":
            depth += 1
            if depth == 1:
                out.append(None)
        elif tok == ">>":
            depth -= 1
        elif depth == 0:
            m = _REF.fullmatch(tok)
            out.append(int(m.group(1)) if m else None)
    return out


def _element(pdf: pymupdf.Document, path: Sequence[int]) -> int | None:
    """The xref of the structure element at `path` (indices among kids from the root's /K);
    None when the path does not lead to one (the attributes are then read as none)."""
    try:
        root = int(pdf.xref_get_key(pdf.pdf_catalog(), "StructTreeRoot")[1].split()[0])
        xref: int | None = root
        for i in path:
            kids = _kids(pdf, xref) if xref is not None else []
            xref = kids[i] if 0 <= i < len(kids) else None
            if xref is None:
                return None
        return xref
    except (RuntimeError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class _Attributes:
    row_span: int = 1
    col_span: int = 1
    scope: str = ""
    ident: str = ""
    headers: tuple[str, ...] = ()


def _attributes(pdf: pymupdf.Document, xref: int | None) -> _Attributes:
    """RowSpan, ColSpan, Scope and Headers of an element from its /A (a dict, a reference or
    an array of them, one per owner), and its /ID."""
    if xref is None:
        return _Attributes()
    try:
        kind, value = pdf.xref_get_key(xref, "A")
        texts = [value] if kind in ("dict", "array") else []
        refs = [int(m.group(1)) for m in _REF.finditer(value)] if kind in ("xref", "array") else []
        texts += [pdf.xref_object(r, compressed=True) for r in refs[:8]]
        id_kind, ident = pdf.xref_get_key(xref, "ID")
    except (RuntimeError, ValueError):
        return _Attributes()
    text = " ".join(texts)
    rs = re.search(r"/RowSpan\s+(\d+)", text)
    cs = re.search(r"/ColSpan\s+(\d+)", text)
    scope = re.search(r"/Scope\s*/(\w+)", text)
    named = re.search(r"/Headers\s*\[([^\]]*)\]", text)
    return _Attributes(max(1, int(rs.group(1))) if rs else 1, max(1, int(cs.group(1))) if cs else 1,
                       scope.group(1) if scope else "", ident if id_kind == "string" else "",
                       _strings(named.group(1)) if named else ())


def _strings(text: str) -> tuple[str, ...]:
    """The PDF strings of an array's text: literal `(..)` (escapes undone) or hex `<..>`."""
    out = []
    for lit, hexa in re.findall(r"\(((?:\\.|[^\\)])*)\)|<([0-9A-Fa-f\s]*)>", text):
        if hexa or not lit:
            digits = re.sub(r"\s", "", hexa)
            out.append(bytes.fromhex(digits + "0" * (len(digits) % 2)).decode("latin-1"))
        else:
            out.append(re.sub(r"\\(.)", r"\1", lit))
    return tuple(out)


def _declaration(pdf: pymupdf.Document, block: dict[str, Any], element: int | None, pno: int) -> Declaration:
    """The rows of one Table block (TRs directly under it or under THead/TBody/TFoot), THead's
    first and TFoot's last, wherever the structure lists them (HTML 4 put TFoot before TBody)."""
    decl = Declaration(page=pno, bbox=tuple(block["bbox"]))
    kids = _kids(pdf, element) if element is not None else []
    groups: list[tuple[int, list[DeclaredRow]]] = []
    for b in _struct(block):
        tag = b.get("std")
        sub = _kid(kids, b)
        if tag in ROW_GROUPS:
            rows = _kids(pdf, sub) if sub is not None else []
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
    kids = _kids(pdf, element) if element is not None else []
    row = DeclaredRow(in_head=group == "THead", in_foot=group == "TFoot", key=key)
    for b in _struct(tr):
        if b.get("std") not in CELLS:
            continue
        spans, glued = _own_spans(b)
        lines = _lines(spans)
        box = _union([s["bbox"] for s in spans]) if glued and spans else tuple(b["bbox"])
        a = _attributes(pdf, _kid(kids, b))
        row.cells.append(DeclaredCell(text=cell_text(lines), bbox=box,
                                      header=b.get("std") == "TH",
                                      lines=len([ln for ln in lines if ln.strip()]), row_span=a.row_span,
                                      col_span=a.col_span, nested=_holds_table(b), scope=a.scope,
                                      ident=a.ident, headers=a.headers, index=int(b.get("index", -1))))
    return row


def cell_text(lines: Sequence[str]) -> str:
    """A cell's lines as one text: a space at each line break, none where it falls between two
    CJK characters (a wrap inside Japanese text, which has no spaces: `札幌セン | ター`)."""
    out = ""
    for line in (" ".join(ln.split()) for ln in lines):
        if line:
            out += ("" if not out or WIDE.match(out[-1]) and WIDE.match(line[0]) else " ") + line
    return clean_cell(out)


def _own_spans(block: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The spans of a cell's own text, and whether text glued to it was left out. MuPDF closes
    an element only when the next marked content opens: text drawn after the cell's last MCID
    and before the next (an /Artifact: a running header, a page number; unmarked text) lands
    in the cell as text blocks of its own, set apart from the cell's text. A block more than
    two lines away from the blocks before it is such text."""
    blocks = list(_text_blocks(block))
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
    return [s for tb in kept for ln in tb.get("lines", ()) for s in ln["spans"] if s["text"]], glued


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
    spans = sorted(spans, key=lambda s: (s["bbox"][1] + s["bbox"][3]) / 2)
    lines: list[list[dict[str, Any]]] = []
    for sp in spans:
        mid = (sp["bbox"][1] + sp["bbox"][3]) / 2
        if lines and abs(mid - _mid(lines[-1])) < 0.5 * max(sp["size"], 1.0):
            lines[-1].append(sp)
        else:
            lines.append([sp])
    return [_joined(ln if any(_RTL.search(s["text"]) for s in ln) else sorted(ln, key=lambda s: s["bbox"][0]))
            for ln in lines]


def _mid(line: list[dict[str, Any]]) -> float:
    return statistics.median((s["bbox"][1] + s["bbox"][3]) / 2 for s in line)


def _joined(spans: list[dict[str, Any]]) -> str:
    text = ""
    for prev, sp in zip([None, *spans], spans, strict=False):
        gap = max(sp["bbox"][0] - prev["bbox"][2], prev["bbox"][0] - sp["bbox"][2]) if prev else 0.0
        apart = gap > 0.2 * max(sp["size"], 1.0)
        text += (" " if apart and text and not text[-1].isspace() else "") + sp["text"]
    return text


def _holds_table(block: dict[str, Any]) -> bool:
    return any(b.get("std") == "Table" or _holds_table(b) for b in _struct(block))


def median_height(decl: Declaration) -> float:
    """The median height of one line of the declaration's cells."""
    heights = [(c.bbox[3] - c.bbox[1]) / max(c.lines, 1) for r in decl.rows for c in r.cells]
    return statistics.median(heights) if heights else 0.0

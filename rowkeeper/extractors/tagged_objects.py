"""The structure tree's objects as MuPDF exposes them: whether a PDF is tagged, a page's text
dict with its structure blocks, an element's kids and its /A attributes (RowSpan, ColSpan,
Scope, Headers) and /ID. `tagged_tables` builds the declared tables from these; nothing here
knows what a table is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pymupdf

REF = re.compile(r"(\d+)\s+\d+\s+R")


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
            kids = [int(m.group(1)) for m in REF.finditer(pdf.xref_get_key(node, "Kids")[1])]
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
                refs = REF.findall(pdf.xref_object(int(value.split()[0]), compressed=True))
                return [int(r) for r in refs]
            return [int(r.split()[0]) for r in refs if r.endswith("R")]
    return []


def kids_of(pdf: pymupdf.Document, xref: int, key: str = "K") -> list[int | None]:
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
            m = REF.fullmatch(tok)
            out.append(int(m.group(1)) if m else None)
    return out


def element_at(pdf: pymupdf.Document, path: Sequence[int]) -> int | None:
    """The xref of the structure element at `path` (indices among kids from the root's /K);
    None when the path does not lead to one (the attributes are then read as none)."""
    try:
        root = int(pdf.xref_get_key(pdf.pdf_catalog(), "StructTreeRoot")[1].split()[0])
        xref: int | None = root
        for i in path:
            kids = kids_of(pdf, xref) if xref is not None else []
            xref = kids[i] if 0 <= i < len(kids) else None
            if xref is None:
                return None
        return xref
    except (RuntimeError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class Attributes:
    row_span: int = 1
    col_span: int = 1
    scope: str = ""
    ident: str = ""
    headers: tuple[str, ...] = ()


def attributes_of(pdf: pymupdf.Document, xref: int | None) -> Attributes:
    """RowSpan, ColSpan, Scope and Headers of an element from its /A (a dict, a reference or
    an array of them, one per owner), and its /ID."""
    if xref is None:
        return Attributes()
    try:
        kind, value = pdf.xref_get_key(xref, "A")
        texts = [value] if kind in ("dict", "array") else []
        refs = [int(m.group(1)) for m in REF.finditer(value)] if kind in ("xref", "array") else []
        texts += [pdf.xref_object(r, compressed=True) for r in refs[:8]]
        id_kind, ident = pdf.xref_get_key(xref, "ID")
    except (RuntimeError, ValueError):
        return Attributes()
    text = " ".join(texts)
    rs = re.search(r"/RowSpan\s+(\d+)", text)
    cs = re.search(r"/ColSpan\s+(\d+)", text)
    scope = re.search(r"/Scope\s*/(\w+)", text)
    named = re.search(r"/Headers\s*\[([^\]]*)\]", text)
    return Attributes(max(1, int(rs.group(1))) if rs else 1, max(1, int(cs.group(1))) if cs else 1,
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

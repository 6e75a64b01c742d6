"""Tagged PDFs for tests: text in marked content (BDC/EMC with an MCID) tied to a structure
tree (StructTreeRoot > Document > Table > TR > TH/TD, ParentTree, MarkInfo) written through
PyMuPDF's xref API, since no library here writes tags. `tagged=False` writes the same text
with no marked content and no tree: the untagged twin."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf


@dataclass(frozen=True)
class TCell:
    """A TH/TD: its text at (x, top) on `page` (0-based), with its spans; a line break in
    `text` sets the next line under it."""

    text: str
    x: float
    top: float
    page: int = 0
    tag: str = "TD"
    row_span: int = 1
    col_span: int = 1
    size: float = 10.0
    inner: TTable | None = None
    """A table nested in the cell (its text then comes from that table)."""


@dataclass(frozen=True)
class TTable:
    """A Table element: its rows (THead rows first), each a list of cells."""

    rows: Sequence[Sequence[TCell]]
    head_rows: int = 0


@dataclass(frozen=True)
class TPara:
    """A P element: one or more lines at (x, top) on `page`."""

    lines: Sequence[str]
    x: float
    top: float
    page: int = 0
    size: float = 10.0


@dataclass
class _Page:
    ops: list[str] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)  # struct element xref per MCID


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_tagged_pdf(path: Path, tables: Sequence[TTable], paras: Sequence[TPara] = (), pages: int = 1,
                     tagged: bool = True, height: float = 842.0) -> Path:
    """Write the tables and paragraphs (Helvetica) to `path`, tagged or not; returns `path`."""
    pdf = pymupdf.open()
    for _ in range(pages):
        pdf.new_page(width=595, height=height)
    content = [_Page() for _ in range(pages)]
    new = pdf.get_new_xref
    root, top = new(), new()
    kids: list[int] = []

    def mark(elem: int, tag: str, page: int, lines: Sequence[tuple[float, float, str]], size: float) -> int:
        pg = content[page]
        mcid = len(pg.parents)
        pg.parents.append(elem)
        text = "".join(f"BT /helv {size} Tf 1 0 0 1 {x:.2f} {height - y - size:.2f} Tm ({_esc(t)}) Tj ET\n"
                       for x, y, t in lines)
        pg.ops.append(f"/{tag} <</MCID {mcid}>> BDC\n{text}EMC\n" if tagged else text)
        return mcid

    def build(table: TTable, parent: int) -> int:
        t = new()
        trs = []
        for row in table.rows:
            tr = new()
            trs.append(tr)
            cells = []
            for c in row:
                cx = new()
                cells.append(cx)
                if c.inner is not None:  # a table nested in the cell
                    kid = f"{build(c.inner, cx)} 0 R"
                else:
                    lines = [(c.x, c.top + k * 1.25 * c.size, ln) for k, ln in enumerate(c.text.split("\n"))]
                    kid = str(mark(cx, c.tag, c.page, lines, c.size))
                attrs = f"/A << /O /Table /RowSpan {c.row_span} /ColSpan {c.col_span} >>" \
                    if (c.row_span, c.col_span) != (1, 1) else ""
                pdf.update_object(cx, f"<< /Type /StructElem /S /{c.tag} /P {tr} 0 R "
                                      f"/Pg {pdf[c.page].xref} 0 R /K {kid} {attrs} >>")
            pdf.update_object(tr, f"<< /Type /StructElem /S /TR /P {t} 0 R /K [{_refs(cells)}] >>")
        groups = _groups(pdf, t, trs, table.head_rows)
        pdf.update_object(t, f"<< /Type /StructElem /S /Table /P {parent} 0 R /K [{_refs(groups)}] >>")
        return t

    kids += [build(table, top) for table in tables]
    for para in paras:
        p = new()
        kids.append(p)
        lines = [(para.x, para.top + k * 1.25 * para.size, ln) for k, ln in enumerate(para.lines)]
        mcid = mark(p, "P", para.page, lines, para.size)
        pdf.update_object(p, f"<< /Type /StructElem /S /P /P {top} 0 R /Pg {pdf[para.page].xref} 0 R /K {mcid} >>")
    for n, pg in enumerate(content):
        page = pdf[n]
        page.insert_font(fontname="helv")
        xref = new()
        pdf.update_object(xref, "<< >>")
        pdf.update_stream(xref, "".join(pg.ops).encode("latin-1"))
        pdf.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
        if tagged:
            pdf.xref_set_key(page.xref, "StructParents", str(n))
    nums = " ".join(f"{n} [{_refs(pg.parents)}]" for n, pg in enumerate(content))
    tree = new()
    pdf.update_object(tree, f"<< /Nums [{nums}] >>")
    pdf.update_object(top, f"<< /Type /StructElem /S /Document /P {root} 0 R /K [{_refs(kids)}] >>")
    pdf.update_object(root, f"<< /Type /StructTreeRoot /K [{top} 0 R] /ParentTree {tree} 0 R >>")
    if tagged:
        cat = pdf.pdf_catalog()
        pdf.xref_set_key(cat, "StructTreeRoot", f"{root} 0 R")
        pdf.xref_set_key(cat, "MarkInfo", "<< /Marked true >>")
    pdf.save(path)
    pdf.close()
    return path


def _refs(xrefs: Sequence[int]) -> str:
    return " ".join(f"{x} 0 R" for x in xrefs)


def _groups(pdf: pymupdf.Document, table: int, trs: Sequence[int], head_rows: int) -> list[int]:
    """THead and TBody around the rows (the rows' /P set to their group), or the rows alone."""
    if not head_rows:
        return list(trs)
    out = []
    for tag, rows in (("THead", trs[:head_rows]), ("TBody", trs[head_rows:])):
        g = pdf.get_new_xref()
        pdf.update_object(g, f"<< /Type /StructElem /S /{tag} /P {table} 0 R /K [{_refs(rows)}] >>")
        for tr in rows:
            pdf.xref_set_key(tr, "P", f"{g} 0 R")
        out.append(g)
    return out

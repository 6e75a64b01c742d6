"""Tagged PDFs for tests: text in marked content (BDC/EMC with an MCID) tied to a structure
tree (StructTreeRoot > Document > Table > TR > TH/TD, ParentTree, MarkInfo) written through
PyMuPDF's xref API, since no library here writes tags. `tagged=False` writes the same text
with no marked content and no tree: the untagged twin.

The shapes of ISO 32000 14.8.4.3.4 and PDF/UA that real exports write are options: THead /
TBody / TFoot, RowSpan / ColSpan / Scope in /A (a dict, an array of owners' dicts or a
reference; /Headers naming other cells' /ID), a cell's text in a P under it (Word) or in one marked-content sequence per line,
an empty cell with no kids, grouping elements (Sect, Div, Part) around a table, custom element
names through the /RoleMap (InDesign, Word), kids as /MCR dictionaries, a link's /OBJR kid in
a cell, and text marked as an /Artifact (not in the tree) printed among the cells."""

from __future__ import annotations

import re
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
    para: bool = False
    """The text in a P element under the cell (as Word writes a cell), one MCID per line."""
    scope: str = ""
    """/Scope of a TH (Row, Column, Both), written in its /A."""
    link: bool = False
    """A link annotation over the cell's text: a Link element with the text and an /OBJR kid."""
    ident: str = ""
    """The element's /ID (a byte string other cells' /Headers name)."""
    headers: Sequence[str] = ()
    """The /IDs of the cell's header cells, written as /Headers in its /A (in place of Scope)."""
    kids: Sequence[str] = ()
    """The text in several marked-content sequences: its lines, each split further at "|" into
    pieces drawn one after the other on the line, one sequence a piece; `kids` gives each
    piece's element path under the cell ("" a bare MCID of the cell, "Span", "Link",
    "L/LI/Lbl": nested elements, a prefix shared by the cell's pieces that name it alike)."""
    late: bool = False
    """Its content drawn after the rest of the page's (out of reading order)."""
    rest: TPara | None = None
    """Its last lines printed on another page under the same element (a row the page break
    cut), marked there and listed as an /MCR kid of the cell."""


@dataclass(frozen=True)
class TTable:
    """A Table element: its rows (THead rows first), each a list of cells."""

    rows: Sequence[Sequence[TCell]]
    head_rows: int = 0
    foot_rows: int = 0
    """The last rows in a TFoot."""
    wrap: Sequence[str] = ()
    """Grouping elements around the table, outermost first ("Sect", "Div", "Part")."""
    foot_first: bool = False
    """TFoot listed before TBody in the structure (as HTML 4 wrote it)."""
    caption: TPara | None = None
    """A Caption element: the Table's first kid, or its sibling (`caption_beside`), before the
    Table when printed above it, after it when printed under it."""
    caption_beside: bool = False


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
    at: list[tuple[float, float]] = field(default_factory=list)  # (x, top) of each op's first line
    parents: list[int] = field(default_factory=list)  # struct element xref per MCID
    late: list[bool] = field(default_factory=list)  # each op drawn after the others


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_tagged_pdf(path: Path, tables: Sequence[TTable], paras: Sequence[TPara] = (), pages: int = 1,
                     tagged: bool = True, height: float = 842.0, *, role_map: dict[str, str] | None = None,
                     mcr: bool = False, attrs: str = "dict", artifacts: Sequence[TPara] = (),
                     by_column: bool = False, rotate: int = 0) -> Path:
    """Write the tables and paragraphs (Helvetica) to `path`, tagged or not; returns `path`.
    `role_map` ({custom name: standard type}) names the elements by their custom names; `mcr`
    writes marked-content kids as /MCR dictionaries; `attrs` writes /A as a "dict", an "array"
    (a Layout owner's dict first) or a "ref"; `artifacts` are printed as /Artifact content;
    `by_column` draws the page's text column by column (left to right, each top to bottom),
    not in the structure's order; `rotate=90` writes each page as a landscape media box turned
    by /Rotate 90, its content drawn sideways so that the page shows upright as given."""
    pdf = pymupdf.open()
    for _ in range(pages):
        pdf.new_page(width=height, height=595) if rotate else pdf.new_page(width=595, height=height)
    content = [_Page() for _ in range(pages)]
    new = pdf.get_new_xref
    root, top = new(), new()
    kids: list[int] = []
    custom = {std: name for name, std in (role_map or {}).items()}

    def s_(tag: str) -> str:
        return custom.get(tag, tag)

    def kid_of(mcid: int, page: int) -> str:
        return f"<< /Type /MCR /Pg {pdf[page].xref} 0 R /MCID {mcid} >>" if mcr else str(mcid)

    def mark(elem: int, tag: str, page: int, lines: Sequence[tuple[float, float, str]], size: float,
             late: bool = False) -> int:
        pg = content[page]
        pg.late.append(late)
        mcid = len(pg.parents)
        pg.parents.append(elem)
        text = "".join(f"BT /helv {size} Tf 1 0 0 1 {x:.2f} {height - y - size:.2f} Tm ({_esc(t)}) Tj ET\n"
                       for x, y, t in lines)
        pg.ops.append(f"/{tag} <</MCID {mcid}>> BDC\n{text}EMC\n" if tagged else text)
        pg.at.append((lines[0][0], lines[0][1]) if lines else (0.0, 0.0))
        return mcid

    def cell_kid(c: TCell, cx: int) -> str:
        lines = [(c.x, c.top + k * 1.25 * c.size, ln) for k, ln in enumerate(c.text.split("\n"))]
        if c.inner is not None:  # a table nested in the cell
            return f"{build(c.inner, cx)} 0 R"
        if not c.text:  # an empty cell: no kids
            return "[]"
        if c.kids:
            return pieces(c, cx)
        if c.para or c.link:  # TD > P (a marked-content sequence per line), or TD > Link
            e = new()
            tag = "Link" if c.link else "P"
            mcids = [kid_of(mark(e, tag, c.page, [ln], c.size), c.page) for ln in lines]
            objr = f" << /Type /OBJR /Pg {pdf[c.page].xref} 0 R /Obj {_link(pdf, c)} 0 R >>" if c.link else ""
            pdf.update_object(e, f"<< /Type /StructElem /S /{s_(tag)} /P {cx} 0 R /Pg {pdf[c.page].xref} 0 R "
                                 f"/K [{' '.join(mcids)}{objr}] >>")
            return f"{e} 0 R"
        first = kid_of(mark(cx, c.tag, c.page, lines, c.size, c.late), c.page)
        if c.rest is None:
            return first
        r = c.rest
        more = mark(cx, c.tag, r.page, [(r.x, r.top + k * 1.25 * r.size, ln) for k, ln in enumerate(r.lines)], r.size)
        return f"[{first} << /Type /MCR /Pg {pdf[r.page].xref} 0 R /MCID {more} >>]"

    def pieces(c: TCell, cx: int) -> str:
        """The cell's pieces, each its marked-content sequence, under the elements `kids` names."""
        parts = [(c.x + pymupdf.get_text_length("".join(ln.split("|")[:k]), "helv", c.size),
                  c.top + i * 1.25 * c.size, part)
                 for i, ln in enumerate(c.text.split("\n")) for k, part in enumerate(ln.split("|"))]
        elems: dict[str, int] = {}
        children: dict[int, list[str]] = {cx: []}
        tags: dict[int, str] = {}
        for (x, y, part), path in zip(parts, c.kids, strict=True):
            parent = cx
            steps = [p for p in path.split("/") if p]
            for k in range(len(steps)):
                key = "/".join(steps[:k + 1])
                if key not in elems:
                    elems[key] = new()
                    tags[elems[key]] = re.sub(r"\d+$", "", steps[k])
                    children[elems[key]] = []
                    children[parent].append(f"{elems[key]} 0 R")
                parent = elems[key]
            mcid = mark(parent, tags.get(parent, c.tag), c.page, [(x, y, part)], c.size, c.late)
            children[parent].append(kid_of(mcid, c.page))
        for e, tag in tags.items():
            up = next(p for p, kids in children.items() if f"{e} 0 R" in kids)
            pdf.update_object(e, f"<< /Type /StructElem /S /{s_(tag)} /P {up} 0 R /Pg {pdf[c.page].xref} 0 R "
                                 f"/K [{' '.join(children[e])}] >>")
        return f"[{' '.join(children[cx])}]"

    def attributes(c: TCell) -> str:
        entries = "".join(f" /{k} {v}" for k, v in (("RowSpan", c.row_span), ("ColSpan", c.col_span)) if v != 1)
        entries += f" /Scope /{c.scope}" if c.scope else ""
        entries += f" /Headers [{' '.join(f'({_esc(h)})' for h in c.headers)}]" if c.headers else ""
        if not entries:
            return ""
        table = f"<< /O /Table{entries} >>"
        if attrs == "array":
            return f"/A [<< /O /Layout /Placement /Block >> {table}]"
        if attrs == "ref":
            a = new()
            pdf.update_object(a, table)
            return f"/A {a} 0 R"
        return f"/A {table}"

    def build(table: TTable, parent: int) -> int:
        for tag in table.wrap:  # Sect / Div / Part around the table
            w = new()
            pdf.update_object(w, f"<< /Type /StructElem /S /{s_(tag)} /P {parent} 0 R /K [{w + 1} 0 R] >>")
            parent = w
        t = new()
        trs = []
        for row in table.rows:
            tr = new()
            trs.append(tr)
            cells = []
            for c in row:
                cx = new()
                cells.append(cx)
                kid = cell_kid(c, cx)
                pdf.update_object(cx, f"<< /Type /StructElem /S /{s_(c.tag)} /P {tr} 0 R "
                                      f"/Pg {pdf[c.page].xref} 0 R /K {kid} {attributes(c)}"
                                      f"{f' /ID ({_esc(c.ident)})' if c.ident else ''} >>")
            pdf.update_object(tr, f"<< /Type /StructElem /S /{s_('TR')} /P {t} 0 R /K [{_refs(cells)}] >>")
        groups = _groups(pdf, t, trs, table.head_rows, table.foot_rows, s_)
        if table.foot_first and table.foot_rows:
            groups = [*groups[:-2], groups[-1], groups[-2]]
        if table.caption is not None and not table.caption_beside:
            groups.insert(0, caption(table.caption, t))
        pdf.update_object(t, f"<< /Type /StructElem /S /{s_('Table')} /P {parent} 0 R /K [{_refs(groups)}] >>")
        return _outermost(pdf, t, len(table.wrap))

    def caption(para: TPara, parent: int) -> int:
        e = new()
        lines = [(para.x, para.top + k * 1.25 * para.size, ln) for k, ln in enumerate(para.lines)]
        mcid = mark(e, "Caption", para.page, lines, para.size)
        pdf.update_object(e, f"<< /Type /StructElem /S /{s_('Caption')} /P {parent} 0 R /Pg {pdf[para.page].xref} 0 R "
                             f"/K {kid_of(mcid, para.page)} >>")
        return e

    for table in tables:  # a Caption beside the Table: before it when printed above it, else after
        beside = table.caption if table.caption is not None and table.caption_beside else None
        under = beside is not None and beside.top > min(c.top for r in table.rows for c in r)
        kids += [*([caption(beside, top)] if beside and not under else []), build(table, top),
                 *([caption(beside, top)] if beside and under else [])]
    for para in paras:
        p = new()
        kids.append(p)
        lines = [(para.x, para.top + k * 1.25 * para.size, ln) for k, ln in enumerate(para.lines)]
        mcid = mark(p, "P", para.page, lines, para.size)
        pdf.update_object(p, f"<< /Type /StructElem /S /{s_('P')} /P {top} 0 R /Pg {pdf[para.page].xref} 0 R "
                             f"/K {kid_of(mcid, para.page)} >>")
    for art in artifacts:  # printed, marked as no part of the content: not in the tree
        text = "".join(f"BT /helv {art.size} Tf 1 0 0 1 {art.x:.2f} {height - art.top - k * 1.25 * art.size - art.size:.2f} "
                       f"Tm ({_esc(ln)}) Tj ET\n" for k, ln in enumerate(art.lines))
        content[art.page].ops.append(f"/Artifact BMC\n{text}EMC\n" if tagged else text)
        content[art.page].late.append(False)
        content[art.page].at.append((art.x, art.top))
    for n, pg in enumerate(content):
        page = pdf[n]
        page.insert_font(fontname="helv")
        xref = new()
        pdf.update_object(xref, "<< >>")
        ops = [op for _, op in sorted(zip(pg.at, pg.ops, strict=True), key=lambda a: a[0])] if by_column else (
            [op for op, late in zip(pg.ops, pg.late, strict=True) if not late]
            + [op for op, late in zip(pg.ops, pg.late, strict=True) if late])
        turn = [f"q 0 1 -1 0 {height:.2f} 0 cm\n"] if rotate else []
        pdf.update_stream(xref, "".join([*turn, *ops, *(["Q\n"] if rotate else [])]).encode("latin-1"))
        pdf.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
        if rotate:
            page.set_rotation(rotate)
        if tagged:
            pdf.xref_set_key(page.xref, "StructParents", str(n))
    nums = " ".join(f"{n} [{_refs(pg.parents)}]" for n, pg in enumerate(content))
    tree = new()
    pdf.update_object(tree, f"<< /Nums [{nums}] >>")
    roles = "".join(f" /{name} /{std}" for name, std in (role_map or {}).items())
    pdf.update_object(top, f"<< /Type /StructElem /S /{s_('Document')} /P {root} 0 R /K [{_refs(kids)}] >>")
    pdf.update_object(root, f"<< /Type /StructTreeRoot /K [{top} 0 R] /ParentTree {tree} 0 R"
                            f"{f' /RoleMap <<{roles} >>' if roles else ''} >>")
    if tagged:
        cat = pdf.pdf_catalog()
        pdf.xref_set_key(cat, "StructTreeRoot", f"{root} 0 R")
        pdf.xref_set_key(cat, "MarkInfo", "<< /Marked true >>")
    pdf.save(path)
    pdf.close()
    return path


def _refs(xrefs: Sequence[int]) -> str:
    return " ".join(f"{x} 0 R" for x in xrefs)


def _groups(pdf: pymupdf.Document, table: int, trs: Sequence[int], head_rows: int, foot_rows: int = 0,
            name=lambda tag: tag) -> list[int]:
    """THead, TBody and TFoot around the rows (the rows' /P set to their group), or the rows alone."""
    if not head_rows and not foot_rows:
        return list(trs)
    out = []
    end = len(trs) - foot_rows
    for tag, rows in (("THead", trs[:head_rows]), ("TBody", trs[head_rows:end]), ("TFoot", trs[end:])):
        if not rows:
            continue
        g = pdf.get_new_xref()
        pdf.update_object(g, f"<< /Type /StructElem /S /{name(tag)} /P {table} 0 R /K [{_refs(rows)}] >>")
        for tr in rows:
            pdf.xref_set_key(tr, "P", f"{g} 0 R")
        out.append(g)
    return out


def _outermost(pdf: pymupdf.Document, table: int, wraps: int) -> int:
    """The outermost grouping element around a table (the table itself when it has none)."""
    elem = table
    for _ in range(wraps):
        elem = int(pdf.xref_get_key(elem, "P")[1].split()[0])
    return elem


def _link(pdf: pymupdf.Document, c: TCell) -> int:
    """A URI link annotation over the cell's first line; its xref."""
    page = pdf[c.page]
    rect = pymupdf.Rect(c.x, c.top, c.x + 0.6 * c.size * len(c.text.split("\n")[0]), c.top + c.size * 1.2)
    page.insert_link({"kind": pymupdf.LINK_URI, "from": rect, "uri": "https://example.org/"})
    return page.first_link.xref if page.first_link else 0

"""The tagged layer: a tagged PDF's own tables (its structure tree's Table > TR > TH/TD).

Cheapest of the text layers where it applies: the author's grid, its spans and its TH header
rows, read from the page's marked content (`tagged_tables`), laid out and checked
(`tagged_grid`). A declaration that fails a check is left to the finder (the next layers), the
reason recorded as the page's note in its attempt. An untagged PDF costs one catalog read:
`applies` is false and the cascade passes the layer over without an attempt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

import pymupdf
from pydantic import BaseModel, ConfigDict

from rowkeeper.boxes import area, centre_in, overlap
from rowkeeper.extractors.page_model import DocumentModel, PageModel, document_of
from rowkeeper.extractors.tagged_grid import Grid, Placed, cell_box, lay_out, refusal
from rowkeeper.extractors.tagged_objects import is_tagged
from rowkeeper.extractors.tagged_pages import Read, across_pages
from rowkeeper.extractors.tagged_tables import Declaration, declared_tables
from rowkeeper.extractors.text_cells import spans_of_dict, typography
from rowkeeper.extractors.upright import map_bbox
from rowkeeper.ids import piece_id
from rowkeeper.models import (
    DECLARED_HEADER_ROWS,
    DECLARED_TABLE,
    BBox,
    Cell,
    DocumentInput,
    Extraction,
    PageKind,
    RawTable,
    TextLine,
)


class TaggedOptions(BaseModel):
    """Options of the tagged layer."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    max_foreign_words: float = 0.1
    """Share of the words inside a table's box that may lie in none of its cells (untagged
    text inside the region: a repeated header marked as an artifact); above it, refused."""


class TaggedExtractor:
    """Tables the PDF declares in its structure tree, where the declaration passes the checks."""

    name: ClassVar[str] = "tagged"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"text"})
    Options: ClassVar[type[BaseModel]] = TaggedOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, TaggedOptions) else TaggedOptions()

    @property
    def version(self) -> str:
        """PyMuPDF's version (MuPDF reads the structure of the marked content)."""
        return str(pymupdf.VersionBind)

    def applies(self, model: DocumentModel) -> bool:
        """Whether the document is tagged (the catalog's StructTreeRoot and MarkInfo)."""
        return model.tagged

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """The declared tables of `pages` that pass the checks; a note per page on the rest."""
        tables: list[RawTable] = []
        notes: list[tuple[int, str]] = []
        with document_of(doc, model) as m:
            if not is_tagged(m.pdf):
                return Extraction(notes=tuple((p, "not a tagged PDF") for p in pages))
            views = list(m.pages(pages))
            read = across_pages({v.pno: _declared(m.pdf, v) for v in views})
            for view in views:
                kept, why = self.page_tables(doc, m.pdf, view, read[view.pno])
                tables += kept
                notes += [(view.pno, w) for w in why]
        return Extraction(tables=tuple(tables), notes=tuple(notes))

    def page_tables(self, doc: DocumentInput, pdf: pymupdf.Document, view: PageModel,
                    read: Read | None = None) -> tuple[list[RawTable], list[str]]:
        """The page's accepted tables and why each other declaration was refused (`read`: its
        declarations, `_declared`'s, when already read)."""
        read = _declared(pdf, view) if read is None else read
        if isinstance(read, str):
            return [], [read]
        turn, decls = read
        if not decls:
            return [], [_undeclared(view.structure)]
        grids = [lay_out(d) for d in decls]
        boxes = [cell_box([p.cell for p in g.placed]) if g.placed else d.bbox for d, g in zip(decls, grids, strict=True)]
        back = ~turn  # laid out and checked upright; handed on in the page's unrotated coordinates
        tables: list[RawTable] = []
        why: list[str] = []
        for i, (d, g) in enumerate(zip(decls, grids, strict=True)):
            g, box = _mapped(g, back), map_bbox(boxes[i], back)
            reason = refusal(d, grids[i]) or _around(i, boxes) or self._foreign(view, g, box, [map_bbox(b, back) for b in d.moved])
            if reason:
                why.append(f"tagged table {i + 1} refused: {reason}")
                continue
            table = self._table(doc, view, g, _framed(box, view.features.ruled_regions), len(tables) + 1, d.element)
            tables.append(_captioned(table, d, back))
        return tables, why

    def _foreign(self, view: PageModel, grid: Grid, box: BBox, moved: Sequence[BBox] = ()) -> str | None:
        """Words of the table's region in none of its cells (nor in the text of a row the page
        break cut, read on the page before), when more than the options allow."""
        words = [tuple(w[:4]) for w in view.words(box) if w[4].strip()]
        cells = [_pad(p.cell.bbox, 1.0) for p in grid.placed] + [_pad(b, 1.0) for b in moved]
        out = [w for w in words if not any(centre_in(w, c) for c in cells)]
        if words and len(out) > self.options.max_foreign_words * len(words):
            return f"its region holds text outside its cells ({len(out)} of {len(words)} words)"
        return None

    def _table(self, doc: DocumentInput, view: PageModel, grid: Grid, box: BBox, n: int,
               element: int | None = None) -> RawTable:
        """The RawTable of an accepted grid: spans kept, empty slots filled, TH rows flagged."""
        spans = spans_of_dict(view.raw)
        cells: list[Cell] = []
        covered: set[tuple[int, int]] = set()
        for p in grid.placed:
            rs = min(p.cell.row_span, grid.n_rows - p.row)
            cs = min(p.cell.col_span, grid.n_cols - p.col)
            bold, size = typography(spans, p.cell.bbox)
            cells.append(Cell(row=p.row, col=p.col, row_span=rs, col_span=cs, text=p.cell.text,
                              is_header=p.row < grid.header_rows, page=view.pno,
                              bbox=_rounded(p.cell.bbox), bold=bold, font_size=size))
            covered |= {(p.row + a, p.col + b) for a in range(rs) for b in range(cs)}
        cells += [Cell(row=r, col=c, is_header=r < grid.header_rows, page=view.pno)
                  for r in range(grid.n_rows) for c in range(grid.n_cols) if (r, c) not in covered]
        cells.sort(key=lambda c: (c.row, c.col))
        return RawTable(piece_id=piece_id(doc.doc_id, view.pno, n), doc_id=doc.doc_id, page=view.pno,
                        bbox=_rounded(box), n_rows=grid.n_rows, n_cols=grid.n_cols,
                        cells=tuple(cells), extractor=self.name, extractor_version=self.version,
                        metrics={DECLARED_HEADER_ROWS: float(grid.header_rows),
                                 **({DECLARED_TABLE: float(element)} if element is not None else {})})


def _declared(pdf: pymupdf.Document, view: PageModel) -> Read:
    """The page's declared tables with rows, read upright; or why they cannot be read."""
    turn = _upright_view(view)
    if turn is None:
        return "a turned page (/Rotate) whose text reads sideways as shown: read by the finder"
    try:
        structure = turned(view.structure, turn)
        return turn, [d for d in declared_tables(pdf, structure, view.pno) if any(r.cells for r in d.rows)]
    except (RuntimeError, ValueError, KeyError, TypeError) as e:  # a broken tree: the finder reads
        return f"structure tree unreadable here: {e}"


def _captioned(table: RawTable, decl: Declaration, back: pymupdf.Matrix) -> RawTable:
    """The table with the caption its declaration gives (its Caption element), if any."""
    if not decl.caption or decl.caption_bbox is None:
        return table
    line = TextLine(page=table.page, bbox=map_bbox(decl.caption_bbox, back), text=decl.caption)
    return table.model_copy(update={"caption": line})


def _upright_view(view: PageModel) -> pymupdf.Matrix | None:
    """The matrix from the page's unrotated coordinates (its text's) to those it is read in:
    the view shown (its /Rotate applied) where the text reads upright there or the page is not
    turned, the unrotated page where the text reads upright unturned; None when neither."""
    if not view.rotation % 360:
        return pymupdf.Identity
    upright = view.upright
    if upright is not None and upright % 360 == view.rotation % 360:
        return view.page.rotation_matrix
    return pymupdf.Identity if upright == 0 else None


def _mapped(grid: Grid, m: pymupdf.Matrix) -> Grid:
    """The grid with its cells' boxes carried through `m`."""
    if tuple(m) == tuple(pymupdf.Identity):
        return grid
    placed = tuple(Placed(p.row, p.col, replace(p.cell, bbox=map_bbox(p.cell.bbox, m))) for p in grid.placed)
    return replace(grid, placed=placed)


def _undeclared(structure: dict) -> str:
    """Why a page has no declaration: none in its structure, or no glyph of it tied to an
    element (marked content the ParentTree does not lead from to an element MuPDF can read)."""
    if any(b.get("type") == 2 for b in structure.get("blocks", ())):
        return "no table declared in the structure tree"
    return "no text of the page tied to the structure tree (its marked content leads to no element)"


def _around(i: int, boxes: Sequence[BBox]) -> str | None:
    """Table i lies over another declared table of the page (a layout table around it)."""
    for j, b in enumerate(boxes):
        if j != i and overlap(boxes[i], b) > 0.1 * area(b) and area(boxes[i]) >= area(b):
            return f"it lies over tagged table {j + 1} (a layout table around it)"
    return None


def _framed(box: BBox, ruled: Sequence[BBox]) -> BBox:
    """The table's box, or the ruling grid it fills (its glyphs inside the grid, the grid at
    most twice their box): the region is the frame, as for a ruled table found."""
    for r in ruled:
        if overlap(box, r) >= 0.95 * area(box) and area(r) <= 2 * area(box):
            return (min(box[0], r[0]), min(box[1], r[1]), max(box[2], r[2]), max(box[3], r[3]))
    return box


def _rounded(b: BBox) -> BBox:
    return (round(b[0], 2), round(b[1], 2), round(b[2], 2), round(b[3], 2))


def _pad(b: BBox, by: float) -> BBox:
    return (b[0] - by, b[1] - by, b[2] + by, b[3] + by)


def turned(structure: dict[str, Any], m: pymupdf.Matrix) -> dict[str, Any]:
    """The structure dict with every box carried through `m` (a page turned by /Rotate is read
    in the view shown, where its text reads upright); the dict itself when `m` is the identity."""
    if tuple(m) == tuple(pymupdf.Identity):
        return structure

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items()}
            if "bbox" in node:
                r = pymupdf.Rect(node["bbox"]).transform(m).normalize()
                out["bbox"] = (r.x0, r.y0, r.x1, r.y1)
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(structure)

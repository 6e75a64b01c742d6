"""Camelot 2.x: lattice (ruled grids, spans from missing edges) and stream/network/hybrid.

The costliest text layer: lattice renders the page unless `engine="vector"`, which reads the
ruled lines from the PDF itself (~4x faster). Some generators draw rules as paths Camelot's
vector reader skips, so a page where the vector engine finds nothing is retried with
`fallback_engine`. Camelot's accuracy and whitespace figures go to RawTable.metrics.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from rowkeeper.errors import BadInput, MissingExtra
from rowkeeper.extractors.page_features import ruled_regions
from rowkeeper.extractors.page_model import DocumentModel, PageModel, document_of
from rowkeeper.extractors.text_cells import flag_bold_header, spans_of_dict, typography
from rowkeeper.extractors.upright import map_bbox, unrotated
from rowkeeper.ids import piece_id
from rowkeeper.models import BBox, Cell, DocumentInput, Extraction, PageKind, RawTable

try:
    import camelot
except ImportError as e:  # camelot is an optional extra
    raise MissingExtra("extractor 'camelot'", "camelot", str(e)) from e

Flavor = Literal["auto", "lattice", "stream", "network", "hybrid"]
Engine = Literal["vector", "combined", "raster"]


class CamelotOptions(BaseModel):
    """Camelot flavor, lattice engine, and any other read_pdf keyword passed through."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    flavor: Flavor = "auto"
    """"auto": lattice where the page has a ruling grid, else `borderless_flavor` (cheap check)."""
    borderless_flavor: Flavor = "network"
    engine: Engine = "vector"
    fallback_engine: Engine | None = "combined"
    """Engine for pages where `engine` found no table (None: no second try)."""
    kwargs: dict[str, Any] = Field(default_factory=dict)
    """Other camelot.read_pdf options (line_scale, row_tol, split_text, ...)."""
    min_rows: int = 2
    min_cols: int = 2


class CamelotExtractor:
    """Tables from camelot.read_pdf, one page at a time."""

    name: ClassVar[str] = "camelot"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"text"})
    Options: ClassVar[type[BaseModel]] = CamelotOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, CamelotOptions) else CamelotOptions()

    @property
    def version(self) -> str:
        """Camelot's version."""
        return str(camelot.__version__)

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """Tables found on `pages` (1-based); PyMuPDF's view of them from `model` when open."""
        out: list[RawTable] = []
        with document_of(doc, model) as m:  # PyMuPDF gives the cell typography Camelot lacks
            for pno in pages:
                view = m.page(pno)
                page = view.page
                found = self._read(doc, pno, self._flavor(view))
                spans = spans_of_dict(view.raw) if found else []
                if page.rotation % 360:  # Camelot reads the page as shown, PyMuPDF's text unrotated
                    spans = [(map_bbox(b, page.rotation_matrix), bold, size) for b, bold, size in spans]
                for tb in found:
                    raw = self._table(doc, pno, tb, len(out) + 1, spans, page.rect.height)
                    if raw is not None:
                        out.append(unrotated(raw, page))
        return Extraction(tables=tuple(_renumber(out)))

    def _flavor(self, view: PageModel) -> str:
        if self.options.flavor != "auto":
            return self.options.flavor
        hs, vs = view.rules
        return "lattice" if ruled_regions(hs, vs) else self.options.borderless_flavor

    def _read(self, doc: DocumentInput, pno: int, flavor: str) -> list[Any]:
        o = self.options
        kwargs = {**o.kwargs}
        if flavor in ("lattice", "hybrid"):
            kwargs.setdefault("engine", o.engine)
        found = _read_pdf(doc, pno, flavor, kwargs)
        if not found and flavor in ("lattice", "hybrid") and o.fallback_engine not in (None, o.engine):
            found = _read_pdf(doc, pno, flavor, {**kwargs, "engine": o.fallback_engine})
        return found

    def _table(self, doc: DocumentInput, pno: int, tb: Any, n: int,
               spans: Sequence[tuple[BBox, bool, float]], height: float) -> RawTable | None:
        n_rows, n_cols = tb.shape
        if n_rows < self.options.min_rows or n_cols < self.options.min_cols:
            return None
        cells = _cells(tb, pno, spans, height, with_spans=tb.flavor in ("lattice", "hybrid"))
        x0, y0, x1, y1 = tb._bbox
        report = tb.parsing_report
        return RawTable(
            piece_id=piece_id(doc.doc_id, pno, n), doc_id=doc.doc_id, page=pno,
            bbox=(round(x0, 2), round(height - y1, 2), round(x1, 2), round(height - y0, 2)),
            n_rows=n_rows, n_cols=n_cols, cells=flag_bold_header(cells), extractor=self.name,
            extractor_version=self.version,
            metrics={"accuracy": float(report.get("accuracy", 0.0)),
                     "whitespace": float(report.get("whitespace", 0.0))},
        )


def _read_pdf(doc: DocumentInput, pno: int, flavor: str, kwargs: dict[str, Any]) -> list[Any]:
    """camelot.read_pdf on one page, its warnings and prints kept out of our output."""
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            return list(camelot.read_pdf(doc.path, pages=str(pno), flavor=flavor,
                                         password=doc.password, suppress_stdout=True, **kwargs))
    except (ValueError, TypeError, KeyError, IndexError, RuntimeError, OSError) as e:
        raise BadInput(f"{doc.source} page {pno}: camelot {flavor} failed ({e})") from e


def _cells(tb: Any, pno: int, spans: Sequence[tuple[BBox, bool, float]], height: float,
           with_spans: bool) -> tuple[Cell, ...]:
    """Cells of a Camelot table; lattice spans come from the missing inner edges of its grid."""
    grid = tb.cells
    n_rows, n_cols = tb.shape
    covered: set[tuple[int, int]] = set()
    out = []
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) in covered:
                continue
            g = grid[r][c]
            cs = rs = 1
            if with_spans:
                while c + cs < n_cols and not grid[r][c + cs - 1].right:
                    cs += 1
                while r + rs < n_rows and not grid[r + rs - 1][c].bottom:
                    rs += 1
            covered.update((r + i, c + j) for i in range(rs) for j in range(cs))
            last = grid[r + rs - 1][c + cs - 1]
            bbox = (round(g.x1, 2), round(height - g.y2, 2), round(last.x2, 2), round(height - last.y1, 2))
            text = " ".join(str(tb.df.iat[r, c]).split())
            bold, size = typography(spans, bbox) if text else (None, None)
            out.append(Cell(row=r, col=c, row_span=rs, col_span=cs, text=text, page=pno,
                            bbox=bbox, bold=bold, font_size=size))
    return tuple(out)


def _renumber(tables: list[RawTable]) -> list[RawTable]:
    """Piece ids numbered per page (1, 2, ... on each page), in the order found."""
    seen: dict[int, int] = {}
    out = []
    for t in tables:
        seen[t.page] = seen.get(t.page, 0) + 1
        out.append(t.model_copy(update={"piece_id": piece_id(t.doc_id, t.page, seen[t.page])}))
    return out

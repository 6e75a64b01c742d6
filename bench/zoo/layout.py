"""A small flow layout over a reportlab canvas, in the coordinates a reader sees.

Everything is placed in display coordinates (origin top-left of the page as shown, y down);
a page with /Rotate 90 or 270 gets a transform so that the text reads upright when shown, the
way a scanner or a "rotate page" command leaves a landscape table in a portrait file. The flow
knows its text columns, the heading path in force and the page it is on, which is what the
ground truth needs.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from bench.zoo.fonts import Face, join_lines, width, wrap

ASCENT = 0.78  # baseline below a line's top, as a share of the font size


@dataclass
class PageSetup:
    """Display size, /Rotate and margins of a document's pages."""

    width: float = 595.0
    height: float = 842.0
    rotate: int = 0
    margin: float = 56.0
    columns: int = 1
    gutter: float = 18.0
    running_header: str = ""
    page_numbers: bool = True


@dataclass
class Flow:
    """Places blocks top to bottom in text columns, breaking pages; tracks pages and headings."""

    canvas: Canvas
    setup: PageSetup
    face: Face
    page: int = 0
    column: int = 0
    top: float = 0.0
    headings: list[str] = field(default_factory=list)
    column_top: float = 0.0
    """Where the text columns of the current page start (under a title set across them)."""

    def __post_init__(self) -> None:
        self.new_page()

    # -- pages and columns ---------------------------------------------------------------
    @property
    def bottom_limit(self) -> float:
        return self.setup.height - self.setup.margin

    def span(self) -> tuple[float, float]:
        """The current text column's left and right edge."""
        s = self.setup
        inner = s.width - 2 * s.margin
        w = (inner - (s.columns - 1) * s.gutter) / s.columns
        x0 = s.margin + self.column * (w + s.gutter)
        return x0, x0 + w

    def new_page(self) -> None:
        """Finish the page (if any) and start the next, with its furniture."""
        if self.page:
            self.canvas.showPage()
        s = self.setup
        self.page += 1
        self.column = 0
        self.top = self.column_top = s.margin
        # reportlab swaps the size of a page with /Rotate 90/270 itself: the stored MediaBox
        # is the portrait (height x width) one.
        self.canvas.setPageSize((s.width, s.height))
        if s.rotate:
            self.canvas.setPageRotation(s.rotate)
            if s.rotate == 90:
                self.canvas.transform(0, 1, -1, 0, s.height, 0)
            else:
                self.canvas.transform(0, -1, 1, 0, 0, s.width)
        size = max(self.face.size - 1.5, 6)
        if s.running_header:
            self.text(s.margin, s.margin * 0.45, s.running_header, self.face.regular, size)
        if s.page_numbers:
            label = str(self.page)
            self.text((s.width - width(label, self.face.regular, size)) / 2,
                      s.height - s.margin * 0.55, label, self.face.regular, size)

    def next_column(self) -> None:
        """Continue in the next text column, or on a new page after the last one."""
        if self.column + 1 < self.setup.columns:
            self.column += 1
            self.top = self.column_top
        else:
            self.new_page()

    def ensure(self, height: float) -> None:
        """Break to the next column/page unless `height` more points fit."""
        if self.top + height > self.bottom_limit and self.top > self.setup.margin + 1:
            self.next_column()

    # -- drawing primitives (display coordinates) ---------------------------------------
    def _y(self, top: float) -> float:
        return self.setup.height - top

    def text(self, x: float, top: float, s: str, font: str, size: float,
             char_space: float = 0.0) -> None:
        """One line of text whose top is at `top`."""
        t = self.canvas.beginText(x, self._y(top + size * ASCENT))
        t.setFont(font, size)
        # always set: the PDF text state (Tc) outlives the text object, so letter spacing
        # of a header would leak into every later line of the page
        t.setCharSpace(char_space)
        t.textOut(s)
        self.canvas.drawText(t)

    def rule(self, x0: float, top0: float, x1: float, top1: float, lw: float = 0.6) -> None:
        """A straight line (a ruling)."""
        self.canvas.setLineWidth(lw)
        self.canvas.line(x0, self._y(top0), x1, self._y(top1))

    def fill(self, x0: float, top: float, x1: float, bottom: float, grey: float) -> None:
        """A filled rectangle without a stroke (row shading)."""
        self.canvas.setFillGray(grey)
        self.canvas.rect(x0, self._y(bottom), x1 - x0, bottom - top, stroke=0, fill=1)
        self.canvas.setFillGray(0)

    def image(self, png: bytes, x: float, top: float, w: float, h: float) -> None:
        """A raster image placed in the box."""
        self.canvas.drawImage(ImageReader(io.BytesIO(png)), x, self._y(top + h), w, h)

    # -- blocks ----------------------------------------------------------------------------
    def heading(self, text: str, level: int) -> None:
        """A heading of level 0 (title), 1 or 2; becomes part of the section path."""
        size = self.face.size * (1.9, 1.45, 1.2)[level]
        self.ensure(size * 4)
        self.top += size * (0.3 if self.top <= self.setup.margin else 0.9)
        x0, _ = self.span()
        self.text(x0, self.top, text, self.face.bold, size)
        self.top += size * 1.6
        if level == 0 and self.setup.columns > 1 and self.column == 0:
            # a paper's title is set across its columns (drawn in the first column it would run
            # over the next one's text); the columns start under it
            self.column_top = self.top
        del self.headings[level:]
        self.headings.append(text)

    def paragraph(self, text: str, x0: float | None = None, x1: float | None = None,
                  size: float | None = None, top: float | None = None) -> float:
        """Wrapped prose; with x0/x1/top it is placed there (beside a table) without breaking.
        Returns the bottom."""
        size = size or self.face.size
        lead = size * 1.35
        placed = top is not None
        a, b = self.span()
        x0, x1 = (a if x0 is None else x0), (b if x1 is None else x1)
        cur = top if placed else self.top
        for line in wrap(text, self.face.regular, size, x1 - x0):
            if not placed and cur + lead > self.bottom_limit:
                self.next_column()
                cur = self.top
                x0, x1 = self.span()
            self.text(x0, cur, line, self.face.regular, size)
            cur += lead
        if not placed:
            self.top = cur + size * 0.6
        return cur

    def caption_line(self, text: str, x0: float, top: float, size: float) -> float:
        """A caption in bold at (x0, top); its bottom."""
        self.text(x0, top, text, self.face.bold, size)
        return top + size * 1.4

    def caption_block(self, lines: list[str], x0: float, top: float, size: float) -> float:
        """A caption over one or more lines (set solid, 1.25 times the size apart); its bottom."""
        for k, line in enumerate(lines[:-1]):
            self.text(x0, top + k * size * 1.25, line, self.face.bold, size)
        return self.caption_line(lines[-1], x0, top + (len(lines) - 1) * size * 1.25, size)

    def cell_lines(self, text: str, font: str, size: float, max_width: float) -> list[str]:
        """The lines a cell shows: explicit line breaks kept, long lines wrapped."""
        out: list[str] = []
        for part in text.split("\n"):
            out += wrap(part, font, size, max_width) or [""]
        return out


def cell_truth(text: str) -> str:
    """The ground-truth text of a cell that may hold explicit line breaks."""
    return join_lines(text.split("\n"))

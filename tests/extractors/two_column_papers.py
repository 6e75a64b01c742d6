"""Two-column papers drawn with reportlab: running text in two columns, headings, tables in
one column or across both (tests of the page's text columns, the finder and section paths)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = A4
MARGIN, GUTTER = 50.0, 20.0
COLUMN = (WIDTH - 2 * MARGIN - GUTTER) / 2
LEFT, RIGHT = MARGIN, MARGIN + COLUMN + GUTTER
SIZE, PITCH = 9.0, 11.0

LEFT_WORDS = ("the left column reports the sales of each region and the change against the year "
              "before with the figures checked by the controlling team").split()
RIGHT_WORDS = ("omega text of the right column explains costs and budgets in detail for every site "
               "and every quarter of the financial year").split()


class Paper:
    """A page of a two-column paper, drawn top to bottom column by column (tops in points)."""

    def __init__(self, path: Path) -> None:
        self.c = canvas.Canvas(str(path), pagesize=A4)
        self.path = path

    def text(self, x: float, top: float, s: str, size: float = SIZE, bold: bool = False) -> None:
        """One line whose top is at `top`."""
        self.c.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        self.c.drawString(x, HEIGHT - top - size * 0.8, s)

    def prose(self, x: float, top: float, n: int, words: Sequence[str], width: float = COLUMN) -> float:
        """`n` lines of running text filled to `width` from `words` (cycled); the top under them."""
        k = 0
        for i in range(n):
            line: list[str] = []
            while stringWidth(" ".join([*line, words[k % len(words)]]), "Helvetica", SIZE) < width - 4:
                line.append(words[k % len(words)])
                k += 1
            last = i == n - 1
            self.text(x, top + i * PITCH, " ".join(line) + ("." if last else ""))
        return top + n * PITCH

    def table(self, xs: Sequence[float], top: float, rows: Sequence[Sequence[str]], pitch: float = 13.0) -> float:
        """A borderless table: cell texts left-aligned at `xs`, the first row bold; the top under it."""
        for i, row in enumerate(rows):
            for x, cell in zip(xs, row, strict=True):
                self.text(x, top + i * pitch, cell, bold=i == 0)
        return top + len(rows) * pitch

    def save(self) -> Path:
        """Write the PDF; its path."""
        self.c.showPage()
        self.c.save()
        return self.path

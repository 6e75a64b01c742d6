"""Small builders for RawTable / TextLine records in unit tests (no PDF needed)."""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import Cell, PageInfo, RawTable, TextLine

X0, WIDTH = 50.0, 495.0


def raw_table(grid: Sequence[Sequence[str]], page: int = 1, top: float = 100.0,
              n: int = 1, row_h: float = 16.0, header_rows: int = 0,
              spans: Sequence[tuple[int, int, int, int]] = (), doc_id: str = "d" * 64) -> RawTable:
    """A ruled-looking piece: equal-width columns from x=50, rows of `row_h` points."""
    n_cols = max(len(r) for r in grid)
    cw = WIDTH / n_cols
    covered = {(r + i, c + j) for r, c, rs, cs in spans for i in range(rs) for j in range(cs)
               if (i, j) != (0, 0)}
    span_of = {(r, c): (rs, cs) for r, c, rs, cs in spans}
    cells = []
    for r, row in enumerate(grid):
        for c in range(n_cols):
            if (r, c) in covered:
                continue
            rs, cs = span_of.get((r, c), (1, 1))
            y = top + r * row_h
            cells.append(Cell(row=r, col=c, row_span=rs, col_span=cs,
                              text=row[c] if c < len(row) else "", is_header=r < header_rows,
                              page=page, bbox=(X0 + c * cw, y, X0 + (c + cs) * cw, y + rs * row_h)))
    return RawTable(piece_id=f"{doc_id[:12]}:p{page}.{n}", doc_id=doc_id, page=page,
                    bbox=(X0, top, X0 + WIDTH, top + len(grid) * row_h), n_rows=len(grid),
                    n_cols=n_cols, cells=tuple(cells), extractor="test", extractor_version="0")


def line(text: str, page: int, top: float, size: float = 10.0, bold: bool = False,
         x0: float = 50.0) -> TextLine:
    """A text line at `top` on `page`."""
    return TextLine(page=page, bbox=(x0, top, x0 + 6 * len(text), top + size * 1.2), text=text,
                    font_size=size, bold=bold)


def pages(n: int) -> list[PageInfo]:
    """`n` A4 text pages."""
    return [PageInfo(page=p, kind="text", chars=500, image_coverage=0.0, width=595.0,
                     height=842.0) for p in range(1, n + 1)]

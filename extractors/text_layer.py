"""The PDF's own text layer through PyMuPDF: opening, text lines, and cheap page features.

Everything here reads one page's `get_text("dict")` and vector drawings at most once, so the
cascade can tell "no table candidate on this page" for little more than the cost of get_text.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pymupdf

from rowkeeper.config import env_passwords
from rowkeeper.errors import BadInput
from rowkeeper.models import BBox, Cell, DocumentInput, TextLine

# Without this, PyMuPDF prints a "Consider using the pymupdf_layout package" line to stdout on
# the first find_tables()/get_layout() call: noise in a batch tool's output.
if hasattr(pymupdf, "no_recommend_layout"):
    pymupdf.no_recommend_layout()
# MuPDF prints repair/format errors to stderr for every damaged object; they stay readable
# through TOOLS.mupdf_warnings() and the BadInput messages say what matters.
pymupdf.TOOLS.mupdf_display_errors(False)

BOLD_FLAG = 16  # TEXT_FONT_BOLD in PyMuPDF span flags
_RULE_MAX_THICKNESS = 3.0
_RULE_MIN_LENGTH = 8.0


def open_pdf_bytes_or_path(doc: DocumentInput, passwords: Sequence[str] = ()) -> pymupdf.Document:
    """Open `doc` with PyMuPDF, authenticating if needed; BadInput when it cannot be read."""
    try:
        pdf = pymupdf.open(doc.path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as e:
        raise BadInput(f"{doc.source}: not a readable PDF ({e})") from e
    except FileNotFoundError as e:
        raise BadInput(f"{doc.source}: file not found") from e
    if pdf.needs_pass:
        tried = [p for p in (doc.password, *passwords, *env_passwords()) if p]
        if not any(pdf.authenticate(p) for p in tried):
            pdf.close()
            hint = "none of the configured passwords worked" if tried else "no password configured"
            raise BadInput(
                f"{doc.source}: encrypted PDF, {hint} "
                "(set ROWKEEPER_PDF_PASSWORDS or extract.passwords)"
            )
    if pdf.page_count == 0:
        pdf.close()
        raise BadInput(f"{doc.source}: PDF has no pages")
    return pdf


@contextmanager
def open_pdf(doc: DocumentInput, passwords: Sequence[str] = ()) -> Iterator[pymupdf.Document]:
    """`open_pdf_bytes_or_path` as a context manager that always closes the document."""
    pdf = open_pdf_bytes_or_path(doc, passwords)
    try:
        yield pdf
    finally:
        pdf.close()


def working_password(doc: DocumentInput, passwords: Sequence[str] = ()) -> str | None:
    """The password that opens `doc` (None when it needs none); BadInput when none does."""
    with open_pdf(doc, passwords) as pdf:
        if not pdf.needs_pass:
            return None
    for p in (doc.password, *passwords, *env_passwords()):
        if p:
            probe = pymupdf.open(doc.path, filetype="pdf")
            ok = bool(probe.authenticate(p))
            probe.close()
            if ok:
                return p
    return None  # unreachable: open_pdf raised BadInput already


def page_dict(page: pymupdf.Page) -> dict[str, Any]:
    """The page's text as PyMuPDF's dict (blocks > lines > spans), images left out."""
    return page.get_text("dict", flags=pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP)


def _line_text(line: dict[str, Any]) -> str:
    return "".join(s["text"] for s in line["spans"]).strip()


def lines_of_dict(pno: int, d: dict[str, Any]) -> list[TextLine]:
    """TextLines of one page's text dict (1-based `pno`), empty lines dropped."""
    out = []
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            text = _line_text(line)
            if not text:
                continue
            spans = [s for s in line["spans"] if s["text"].strip()]
            size = max(s["size"] for s in spans)
            bold = all(_span_bold(s) for s in spans)
            x0, y0, x1, y1 = line["bbox"]
            out.append(TextLine(page=pno, bbox=(x0, y0, x1, y1), text=text,
                                font_size=round(size, 2), bold=bold))
    return out


def _span_bold(span: dict[str, Any]) -> bool:
    return bool(span["flags"] & BOLD_FLAG) or "bold" in span["font"].lower()


def read_lines(doc: DocumentInput, pages: Sequence[int], passwords: Sequence[str] = ()) -> tuple[TextLine, ...]:
    """All text lines of `pages` (1-based) with bbox, font size and bold flag, in reading order."""
    out: list[TextLine] = []
    with open_pdf(doc, passwords) as pdf:
        for pno in pages:
            out.extend(lines_of_dict(pno, page_dict(pdf[pno - 1])))
    return tuple(out)


# --- cell typography, shared by the find_tables-style extractors ---------------------------

def spans_of_dict(d: dict[str, Any]) -> list[tuple[BBox, bool, float]]:
    """(bbox, bold, size) of every non-blank span: the typography source for table cells."""
    out = []
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            for s in line["spans"]:
                if s["text"].strip():
                    out.append((tuple(s["bbox"]), _span_bold(s), float(s["size"])))
    return out


def typography(spans: Sequence[tuple[BBox, bool, float]], bbox: BBox) -> tuple[bool | None, float | None]:
    """(bold, font size) of the spans whose centre lies in `bbox`; (None, None) when none do."""
    x0, y0, x1, y1 = bbox
    inside = [
        (b, size) for (sx0, sy0, sx1, sy1), b, size in spans
        if x0 <= (sx0 + sx1) / 2 <= x1 and y0 <= (sy0 + sy1) / 2 <= y1
    ]
    if not inside:
        return None, None
    return all(b for b, _ in inside), round(max(s for _, s in inside), 2)


def cells_from_rows(
    rows: Sequence[Sequence[BBox | None]],
    texts: Sequence[Sequence[str | None]],
    page: int,
    spans: Sequence[tuple[BBox, bool, float]] = (),
) -> tuple[tuple[Cell, ...], int, int]:
    """Cells with spans from a pdfplumber/PyMuPDF-style grid (None = slot covered by a span).

    Returns (cells, n_rows, n_cols). Spans are measured against the column starts and row tops
    of the grid, which is how both libraries lay a spanning cell over several slots.
    """
    n_rows = len(rows)
    n_cols = max((len(r) for r in rows), default=0)
    col_x = _starts([[b[0] if b else None for b in r] for r in rows], n_cols)
    row_y = [min((b[1] for b in r if b), default=None) for r in rows]
    cells = []
    for i, row in enumerate(rows):
        for j, b in enumerate(row):
            if b is None:
                continue
            text = (texts[i][j] if i < len(texts) and j < len(texts[i]) else None) or ""
            cs = max(1, sum(1 for x in col_x[j:] if x is not None and x < b[2] - 1.0))
            rs = max(1, sum(1 for y in row_y[i:] if y is not None and y < b[3] - 1.0))
            bold, size = typography(spans, b) if spans else (None, None)
            cells.append(Cell(row=i, col=j, row_span=rs, col_span=cs, text=clean_cell(text),
                              page=page, bbox=tuple(b), bold=bold, font_size=size))
    return tuple(cells), n_rows, n_cols


def _starts(xs: list[list[float | None]], n: int) -> list[float | None]:
    out: list[float | None] = []
    for j in range(n):
        vals = [r[j] for r in xs if j < len(r) and r[j] is not None]
        out.append(min(vals) if vals else None)
    return out


def clean_cell(text: str) -> str:
    """Cell text with line breaks inside the cell joined by a space and runs of spaces collapsed."""
    return " ".join(text.split())


# --- page features: cheap signals that a page holds a table --------------------------------

@dataclass(frozen=True)
class PageFeatures:
    """What a page looks like to the cascade: rulings, aligned text columns, candidate regions."""

    page: int
    h_rules: int = 0
    v_rules: int = 0
    aligned_rows: int = 0
    """Text rows with >= 2 separate segments whose starts line up with other rows."""
    numeric_cells: int = 0
    ruled_regions: tuple[BBox, ...] = ()
    aligned_regions: tuple[BBox, ...] = ()

    @property
    def has_grid(self) -> bool:
        """Ruling lines that can form a table (>= 2 horizontal and >= 2 vertical, or 3 rules)."""
        return bool(self.ruled_regions)

    @property
    def has_aligned_columns(self) -> bool:
        """Rows of text lined up in >= 2 columns, as a borderless table prints."""
        return bool(self.aligned_regions)

    @property
    def candidate(self) -> bool:
        """Whether the page may hold a table at all (else extractors need not run)."""
        return self.has_grid or self.has_aligned_columns


def rules_of_page(page: pymupdf.Page) -> tuple[list[BBox], list[BBox]]:
    """Horizontal and vertical ruling segments (lines and thin rectangles, rect edges)."""
    hs: list[BBox] = []
    vs: list[BBox] = []
    for path in page.get_cdrawings():
        for item in path["items"]:
            if item[0] == "l":
                (ax, ay), (bx, by) = item[1], item[2]
                _add_rule(hs, vs, (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                r = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
                if r[2] - r[0] <= _RULE_MAX_THICKNESS or r[3] - r[1] <= _RULE_MAX_THICKNESS:
                    _add_rule(hs, vs, r)
                elif path.get("type") != "f":  # stroked box: its four edges are rules
                    for e in ((r[0], r[1], r[2], r[1]), (r[0], r[3], r[2], r[3]),
                              (r[0], r[1], r[0], r[3]), (r[2], r[1], r[2], r[3])):
                        _add_rule(hs, vs, e)
    return hs, vs


def _add_rule(hs: list[BBox], vs: list[BBox], r: BBox) -> None:
    w, h = r[2] - r[0], r[3] - r[1]
    if w >= _RULE_MIN_LENGTH and h <= _RULE_MAX_THICKNESS:
        hs.append(r)
    elif h >= _RULE_MIN_LENGTH and w <= _RULE_MAX_THICKNESS:
        vs.append(r)


def ruled_regions(hs: Sequence[BBox], vs: Sequence[BBox], tol: float = 3.0) -> list[BBox]:
    """Boxes of clusters of touching rules that look like a table: rules at >= 3 heights
    crossed by >= 1 vertical rule (rows split by a column rule, frame or not), or >= 3
    vertical rules over 2 heights. A single framed box (a boxed note) is not a table."""
    boxes: list[list[float]] = []
    ys: list[set[int]] = []
    xs: list[set[int]] = []
    for kind, r in [(0, r) for r in hs] + [(1, r) for r in vs]:
        hit = [i for i, b in enumerate(boxes) if _touch(b, r, tol)]
        nb = list(r)
        ny = {round((r[1] + r[3]) / 2 / tol)} if kind == 0 else set()
        nx = {round((r[0] + r[2]) / 2 / tol)} if kind == 1 else set()
        for i in sorted(hit, reverse=True):
            b = boxes.pop(i)
            nb = [min(nb[0], b[0]), min(nb[1], b[1]), max(nb[2], b[2]), max(nb[3], b[3])]
            ny |= ys.pop(i)
            nx |= xs.pop(i)
        boxes.append(nb)
        ys.append(ny)
        xs.append(nx)
    return [
        (b[0], b[1], b[2], b[3]) for b, y, x in zip(boxes, ys, xs, strict=True)
        if ((len(y) >= 3 and len(x) >= 1) or (len(y) >= 2 and len(x) >= 3))
        and b[3] - b[1] > 10 and b[2] - b[0] > 30
    ]


def _touch(b: Sequence[float], r: BBox, tol: float) -> bool:
    return r[0] <= b[2] + tol and b[0] <= r[2] + tol and r[1] <= b[3] + tol and b[1] <= r[3] + tol


_NUMERIC = set("0123456789.,%()-−+$€¥£ ")


def _is_numeric(text: str) -> bool:
    t = text.strip()
    return bool(t) and any(c.isdigit() for c in t) and sum(c in _NUMERIC for c in t) >= 0.8 * len(t)


_WIDE_GAP = re.compile(r"\s{2,}|\.{4,}")


def _split_wide_gaps(line: TextLine) -> list[TextLine]:
    """A line printed as one string with runs of spaces (monospace reports) as its segments,
    x estimated from character offsets."""
    parts = [(m.start(), m.end()) for m in re.finditer(r"(?:(?!\s{2,}|\.{4,}).)+", line.text)]
    if len(parts) < 2 or not _WIDE_GAP.search(line.text):
        return [line]
    x0, y0, x1, y1 = line.bbox
    per_char = (x1 - x0) / max(len(line.text), 1)
    return [line.model_copy(update={"text": line.text[a:b].strip(),
                                    "bbox": (x0 + a * per_char, y0, x0 + b * per_char, y1)})
            for a, b in parts if line.text[a:b].strip()]


def _text_rows(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines grouped into visual rows (vertical centres within half a line height)."""
    rows: list[list[TextLine]] = []
    for ln in sorted(lines, key=lambda t: ((t.bbox[1] + t.bbox[3]) / 2, t.bbox[0])):
        cy, h = (ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[3] - ln.bbox[1]
        if rows:
            last = rows[-1][0]
            if abs((last.bbox[1] + last.bbox[3]) / 2 - cy) <= max(h, 2.0) / 2:
                rows[-1].append(ln)
                continue
        rows.append([ln])
    return [sorted(r, key=lambda t: t.bbox[0]) for r in rows]


def _table_like(row: Sequence[TextLine]) -> bool:
    # Two-column prose also gives two segments per row; cells are short or numeric.
    if len(row) >= 3:
        return True
    return len(row) == 2 and any(len(t.text) <= 25 or _is_numeric(t.text) for t in row)


def _anchors(run: Sequence[Sequence[TextLine]], tol: float = 3.0) -> int:
    """How many x positions (left or right edges) are shared by >= 60% of the run's rows."""
    edges = sorted({round(t.bbox[k]) for row in run for t in row for k in (0, 2)})
    need = max(3, int(0.6 * len(run) + 0.999))
    n, last = 0, -1e9
    for x in edges:
        if x - last <= tol * 2:
            continue
        hits = sum(any(abs(t.bbox[k] - x) <= tol for t in row for k in (0, 2)) for row in run)
        if hits >= need:
            n, last = n + 1, x
    return n


def aligned_regions(lines: Sequence[TextLine], min_rows: int = 3) -> tuple[list[BBox], int, int]:
    """Boxes of runs of rows whose text segments line up in >= 2 columns, rows, numeric cells."""
    # a typed rule ("-----") under a header must not cut the run of aligned rows in two
    kept = [ln for ln in lines if ln.text.strip("-_=─—. ")]
    rows = _text_rows([seg for ln in kept for seg in _split_wide_gaps(ln)])
    heights = [r[0].bbox[3] - r[0].bbox[1] for r in rows] or [10.0]
    gap_max = 2.5 * statistics.median(heights) + 4
    regions, n_rows, n_num = [], 0, 0
    run: list[list[TextLine]] = []
    bottom, bridged, bridge_top, loose = 0.0, 0, 0.0, False
    for row in rows + [[]]:
        ok = bool(row) and _table_like(row)
        if row and run and row[0].bbox[1] - bottom > gap_max:
            regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num)
            run, bridged = [], 0
        if ok:
            if loose and not _is_numeric(row[0].text):
                # heading after a gap, then a header row: the next stacked table starts here
                regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num)
                run = []
            run.append(row)
            bottom, bridged, bridge_top, loose = max(t.bbox[3] for t in row), 0, row[0].bbox[1], False
            continue
        near = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 1.5)
        far = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 3.0)
        if run and (near or far) and bridged < 2 and len(row) == 1 and len(row[0].text) <= 40:
            # a wrapped label ("Investigative Matters / Received by AUSAs") or a group label
            # ("Projected") sits between rows of a table without ending it
            bottom, bridged, bridge_top = max(bottom, row[0].bbox[3]), bridged + 1, row[0].bbox[1]
            loose = loose or not near
            continue
        regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num)
        run, bridged = [], 0
    return regions, n_rows, n_num


def _within_pitch(run: Sequence[Sequence[TextLine]], last_top: float, top: float,
                  pitches: float) -> bool:
    """A line within the run's row pitch: a wrapped label or a group label ("Projected")
    inside the table, not a heading after a gap between two stacked tables."""
    tops = [r[0].bbox[1] for r in run]
    if not tops:
        return False
    if len(tops) < 2:  # no pitch yet: a line spacing at most
        height = run[-1][0].bbox[3] - run[-1][0].bbox[1]
        return top - last_top <= 2.5 * height * pitches / 1.5
    pitch = statistics.median(b - a for a, b in zip(tops, tops[1:], strict=False))
    return top - last_top < pitches * pitch


def _close_run(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int) -> tuple[list[BBox], int, int]:
    if len(run) < min_rows or _anchors(run) < 2:
        return regions, n_rows, n_num
    flat = [t for row in run for t in row]
    box = (min(t.bbox[0] for t in flat), min(t.bbox[1] for t in flat),
           max(t.bbox[2] for t in flat), max(t.bbox[3] for t in flat))
    return regions + [box], n_rows + len(run), n_num + sum(_is_numeric(t.text) for t in flat)


def page_features(page: pymupdf.Page, pno: int, lines: Sequence[TextLine]) -> PageFeatures:
    """Rulings and aligned text columns of one page (its `lines` already read)."""
    hs, vs = rules_of_page(page)
    ruled = ruled_regions(hs, vs) if len(hs) + len(vs) <= 4000 else [tuple(page.rect)]
    aligned, n_rows, n_num = aligned_regions(lines)
    return PageFeatures(page=pno, h_rules=len(hs), v_rules=len(vs), aligned_rows=n_rows,
                        numeric_cells=n_num, ruled_regions=tuple(ruled),
                        aligned_regions=tuple(aligned))


def flag_bold_header(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """Cells with is_header set on the top rows printed in bold above a body that is not.

    Typography is the one header signal every text-layer extractor can share; a table in bold
    throughout says nothing, so its cells are left unflagged.
    """
    by_row: dict[int, list[Cell]] = {}
    for c in cells:
        if c.text:
            by_row.setdefault(c.row, []).append(c)
    bold_rows = {r for r, cs in by_row.items() if all(c.bold for c in cs)}
    if not by_row or bold_rows >= set(by_row):
        return tuple(cells)
    n = 0
    while n in bold_rows or (n not in by_row and n < max(by_row)):
        n += 1
    n = min(n, 3)  # a header taller than three rows is more likely a bold body
    return tuple(c.model_copy(update={"is_header": True}) if c.row < n and not c.is_header else c
                 for c in cells)


def drop_empty_rows(cells: Sequence[Cell], n_rows: int) -> tuple[tuple[Cell, ...], int]:
    """Cells without the rows that hold nothing (text strategies put one between text rows).

    A row is dropped only when every cell starting in it is empty and no span crosses it, so
    spans keep pointing at the right rows.
    """
    has_text = {c.row for c in cells if c.text}
    crossed = {r for c in cells for r in range(c.row, c.row + c.row_span) if c.row_span > 1}
    keep = [r for r in range(n_rows) if r in has_text or r in crossed]
    new_index = {r: i for i, r in enumerate(keep)}
    out = tuple(c.model_copy(update={"row": new_index[c.row]}) for c in cells if c.row in new_index)
    return out, len(keep)


def merge_wrapped_rows(
    rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]]
) -> tuple[list[list[BBox | None]], list[list[str | None]]]:
    """Borderless rows joined where a first-column label wrapped around its values.

    A text-strategy grid puts "Investigative Matters" / "426 365 ..." / "Received by AUSAs"
    on three rows: a label-only row above and/or below a values-only row (first cell empty)
    belongs to it. Grids with spans (None slots) are left alone.
    """
    if any(b is None for r in rows for b in r):
        return [list(r) for r in rows], [list(t) for t in texts]
    keep = [i for i, t in enumerate(texts) if any(t)]
    rs = [list(rows[i]) for i in keep]
    ts = [[x or "" for x in texts[i]] for i in keep]
    i = 0
    while i < len(ts):
        if _values_only(ts[i]):
            if i > 0 and _label_only(ts[i - 1]):
                _absorb(rs, ts, i, i - 1)
                i -= 1
            if i + 1 < len(ts) and _label_only(ts[i + 1]):
                _absorb(rs, ts, i, i + 1)
        i += 1
    return rs, [list(t) for t in ts]


def _absorb(rs: list[list[BBox | None]], ts: list[list[str]], i: int, j: int) -> None:
    """Row j's label joins row i (in reading order), and row j goes."""
    first, second = (ts[j][0], ts[i][0]) if j < i else (ts[i][0], ts[j][0])
    ts[i][0] = " ".join(x for x in (first, second) if x)
    rs[i] = [_union(a, b) for a, b in zip(rs[i], rs[j], strict=False)]
    del ts[j], rs[j]


def _label_only(t: Sequence[str]) -> bool:
    return bool(t[0]) and not any(t[1:])


def _values_only(t: Sequence[str]) -> bool:
    return len(t) > 1 and not t[0] and sum(1 for x in t[1:] if x) >= max(1, (len(t) - 1) // 2)


def _union(a: BBox | None, b: BBox | None) -> BBox | None:
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))

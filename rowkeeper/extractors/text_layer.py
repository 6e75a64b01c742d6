"""The PDF's own text layer through PyMuPDF: opening, text lines, cell typography and the
grid clean-ups shared by the find_tables-style extractors (page features: page_features.py).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pymupdf

from rowkeeper.boxes import union
from rowkeeper.config import env_passwords
from rowkeeper.errors import BadInput
from rowkeeper.extractors.finder.bullet_items import lines_text
from rowkeeper.models import BBox, Cell, DocumentInput, RawTable, TextLine

# Without this, PyMuPDF prints a "Consider using the pymupdf_layout package" line to stdout on
# the first find_tables()/get_layout() call: noise in a batch tool's output.
if hasattr(pymupdf, "no_recommend_layout"):
    pymupdf.no_recommend_layout()
# MuPDF prints repair/format errors to stderr for every damaged object; they stay readable
# through TOOLS.mupdf_warnings() and the BadInput messages say what matters.
pymupdf.TOOLS.mupdf_display_errors(False)

BOLD_FLAG = 16  # TEXT_FONT_BOLD in PyMuPDF span flags


_HEADER_WINDOW = 1024  # readers accept junk before %PDF- within the first 1 KiB (Acrobat's rule)


def _require_pdf_header(doc: DocumentInput) -> None:
    """BadInput unless the file starts like a PDF: MuPDF would otherwise open a PNG, ZIP or
    HTML file named .pdf by its content and report it as a scanned document."""
    try:
        with open(doc.path, "rb") as f:
            head = f.read(_HEADER_WINDOW)
    except FileNotFoundError as e:
        raise BadInput(f"{doc.source}: file not found") from e
    except OSError as e:
        raise BadInput(f"{doc.source}: cannot read file ({e})") from e
    if b"%PDF-" not in head:
        kind = "empty file" if not head else f"starts with {head[:8]!r}"
        raise BadInput(f"{doc.source}: not a PDF (no %PDF- header in the first 1 KiB; {kind})")


# MuPDF errors arrive as 'code=2: cannot find startxref': the code means nothing to a reader
_MUPDF_CODE = re.compile(r"^code=\d+:\s*")


def open_pdf_bytes_or_path(doc: DocumentInput, passwords: Sequence[str] = ()) -> pymupdf.Document:
    """Open `doc` with PyMuPDF, authenticating if needed; BadInput when it cannot be read."""
    return open_authenticated(doc, passwords)[0]


def open_authenticated(doc: DocumentInput, passwords: Sequence[str] = ()) -> tuple[pymupdf.Document, str | None]:
    """`doc` opened with PyMuPDF and the password that opened it (None when it needs none);
    BadInput when it cannot be read or no password works."""
    _require_pdf_header(doc)
    try:
        pdf = pymupdf.open(doc.path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as e:
        raise BadInput(f"{doc.source}: not a readable PDF ({_MUPDF_CODE.sub('', str(e))})") from e
    except FileNotFoundError as e:
        raise BadInput(f"{doc.source}: file not found") from e
    password = None
    if pdf.needs_pass:
        tried = [p for p in (doc.password, *passwords, *env_passwords()) if p]
        password = next((p for p in tried if pdf.authenticate(p)), None)
        if password is None:
            pdf.close()
            hint = "none of the configured passwords worked" if tried else "no password configured"
            raise BadInput(
                f"{doc.source}: encrypted PDF, {hint} "
                "(set ROWKEEPER_PDF_PASSWORDS or extract.passwords)"
            )
    if pdf.page_count == 0:
        pdf.close()
        raise BadInput(f"{doc.source}: PDF has no pages")
    return pdf, password


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
    pdf, password = open_authenticated(doc, passwords)
    pdf.close()
    return password


RAW_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
"""The text layer as lines and cells are read: blanks kept (they mark gaps), ligatures split."""


def page_dict(page: pymupdf.Page) -> dict[str, Any]:
    """The page's text as PyMuPDF's dict (blocks > lines > spans), images left out; each span
    keeps its char boxes ("chars", from the rawdict) beside its "text"."""
    return raw_dict(page.get_textpage(flags=RAW_FLAGS), page)


def raw_dict(tp: pymupdf.TextPage, page: pymupdf.Page) -> dict[str, Any]:
    """`page_dict` of `page` from its text page `tp` (made with RAW_FLAGS)."""
    d = page.get_text("rawdict", textpage=tp)
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                span["text"] = "".join(c["c"] for c in span["chars"])
    return d


def fast_lines(pno: int, page: pymupdf.Page, tp: pymupdf.TextPage,
               ligatures: bool | None = None) -> list[TextLine] | None:
    """`lines_of_dict` of the page without its char boxes (a rawdict costs 2-3 get_text calls):
    the span dict, and for a line with spaces at either end its ink extent from its words.
    None when a line's first char may not be its leftmost (right-to-left script, combining
    marks, controls) or it holds another blank (no-break, en space: words do not split
    there): only the char boxes then tell where its ink starts and ends.
    `ligatures` not None: `tp` is a TEXTFLAGS_TEXT text page (`kept_ligatures_page`), read as
    RAW_FLAGS reads (True: it holds Latin ligatures, split here as MuPDF splits them); None
    also when it holds a char it had no Unicode for (RAW_FLAGS reads U+FFFD there)."""
    d = page.get_text("dict", textpage=tp)
    padded = set()
    for b, block in enumerate(d["blocks"]):
        for n, line in enumerate(block.get("lines", ())):
            if ligatures is not None and not _as_raw_flags(line["spans"], ligatures):
                return None
            text = "".join(s["text"] for s in line["spans"])
            if not _plain(text):
                return None
            if text[:1] == " " or text[-1:] == " ":
                padded.add((b, n))
    if padded:
        ink: dict[tuple[int, int], tuple[float, float]] = {}
        for w in tp.extractWORDS():
            key = (w[5], w[6])
            if key in padded:
                x0, x1 = ink.get(key, (w[0], w[2]))
                ink[key] = (min(x0, w[0]), max(x1, w[2]))
        for (b, n), (x0, x1) in ink.items():
            d["blocks"][b]["lines"][n]["ink"] = (x0, x1)
    return lines_of_dict(pno, d)


LATIN_LIGATURES = {0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl",
                   0xFB05: "st", 0xFB06: "st"}
"""How MuPDF splits the Latin ligatures when a text page does not keep them (RAW_FLAGS)."""
_SPLIT_ELSE = re.compile("[\ufb07-\ufeff]")
"""Presentation forms (Armenian, Hebrew, Arabic) MuPDF rewrites or reorders when it splits
ligatures: a page holding one is read with RAW_FLAGS itself."""
_UNKNOWN_UNICODE = 128 | 256
"""A span's char_flags FZ_STEXT_UNICODE_IS_CID | _IS_GID: no Unicode for its chars."""


def kept_ligatures_page(text: str) -> bool | None:
    """Whether a TEXTFLAGS_TEXT text page whose plain text is `text` can be read as RAW_FLAGS
    reads (`fast_lines`): None if not (presentation forms), else whether it holds ligatures.
    On 784 real pages without images (peer, real-dev) its lines were those of RAW_FLAGS' page,
    every one of 610 where both read; a scan of 16,000 code points found no other char that
    the two flags read apart."""
    if _SPLIT_ELSE.search(text):
        return None
    return any(chr(c) in text for c in LATIN_LIGATURES)


def _as_raw_flags(spans: list[dict[str, Any]], ligatures: bool) -> bool:
    """The spans' texts as RAW_FLAGS reads them (ligatures split in place); False when a span
    has chars without Unicode (TEXTFLAGS_TEXT gives their CIDs, RAW_FLAGS U+FFFD)."""
    for s in spans:
        if s["char_flags"] & _UNKNOWN_UNICODE:
            return False
        if ligatures:
            s["text"] = s["text"].translate(LATIN_LIGATURES)
    return True


_NOT_PLAIN = re.compile(r"[^ !-~\u00a1-\u00ac\u00ae-\u02ff\u0370-\u058f\u0900-\u1fff"
                        r"\u2010-\u2027\u2030-\u205e\u2070-\u2fff\u3001-\ufb1c]")
"""Chars outside left-to-right letters, digits and punctuation: blanks other than the space,
soft hyphens, controls, combining marks, right-to-left scripts, private use."""


def _plain(text: str) -> bool:
    if _NOT_PLAIN.search(text):
        return False
    # ASCII holds no combining mark: a prose line need not be walked char by char
    return text.isascii() or not any(unicodedata.combining(c) for c in text if c > "\u02ff")


def _line_text(line: dict[str, Any]) -> str:
    return "".join(s["text"] for s in line["spans"]).strip()


def lines_of_dict(pno: int, d: dict[str, Any]) -> list[TextLine]:
    """TextLines of one page's text dict (1-based `pno`), empty lines dropped."""
    out = []
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            if len(line["spans"]) == 1:  # most lines: one span, read without the joins
                text = line["spans"][0]["text"].strip()
                spans = line["spans"] if text else []
            else:
                text = _line_text(line)
                spans = [s for s in line["spans"] if s["text"].strip()]
            if not text:
                continue
            size = max(s["size"] for s in spans)
            bold = all(_span_bold(s) for s in spans)
            x0, y0, x1, y1 = _ink_extent(line, spans)
            lead = None if bold or len(spans) < 2 else _bold_lead(line["spans"])
            out.append(TextLine(page=pno, bbox=(x0, y0, x1, y1), text=text,
                                font_size=round(size, 2), bold=bold, bold_lead=lead))
    return out


def _bold_lead(spans: Sequence[dict[str, Any]]) -> tuple[int, float, float] | None:
    """`TextLine.bold_lead` of a line's spans: bold ones first, then only regular ones (blank
    spans aside); None for any other mix."""
    inked = [(k, _span_bold(s)) for k, s in enumerate(spans) if s["text"].strip()]
    if not inked or not inked[0][1]:
        return None
    k = next((k for k, bold in inked if not bold), None)
    if k is None or any(bold for j, bold in inked if j > k):
        return None
    full = "".join(s["text"] for s in spans)
    before = sum(len(s["text"]) for s in spans[:k]) - (len(full) - len(full.lstrip()))
    key_end = max(_ink_x(s)[1] for j, s in enumerate(spans[:k]) if s["text"].strip())
    return before, key_end, _ink_x(spans[k])[0]


def _ink_x(span: dict[str, Any]) -> tuple[float, float]:
    """Where a span's non-blank chars start and end: from its char boxes, else estimated from
    its box and its blanks at either end (one advance a char)."""
    chars = [c for c in span.get("chars", ()) if c["c"].strip()]
    if chars:
        return chars[0]["bbox"][0], chars[-1]["bbox"][2]
    text, (x0, _, x1, _) = span["text"], span["bbox"]
    step = (x1 - x0) / max(len(text), 1)
    return x0 + step * (len(text) - len(text.lstrip())), x1 - step * (len(text) - len(text.rstrip()))


def _ink_extent(line: dict[str, Any], spans: Sequence[dict[str, Any]]) -> BBox:
    """The line's box from its first to its last non-blank char: a monospace report indents a
    label with spaces ("          Design effect"), and the box MuPDF gives starts at the first
    blank, which would put the label in the table's first column. Lines not written left to
    right, and spans without char boxes, keep their box."""
    x0, y0, x1, y1 = line["bbox"]
    dx, dy = line.get("dir", (1.0, 0.0))
    if dx < 0.99 or abs(dy) > 0.01:
        return x0, y0, x1, y1
    if "ink" in line:  # read from the line's words (`fast_lines`)
        return max(x0, line["ink"][0]), y0, min(x1, line["ink"][1]), y1
    first = [c for c in spans[0].get("chars", ()) if c["c"].strip()]
    last = [c for c in spans[-1].get("chars", ()) if c["c"].strip()]
    if first:
        x0 = max(x0, first[0]["bbox"][0])
    if last:
        x1 = min(x1, last[-1]["bbox"][2])
    return x0, y0, x1, y1


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
    # the spans by the height of their centre: a cell's typography reads only those level with it
    by_y = sorted(((s[0][1] + s[0][3]) / 2, k) for k, s in enumerate(spans))
    ys = [y for y, _ in by_y]
    cells = []
    for i, row in enumerate(rows):
        for j, b in enumerate(row):
            if b is None:
                continue
            text = (texts[i][j] if i < len(texts) and j < len(texts[i]) else None) or ""
            cs = max(1, sum(1 for x in col_x[j:] if x is not None and x < b[2] - 1.0))
            rs = max(1, sum(1 for y in row_y[i:] if y is not None and y < b[3] - 1.0))
            level = sorted(k for _, k in by_y[bisect_left(ys, b[1]):bisect_right(ys, b[3])])
            bold, size = typography([spans[k] for k in level], b) if spans else (None, None)
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
    """Cell text with line breaks inside the cell joined by a space (a list item after CJK text
    by none, `bullet_items.lines_text`) and runs of spaces collapsed."""
    return lines_text([" ".join(line.split()) for line in text.split("\n")])


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
    rs[i] = [union(a, b) for a, b in zip(rs[i], rs[j], strict=False)]
    del ts[j], rs[j]


def _label_only(t: Sequence[str]) -> bool:
    return bool(t[0]) and not any(t[1:])


def _values_only(t: Sequence[str]) -> bool:
    return len(t) > 1 and not t[0] and sum(1 for x in t[1:] if x) >= max(1, (len(t) - 1) // 2)




# --- sideways pages: text printed at 90/180 degrees on a page shown upright ------------------

_UPRIGHT_FOR_DIR = {(0, -1): 90, (0, 1): 270, (-1, 0): 180, (1, 0): 0}
"""/Rotate that shows text running in this (unrotated-space) direction left to right."""


def upright_rotation(d: dict[str, Any], rotation: int, min_share: float = 0.6) -> int | None:
    """The /Rotate that shows the page's dominant text direction upright, None when the page
    reads upright unrotated with /Rotate 0 (or has no dominant direction): the chars of most
    of the page's text run one way (a landscape table printed sideways on a portrait page, or
    a page whose /Rotate turns sideways text upright for the reader)."""
    weight: dict[int, int] = {}
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            want = _UPRIGHT_FOR_DIR.get((round(line["dir"][0]), round(line["dir"][1])))
            n = sum(len(s["text"].strip()) for s in line["spans"])
            if want is not None and n:
                weight[want] = weight.get(want, 0) + n
    total = sum(weight.values())
    if not total:
        return None
    want, n = max(weight.items(), key=lambda kv: kv[1])
    if n < min_share * total or (want == 0 and rotation % 360 == 0):
        return None
    # A /Rotate page that displays its text upright still has it sideways in the unrotated
    # space the text dict, words and rulings are read in: it is read on an upright copy too.
    return want


@contextmanager
def upright_copy(pdf: pymupdf.Document, pno: int, rotation: int) -> Iterator[tuple[pymupdf.Page, pymupdf.Matrix]]:
    """Page `pno` (1-based) of an in-memory copy, turned to `rotation` and baked upright (the
    rotation moved into the content stream, /Rotate 0), so text, words and ruling segments all
    share upright coordinates; and the matrix mapping them back to the original page's
    unrotated coordinates (those of its text and drawings, whatever its /Rotate)."""
    from pymupdf.table import page_rotation_set0

    copy = pymupdf.open()
    try:
        copy.insert_pdf(pdf, from_page=pno - 1, to_page=pno - 1)
        page = copy[0]
        page.set_rotation(rotation)
        back = page.derotation_matrix
        page, *_ = page_rotation_set0(page)
        yield page, back
    finally:
        copy.close()


def map_table(t: RawTable, m: pymupdf.Matrix) -> RawTable:
    """`t` with its box and its cells' boxes carried through `m` (see `map_bbox`)."""
    return t.model_copy(update={
        "bbox": map_bbox(t.bbox, m),
        "cells": tuple(c.model_copy(update={"bbox": map_bbox(c.bbox, m)}) if c.bbox else c for c in t.cells)})


def unrotated(t: RawTable, page: pymupdf.Page) -> RawTable:
    """A table read in the shown coordinates of a page with a /Rotate (pdfplumber and Camelot
    read pages as shown) in the page's unrotated ones, those of its text and drawings."""
    return map_table(t, page.derotation_matrix) if page.rotation % 360 else t


def map_bbox(b: BBox, m: pymupdf.Matrix) -> BBox:
    """`b` carried through `m`, normalised (x0 < x1, top < bottom), rounded to 0.01 pt."""
    r = pymupdf.Rect(b).transform(m).normalize()
    return (round(r.x0, 2), round(r.y0, 2), round(r.x1, 2), round(r.y1, 2))

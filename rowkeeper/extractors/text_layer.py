"""The PDF's own text layer through PyMuPDF: opening (header check, passwords) and text lines
(spans, ligatures, bold lead, ink extent). Cell typography and the grid clean-ups shared by the
find_tables-style extractors are in text_cells.py, sideways pages in upright.py, page features
in page_features.py.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pymupdf

from rowkeeper.config import env_passwords
from rowkeeper.errors import BadInput
from rowkeeper.models import BBox, DocumentInput, TextLine

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
               ligatures: bool | None = None, hidden: Hidden | None = None) -> list[TextLine] | None:
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
    return lines_of_dict(pno, d, hidden)


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


WHITE = 0xF2
"""The least value (0-255) of each colour channel of a span printed in the page's white."""

Hidden = Callable[[dict[str, Any]], bool]


def white(span: dict[str, Any]) -> bool:
    """Whether a span is printed in white (each channel at least `WHITE`)."""
    c = int(span.get("color") or 0)
    return all((c >> shift) & 0xFF >= WHITE for shift in (16, 8, 0))


def unpainted(span: dict[str, Any]) -> bool:
    """Whether a span's glyphs put no ink on the page: drawn in render mode 3 (neither filled
    nor stroked, as an OCR layer is) or fully transparent; MuPDF gives both alpha 0."""
    return span.get("alpha", 255) == 0


HiddenSpan = tuple[tuple[float, float, float, float], str]
"""A span a reader cannot see: its box and its text."""


def shown_words(words: Sequence[Any], hidden: Sequence[HiddenSpan]) -> list[Any]:
    """`words` (get_text("words") tuples) less the words of the `hidden` spans: for each word of
    a hidden span, one word of that text whose middle lies in the span's box. A visible copy
    printed on top of a hidden one is the same word: one of the two stays."""
    if not hidden:
        return list(words)
    gone: set[int] = set()
    for (x0, y0, x1, y1), text in hidden:
        for token in text.split():
            hit = next((i for i, w in enumerate(words) if i not in gone and w[4] == token
                        and x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1), None)
            if hit is not None:
                gone.add(hit)
    return [w for i, w in enumerate(words) if i not in gone]


def _visible(line: dict[str, Any], hidden: Hidden | None) -> dict[str, Any]:
    """The line with the spans a reader cannot see (`hidden`) blanked (a gap where they
    stand), its box cut to the rest; the line itself when it has none."""
    if hidden is None or not any(hidden(s) for s in line["spans"]):
        return line
    spans = [_blank(s) if hidden(s) else s for s in line["spans"]]
    inked = [s for s in spans if s["text"].strip()]
    if not inked:
        return {**line, "spans": []}
    xs = [_ink_x(s) for s in inked]
    box = (min(x for x, _ in xs), line["bbox"][1], max(x for _, x in xs), line["bbox"][3])
    return {k: v for k, v in line.items() if k != "ink"} | {"spans": spans, "bbox": box}


def _blank(span: dict[str, Any]) -> dict[str, Any]:
    """The span with each of its chars a space."""
    chars = [{**c, "c": " "} for c in span.get("chars", ())]
    return {**span, "text": " " * len(span["text"]), **({"chars": chars} if chars else {})}


def lines_of_dict(pno: int, d: dict[str, Any], hidden: Hidden | None = None) -> list[TextLine]:
    """TextLines of one page's text dict (1-based `pno`), empty lines dropped, and spans that
    `hidden` says a reader cannot see (white on the page's white) left out."""
    out = []
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            line = _visible(line, hidden)
            if not line["spans"]:
                continue
            if len(line["spans"]) == 1:  # most lines: one span, read without the joins
                text = line["spans"][0]["text"].strip()
                spans = line["spans"] if text else []
            else:
                text = _line_text(line)
                spans = [s for s in line["spans"] if s["text"].strip()]
            if not text:
                continue
            size = max(s["size"] for s in spans)
            bold = all(span_bold(s) for s in spans)
            x0, y0, x1, y1 = _ink_extent(line, spans)
            lead = None if bold or len(spans) < 2 else _bold_lead(line["spans"])
            out.append(TextLine(page=pno, bbox=(x0, y0, x1, y1), text=text,
                                font_size=round(size, 2), bold=bold, bold_lead=lead))
    return out


def _bold_lead(spans: Sequence[dict[str, Any]]) -> tuple[int, float, float] | None:
    """`TextLine.bold_lead` of a line's spans: bold ones first, then only regular ones (blank
    spans aside); None for any other mix."""
    inked = [(k, span_bold(s)) for k, s in enumerate(spans) if s["text"].strip()]
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


def span_bold(span: dict[str, Any]) -> bool:
    return bool(span["flags"] & BOLD_FLAG) or "bold" in span["font"].lower()


def read_lines(doc: DocumentInput, pages: Sequence[int], passwords: Sequence[str] = ()) -> tuple[TextLine, ...]:
    """All text lines of `pages` (1-based) with bbox, font size and bold flag, in reading order."""
    out: list[TextLine] = []
    with open_pdf(doc, passwords) as pdf:
        for pno in pages:
            out.extend(lines_of_dict(pno, page_dict(pdf[pno - 1])))
    return tuple(out)

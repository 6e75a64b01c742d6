"""The one heading rule, for tables' section paths and text chunks alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rowkeeper.caption_text import is_caption
from rowkeeper.models import TextLine
from rowkeeper.page_columns import PageColumns, units
from rowkeeper.transforms.captions import caption_continuations
from rowkeeper.transforms.context import FOOTNOTE, NUMBERED_HEADING, PageText

PROSE_LINE = 34
"""Characters from which a line is running text (headings, labels and cells are shorter);
a CJK character counts two, as wide as two Latin letters (a column of a two-column Japanese
page at 11 points holds 17-19 characters a line)."""


def body_font_size(lines: Sequence[TextLine], fallback: Sequence[TextLine] = ()) -> float:
    """The font size running text is set in: the character-weighted median over the lines of
    prose length, else over all lines; from `fallback` (say, every line of the document,
    tables' too) when `lines` hold no prose, as on a page of headings and tables."""
    for pool in (lines, fallback):
        prose = [ln for ln in pool if units(ln.text) >= PROSE_LINE and ln.font_size]
        if prose:
            break
    else:
        prose = [ln for ln in (*lines, *fallback) if ln.font_size]
    return _weighted_median([(ln.font_size, min(len(ln.text), 200)) for ln in prose]) or 10.0


def _weighted_median(pairs: Sequence[tuple[float, int]]) -> float | None:
    """statistics.median of each value repeated weight times, without building that list."""
    ranked = sorted(p for p in pairs if p[1] > 0)
    n = sum(w for _, w in ranked)
    if not n:
        return None

    def nth(k: int) -> float:
        for v, w in ranked:
            if k < w:
                return v
            k -= w
        raise IndexError(k)

    return nth(n // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2


_ENDS_SENTENCE = ("。", ".", ":", "：")


def bold_marks_headings(lines: Sequence[TextLine]) -> bool:
    """Bold is a heading signal unless nearly all the running text (80% of the lines of prose
    length) is bold: a document set all in bold would otherwise be all headings and no paragraph."""
    prose = [ln for ln in lines if units(ln.text) >= PROSE_LINE]
    bold = sum(len(ln.text) for ln in prose if ln.bold)
    return not prose or bold < 0.8 * sum(len(ln.text) for ln in prose)


def heading_key(line: TextLine, body: float, bold: bool = True) -> tuple[float, int] | None:
    """Sort key of a heading line (bigger font first, then shallower numbering), else None.

    The one heading rule, for tables' section paths and text chunks alike: a short line that
    is no sentence, set larger than the body text or in bold at body size ("Summary",
    "2. Ausgaben"; not "Hinweis:" nor "Die Preise sind Nettopreise."). `bold=False` where bold
    marks nothing (`bold_marks_headings`)."""
    if line.font_size < body + 1.0 and not (bold and line.bold):
        return None  # the last test below, first: it rules out body text without a regex
    text = line.text.strip()
    if not text or len(text) > 120 or is_caption(text) or FOOTNOTE.match(text):
        return None
    numbered = NUMBERED_HEADING.match(text)
    if text.endswith(_ENDS_SENTENCE) and (len(text) > 30 or not numbered):
        return None  # a sentence, or a lead-in label ("Hinweis:")
    small = line.font_size < body - 0.5 and not numbered  # a bold note under a table
    if line.font_size < body + 1.0 and (not (bold and line.bold) or len(text) > 80 or small):
        return None
    depth = numbered.group(0).rstrip(". ").count(".") + 1 if numbered else 0
    return (-round(line.font_size * 2) / 2, depth)


def is_strong_heading(line: TextLine, body: float, bold: bool = True) -> bool:
    """A heading by size or numbering: one that a table's bold row label never looks like."""
    numbered = NUMBERED_HEADING.match(line.text.strip())
    return heading_key(line, body, bold) is not None and (line.font_size >= body + 1.0 or bool(numbered))


def _with_value(pt: PageText, line: TextLine, cols: PageColumns | None) -> bool:
    """Whether other text stands level with the line, right after it in its text column (no
    gutter between): a form's bold label beside its value ('Contact  320-9395')."""
    y = (line.bbox[1] + line.bbox[3]) / 2
    return any(ln is not line and ln.bbox[1] < y < ln.bbox[3] and ln.bbox[0] >= line.bbox[2] - 1.0
               and not any(line.bbox[2] <= g <= ln.bbox[0] for g in (cols.gutters if cols else ()))
               for ln in pt.lines)


def heading_lines(pages: dict[int, PageText], body: float | None = None, bold: bool = True,
                  columns: Mapping[int, PageColumns] | None = None) -> list[TextLine]:
    """The content lines that are headings, in reading order. A heading by bold alone stands
    alone on its row in its text column (the pages' `columns`): not among labels set like it,
    not beside a value."""
    if body is None:
        body = body_font_size([ln for p in pages.values() for ln in p.lines])
    out = []
    for page in sorted(pages):
        pt = pages[page]
        cols = (columns or {}).get(page)
        found = [ln for ln in pt.lines if heading_key(ln, body, bold) is not None and not pt.beside_table(ln)
                 and (is_strong_heading(ln, body, bold)
                      or not (pt.in_a_row(ln) or _with_value(pt, ln, cols)))]
        wrapped = caption_continuations(pt) if found else set()  # a caption's second line is no heading
        out += [ln for ln in found if id(ln) not in wrapped]
    return out

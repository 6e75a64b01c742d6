"""Running text on a page: blocks of prose lines, and what reads as a figure.

A paragraph set level with a borderless table shares its rows' heights; the aligned-runs
finder (`text_runs`) takes these blocks (and the headings over them) out before it groups
rows, so prose is never read as a column of cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.models import TextLine

_NUMERIC = set("0123456789.,%()-−+$€¥£ ")


_NUMERIC_CHAR = re.compile("[" + re.escape("".join(sorted(_NUMERIC))) + "]")


def is_numeric(text: str) -> bool:
    """Whether a segment reads as a figure: digits, and mostly figure characters."""
    t = text.strip()
    # the share first: one regex pass, and it rules out prose, which most lines are
    if not t or len(_NUMERIC_CHAR.findall(t)) < 0.8 * len(t):
        return False
    return any(c.isdigit() for c in t)


def running_text(lines: Sequence[TextLine], min_lines: int = 4) -> list[list[TextLine]]:
    """Blocks of running text: at least `min_lines` lines one under the other at one pitch,
    starting at one left edge, each but the last filled to within a fifth of the block's
    widest with a sentence's worth of words, the last one too or a sentence's end. A column
    of wrapped cells breaks the rule at the short last line of every cell."""
    out: list[list[TextLine]] = []
    by_left: dict[int, list[TextLine]] = {}
    for ln in sorted(lines, key=lambda t: t.bbox[1]):
        by_left.setdefault(round(ln.bbox[0] / 2), []).append(ln)
    for column in by_left.values():
        block: list[TextLine] = []
        for ln in [*column, None]:
            if ln is not None and block and _next_line(block, ln):
                block.append(ln)
                continue
            if len(block) >= min_lines and _filled(block) and _prose_block(block):
                out.append(block)
            block = _restart(block, ln)
    return out


def headings_over(lines: Sequence[TextLine], block: Sequence[TextLine]) -> list[TextLine]:
    """Lines of words set at most two line heights over a paragraph, at its left edge and no
    wider: its heading (or lead-in), prose of the paragraph's column and no row of a table
    beside it, with whose rows it may stand level."""
    first = block[0]
    height = first.bbox[3] - first.bbox[1]
    right = max(ln.bbox[2] for ln in block)
    return [ln for ln in lines if abs(ln.bbox[0] - first.bbox[0]) <= 2 and 0 < first.bbox[1] - ln.bbox[1] <= 2 * height
            and ln.bbox[2] <= right + 2 and _sentence_words(ln.text)]


def _restart(block: list[TextLine], ln: TextLine | None) -> list[TextLine]:
    """The block that starts at `ln`, which did not go on with `block`: with `block`'s last line
    when `ln` goes on with it alone (a heading a line's pitch above a paragraph took its first
    line, and the paragraph's own pitch then broke the block at its second)."""
    if ln is None:
        return []
    if len(block) >= 2 and _next_line(block[-1:], ln):
        return [block[-1], ln]
    return [ln]


def _next_line(block: Sequence[TextLine], below: TextLine) -> bool:
    """Whether `below` goes on with the paragraph `block`: the line under its last, full, line
    at the block's pitch, in its type, with words of a sentence or a sentence's end."""
    above = block[-1]
    pitch = below.bbox[1] - above.bbox[1]
    if not 0 < pitch <= 1.6 * (above.bbox[3] - above.bbox[1]) or abs(below.font_size - above.font_size) >= 0.5:
        return False
    if len(block) > 1 and abs(pitch - (above.bbox[1] - block[-2].bbox[1])) > 0.15 * pitch:
        return False
    return _some_words(above.text) and (_some_words(below.text) or below.text.rstrip()[-1:] in SENTENCE_END)


def _prose_block(block: Sequence[TextLine]) -> bool:
    """Whether a block's lines read as a paragraph: each but the last with a sentence's worth
    of words, or, set in a narrow column of a few words a line ("the main results and"), with
    a sentence or clause ending inside it: a column of labels (names, places) has none."""
    if all(_sentence_words(ln.text) for ln in block[:-1]):
        return True
    return any(_CLAUSE_INSIDE.search(ln.text.rstrip()) or ln.text.rstrip()[-1:] in _CLAUSE_END
               for ln in block[:-1])


_CLAUSE_INSIDE = re.compile(r"[.;:!?。；：！？、，,]\s+\S|[。；！？、，]\S")
_CLAUSE_END = ".;:!?。；：！？、，,"


def _some_words(text: str) -> bool:
    """A line of a paragraph set in a narrow column: a sentence's words (`_sentence_words`), or
    two words of letters or one long one, or six characters of unspaced (CJK) script, and no
    figure."""
    if _sentence_words(text):
        return True
    t = text.strip()
    # one long word alone is a line of a ragged narrow measure too ("abgelaufenen")
    spaced = (len(t.split()) >= 2 or len(t.rstrip(",;:")) >= 8) and \
        sum(ch.isalpha() for ch in t) >= 0.6 * len(t.replace(" ", ""))
    cjk = len(t) >= 6 and sum(ord(ch) > 0x2E80 for ch in t) >= 0.5 * len(t)
    return (spaced or cjk) and not is_numeric(t)


def _filled(block: Sequence[TextLine]) -> bool:
    """Lines filled to the measure, the last ending a sentence: row labels of one length one
    under the other ("Projections of Education Statistics to 2017 / ... 2018") end none.
    A line is filled when it reaches four fifths of the widest, or when the next line's first
    word would not have fitted after it (ragged lines of a narrow column)."""
    widest = max(ln.bbox[2] - ln.bbox[0] for ln in block)
    return all(ln.bbox[2] - ln.bbox[0] + _first_word(nxt) >= 0.97 * widest
               or ln.bbox[2] - ln.bbox[0] >= 0.8 * widest
               for ln, nxt in zip(block, block[1:], strict=False)) and \
        block[-1].text.rstrip()[-1:] in SENTENCE_END


def _first_word(line: TextLine) -> float:
    """Estimated width of a line's first word and the space before it (a character of
    unspaced script)."""
    text = line.text.strip()
    first = text[:1] if ord(text[:1] or " ") > 0x2E80 else text.split()[0]
    return (line.bbox[2] - line.bbox[0]) * (len(first) + 1) / max(len(text), 1)


SENTENCE_END = ".!?。！？"
"""A line ending so is a sentence or a lead-in, no column header (CJK full stops included)."""


def _sentence_words(text: str) -> bool:
    """Enough words for running text: six, or three in 24 characters (a paragraph set in a
    narrow column beside a table: "und außerordentlichen Posten,"), or twelve characters of
    unspaced (CJK) script."""
    n = len(text.split())
    wordy = n >= 6 or (n >= 3 and len(text) >= 24) or (len(text) >= 12 and text.count(" ") <= 2 and
                                                       sum(ord(ch) > 0x2E80 for ch in text) >= 0.5 * len(text))
    # the numeric test last: most lines fail the word count first (the page engineer's profile)
    return wordy and not is_numeric(text)

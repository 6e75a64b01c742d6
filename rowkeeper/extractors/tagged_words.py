"""Words an exporter broke across two lines of a narrow cell (`Headcoun | t`, `33,484.3 | 8`).

A layout with fixed column widths (LibreOffice Writer's, Word's) breaks a word too wide for its
column at the last character that fits and goes on with it on the next line. Read line by line
the cell holds two words (`33,484.3 8`). Such a break is told from a wrap at a space by what
the layout leaves at the end of the line: a layout that keeps the space at its wraps (the page's
wrapped lines end in one, `spaced_wraps`) wraps at a space only where it shows one; a line that
ends in a word with no space after it, itself one word, with the next line's first character
in no room left in its column, is one word broken (`word_breaks`, `glued`). A line break the
markup set (a <br>) leaves room in the column, unless its line is the column's widest. Where
the layout shows no space at its wraps (CJK text has none; a browser drops it) only figures
count, broken at an edge two cells of the column share: a browser wraps one-word lines at its
columns' edges too, at spaces it does not show (`Vörösfenyő | iroda`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rowkeeper.glyphs import WIDE


@dataclass(frozen=True)
class WordBreak:
    """A line break inside a cell that may fall inside a word: after line `after`, whose right
    edge is `x1`, the next line's first character `advance` wide; `others`: the right edge of
    the cell's other lines (its column's room as this cell shows it)."""

    after: int
    x1: float
    advance: float
    others: float
    figure: bool = False
    """Both sides of the break are digits (`33,484.3 | 8`): a figure broken, or two figures."""


def word_breaks(lines: Sequence[Sequence[dict[str, Any]]]) -> tuple[WordBreak, ...]:
    """The breaks between a cell's lines (each a list of MuPDF spans, left to right, tagged with
    their text block's index as `block`) that may fall inside a word: the upper line is one word
    with no space after it, ending in a letter or digit (`word_end`), the lower in the same
    paragraph (the same text block: a list item or a paragraph of its own starts a block)
    starting with one (`word_start`)."""
    ends = [max(s["bbox"][2] for s in ln) for ln in lines]
    out = []
    for k, (up, low) in enumerate(zip(lines, lines[1:], strict=False)):
        end, advance = word_end(up), word_start(low)
        if end is None or advance is None or up[-1].get("block") != low[0].get("block"):
            continue
        others = max((e for j, e in enumerate(ends) if j != k), default=float("-inf"))
        out.append(WordBreak(k, end, advance, others, figure=digits(up, low)))
    return tuple(out)


def word_end(line: Sequence[dict[str, Any]]) -> float | None:
    """The right edge of a line that is one word ending in a letter or digit with no space after
    it (a word the line may have broken); None for any other line."""
    text = "".join(s["text"] for s in line)
    word = text.strip()
    if not word or text[-1].isspace() or len(word.split()) != 1 or not _letter(word[-1]):
        return None
    return max(s["bbox"][2] for s in line)


def word_start(line: Sequence[dict[str, Any]]) -> float | None:
    """The advance of a line's first character when it is a letter or digit (the rest of a
    broken word may start the line); None otherwise."""
    first = next((s for s in line if s["text"].strip()), None)
    if first is None or not _letter(first["text"].lstrip()[0]):
        return None
    return (first["bbox"][2] - first["bbox"][0]) / max(len(first["text"]), 1)


def digits(upper: Sequence[dict[str, Any]], lower: Sequence[dict[str, Any]]) -> bool:
    """Whether a line ends in a digit and the next starts with one."""
    up, low = "".join(s["text"] for s in upper).strip(), "".join(s["text"] for s in lower).strip()
    return bool(up) and bool(low) and up[-1].isdigit() and low[0].isdigit()


def _letter(ch: str) -> bool:
    return ch.isalnum() and not WIDE.match(ch)


def glued(breaks: Iterable[WordBreak], reach: float) -> frozenset[int]:
    """The lines after which a word goes on: those where the next line's first character would
    have run past `reach` (the right edge of the column's other text, the other cells' of the
    column included) and past the cell's other lines."""
    return frozenset(b.after for b in breaks if b.x1 + b.advance > max(reach, b.others) + 0.5)


def spaced_wraps(blocks: Sequence[dict[str, Any]]) -> bool:
    """Whether the page's layout keeps the space at its wraps: a paragraph's line (a text block's
    line followed by another) ends in a space (LibreOffice's, Word's; a browser's do not)."""
    for b in blocks:
        if b.get("type") == 2 and spaced_wraps(b.get("blocks", ())):
            return True
        lines = b.get("lines", ()) if b.get("type") == 0 else ()
        for ln, nxt in zip(lines, lines[1:], strict=False):
            text = "".join(s["text"] for s in ln["spans"])
            if text.strip() and text[-1].isspace() and nxt["bbox"][1] > (ln["bbox"][1] + ln["bbox"][3]) / 2:
                return True
    return False

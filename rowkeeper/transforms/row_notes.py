"""Which of a table's notes a row chunk repeats: only those the row points to by its mark.

A table's notes (`Source: …`, `Note: all amounts before tax`, `* rounded`, `** audited`) speak
to the whole table; the table chunk and every row-group chunk repeat them. A row chunk is the
finest unit a retriever ranks, and a note of sixty words repeated into it outweighs the row's
own few words (BM25 ranks a longer chunk lower: in the zoo, rows of tables with a note lost
their place to rows of other documents). So a row chunk keeps a note only where one of its
cells carries the note's mark (`長野センター**` takes the `**` note, not the `*` one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_MARKS = "*†‡§¶#¹²³⁴⁵⁶⁷⁸⁹⁰"
_NOTE_START = re.compile(rf"(?:^|(?<=\s))(?=[{re.escape(_MARKS)}]+\s*\S)")
_LEAD = re.compile(rf"^([{re.escape(_MARKS)}]+)")


def split_notes(footnotes: Sequence[str]) -> list[tuple[str, str]]:
    """(mark, text) of each note, a footnote line holding several (`*… **…`) cut at each
    mark; the mark is "" for a note that has none (`Source: …`)."""
    out = []
    for line in footnotes:
        for part in _NOTE_START.split(line.strip()):
            if part.strip():
                m = _LEAD.match(part.strip())
                out.append((m.group(1) if m else "", part.strip()))
    return out


def _carries(cell: str, mark: str) -> bool:
    """Whether a cell ends in exactly `mark` (`**`, not the `*` of it or a longer run)."""
    text = cell.rstrip()
    return text.endswith(mark) and not text[: len(text) - len(mark)].endswith(mark[-1])


def row_notes(notes: Sequence[tuple[str, str]], row: Sequence[str]) -> list[str]:
    """The notes whose mark one of the row's cells carries."""
    return [text for mark, text in notes if mark and any(_carries(c, mark) for c in row)]

"""Rows of fields set across (a form's "Phone | 127-5920 | Date | 976-9271"): two of them are a
table though a run needs more rows, when their keys say so (bold or colon-ended, alternating
with values) or, in plain print, when a caption beside them says so and their segments stand
level column by column (finder/text_runs.py asks, closing a short run).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.finder.run_heads import prose_segment
from rowkeeper.extractors.finder.running_text import is_numeric
from rowkeeper.models import TextLine


def field_rows(rows: Sequence[Sequence[TextLine]]) -> bool:
    """Whether rows read as fields set across (a form's "Phone | 127-5920 | Date | 976-9271"):
    each row four segments or more, its first a key (bold or colon-ended) and its others no
    keys, or its keys and values alternating. Two such rows are a table; two rows of plain
    segments are too few to tell one from text set level by chance."""
    for row in rows:
        keys = [is_key(t) for t in row]
        if len(row) < 4 or not keys[0] or any(keys[1::2]):
            return False
        if any(keys[2::2]) and (len(row) % 2 or not all(keys[0::2])):
            return False
    return True


def level_fields(rows: Sequence[Sequence[TextLine]], tol: float = 3.0) -> bool:
    """Whether rows are fields set across in plain print, as a caption beside them says a
    table's rows are: each four short segments or more, as many in every row, each starting
    where a segment of every other row starts (two pairs or more of keys and values), each key
    (the first of a pair) words, no figure: a table's last rows of figures on a new page, over
    the caption printed under the table, are its continuation, no fields."""
    ordered = [sorted(row, key=lambda t: t.bbox[0]) for row in rows]
    starts = [[t.bbox[0] for t in row] for row in ordered]
    keys = [t for row in ordered for t in row[0::2]]
    return len({len(s) for s in starts}) == 1 and len(starts[0]) >= 4 \
        and not any(prose_segment(t) for row in rows for t in row) \
        and not any(is_numeric(t.text) for t in keys) \
        and all(abs(a - b) <= tol for s in starts[1:] for a, b in zip(starts[0], s, strict=True))


def is_key(t: TextLine) -> bool:
    """Whether a segment is printed as a form's key: bold, or ending with a colon."""
    return t.bold or t.text.rstrip().endswith((":", "\uff1a"))

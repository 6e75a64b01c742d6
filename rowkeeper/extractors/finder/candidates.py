"""Candidate selection: the tables the finder's strategies proposed for a page, each text line
in one table at most.

Strategies overlap by design: a ruled grid is found from its rules, and the aligned text inside
it is also an aligned region that the borderless reader (and the key-value split) reads again.
Rather than each caller guarding against the others, the finder hands all its candidates here,
strongest first (ruled grids before tables read from the text), and a candidate whose lines are
mostly owned already is the same table found twice and is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import area, centre_in, overlap
from rowkeeper.models import BBox

OWNED = 0.9
"""Share of a candidate's lines owned by stronger ones at which it is that table again (a
candidate sharing fewer reads more of the page than they do, and stays)."""


def owned_once(boxes: Sequence[BBox], lines: Sequence[BBox]) -> list[int]:
    """Indices of the candidate boxes kept (given strongest first): each in turn takes the
    lines whose centre lies in it, unless `OWNED` of them already belong to kept ones that it
    covers for the most part (a small table nested in a larger box is a table of its own). A
    candidate holding no line (a ruled frame around pictures) is kept: it shares no text."""
    owner: dict[int, int] = {}
    kept = []
    for i, box in enumerate(boxes):
        mine = [k for k, ln in enumerate(lines) if centre_in(ln, box, 1.0)]
        owners = {owner[k] for k in mine if k in owner}
        if mine and len([k for k in mine if k in owner]) >= OWNED * len(mine) \
                and sum(overlap(box, boxes[o]) for o in owners) >= 0.5 * sum(area(boxes[o]) for o in owners):
            continue  # the same table again (not one nested in a larger box: that one stays)
        kept.append(i)
        for k in mine:
            owner.setdefault(k, i)
    return kept

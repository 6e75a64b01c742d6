"""Blocks of one form decide "header or not" together.

A form sets its fields as blocks side by side (a customer block beside an offer block), each a
small table of keys and values whose first row is one more field. One block alone may not
tell (two fields of names under nothing bold); its sibling may (a date or an amount among its
values, bold keys): the blocks of one form are read alike, so a block with no header evidence
of its own (no header flag, no bold first row over a regular body) beside a headerless one is
headerless too. Blocks whose first rows repeat each other (a long list printed in two halves
under one header each) keep their header.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import RawTable
from rowkeeper.transforms.headers import header_evidence

MAX_COLS = 4
"""Columns a block of fields holds at most (two pairs a row)."""


def _first_row(piece: RawTable) -> tuple[str, ...]:
    cells = sorted((c for c in piece.cells if c.row == 0), key=lambda c: c.col)
    return tuple(" ".join(c.text.split()).lower() for c in cells)


def _row_height(piece: RawTable) -> float:
    """The height of the piece's first row (its cells' boxes), else a tenth of its own."""
    tops = [c.bbox for c in piece.cells if c.row == 0 and c.bbox]
    if not tops:
        return (piece.bbox[3] - piece.bbox[1]) / 10
    return max(b[3] for b in tops) - min(b[1] for b in tops)


def siblings(a: RawTable, b: RawTable) -> bool:
    """Two blocks side by side: on one page, apart across, their tops level (within half the
    taller first row)."""
    if a.page != b.page or a.bbox[2] > b.bbox[0] and b.bbox[2] > a.bbox[0]:
        return False
    return abs(a.bbox[1] - b.bbox[1]) <= 0.5 * max(_row_height(a), _row_height(b))


def _block(piece: RawTable) -> bool:
    """A piece shaped like a block of fields: two or four columns, a key first in every row."""
    if piece.n_cols not in (2, MAX_COLS) or piece.n_rows < 2:
        return False
    keyed = {c.row for c in piece.cells if c.col == 0 and c.text.strip()}
    return len(keyed) == piece.n_rows


def headerless_siblings(pieces: Sequence[RawTable], header_rows: Sequence[int]) -> set[str]:
    """Piece ids of blocks read with a header row that a headerless sibling block of the same
    form says are fields throughout: no header evidence of their own (`header_evidence`), no
    first row repeating a sibling's."""
    out: set[str] = set()
    blocks = [(p, h) for p, h in zip(pieces, header_rows, strict=True) if _block(p)]
    for p, h in blocks:
        if h == 0 or header_evidence(p):
            continue
        near = [(q, g) for q, g in blocks if q is not p and siblings(p, q)]
        if any(g == 0 for _, g in near) and not any(_first_row(q) == _first_row(p) for q, _ in near):
            out.add(p.piece_id)
    return out

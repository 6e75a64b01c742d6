"""A currency sign set apart at the left of an amount's cell belongs to that amount.

Statements in accounting style print the sign only on the first and the total rows, at the
cell's left edge, with the figures right-aligned under the column's head (`$    1,234`). A
reader that parts columns by white space then puts the lone sign in a column of its own, or at
the end of the cell to its left (the sign stands nearer that cell's text than its own right-
aligned figure). Two repairs on a piece's cells, before its header is read:

- a column holding nothing but lone signs (and maybe a header label its right neighbour lacks),
  beside a column with a figure on each sign's row, is folded into that column: `$ 1,234`;
- a lone sign ending a cell, before a cell holding a bare amount, moves to that amount, unless
  signs end most of its column's cells (a column of amounts with the sign after them, `830 €`);
  a date, a phone number or an amount with its own sign takes none (a form's fields set across,
  `794 715 Ft | 2024. 07. 08.`: the sign is the first amount's);
- a column holding nothing but lone signs, each after a figure in the column to its left (the
  sign after the amount, set a wide space off in a fixed-width face: `1.578.746 €`), is folded
  into that column: `1.578.746 €`, not a column of `€` under no name.
"""

from __future__ import annotations

import re
import unicodedata

from rowkeeper.models import Cell, RawTable

# currency signs written in letters (ISO codes and national abbreviations)
_LETTER_SIGNS = frozenset({"Ft", "kr", "Kč", "zł", "Fr.", "CHF", "EUR", "USD", "GBP", "JPY",
                           "HUF", "CZK", "PLN", "SEK", "NOK", "DKK", "VND", "R$", "лв", "lei"})
_FIGURE = re.compile(r"^[(\-−–]?\d")
_AMOUNT = re.compile(r"[(\-−–+]?(?:\d{1,3}(?:[ ,.'’\u00a0\u202f]\d{3})+|\d+)(?:[.,]\d+)?\)?")
"""A bare amount: digits, maybe grouped by threes and with decimals, maybe negative; no sign,
no date (`2024. 07. 08.`, `12.05.2024`) and no code (`981-1283`)."""


def is_sign(text: str) -> bool:
    """A lone currency sign: `$`, `€`, `¥`, `₫`, `Ft`, `EUR`."""
    t = text.strip()
    return bool(t) and (t in _LETTER_SIGNS or all(unicodedata.category(ch) == "Sc" for ch in t))


def _figure(text: str) -> bool:
    return bool(_FIGURE.match(text.strip()))


def _by_pos(piece: RawTable) -> dict[tuple[int, int], Cell]:
    return {(c.row, c.col): c for c in piece.cells}


def _sign_column(piece: RawTable, col: int, at: dict[tuple[int, int], Cell]) -> bool:
    """Whether `col` holds lone signs only (and labels its right neighbour lacks), each sign
    beside a figure in the next column, and no cell spans into or out of it."""
    if col + 1 >= piece.n_cols or any(c.col_span > 1 and c.col <= col + 1 and col < c.col + c.col_span
                                      for c in piece.cells):
        return False
    signs = 0
    for r in range(piece.n_rows):
        here, right = at.get((r, col)), at.get((r, col + 1))
        text = here.text.strip() if here else ""
        if not text:
            continue
        if is_sign(text):
            if right is None or not _figure(right.text):
                return False
            signs += 1
        elif right is not None and right.text.strip():
            return False  # a label over a labelled column: a column of its own
    return signs > 0


def _suffix_column(piece: RawTable, col: int, at: dict[tuple[int, int], Cell]) -> bool:
    """Whether `col` holds lone signs only, one after every amount of the column to its left
    (a cell ending in a figure), and no cell spans into or out of it. Accounting style's signs
    stand on the first and total rows only, before the amounts: one after each is the style of
    amounts written with the sign after them."""
    if col < 1 or any(c.col_span > 1 and c.col <= col and col - 1 < c.col + c.col_span for c in piece.cells):
        return False
    signs = 0
    for r in range(piece.n_rows):
        here, left = at.get((r, col)), at.get((r, col - 1))
        text = here.text.strip() if here else ""
        amount = left is not None and _figure(left.text) and left.text.strip()[-1:].isdigit()
        if bool(text) != amount or (text and not is_sign(text)):
            return False
        signs += bool(text)
    return signs > 0


def _fold_column(piece: RawTable, col: int, at: dict[tuple[int, int], Cell], into: int = 1) -> RawTable:
    """The piece with `col`'s texts joined to the cells beside them (`into` 1: prefixed to the
    right-hand cells; -1: after the left-hand ones) and `col` dropped."""
    cells = []
    for c in piece.cells:
        if c.col == col:
            continue
        if c.col == col + into and (side := at.get((c.row, col))) is not None and side.text.strip():
            pair = (side.text.strip(), c.text.strip())[::into]
            c = c.model_copy(update={"text": " ".join(pair).strip()})
        if c.col > col:
            c = c.model_copy(update={"col": c.col - 1})
        cells.append(c)
    return piece.model_copy(update={"cells": tuple(cells), "n_cols": piece.n_cols - 1})


def _trailing_moves(piece: RawTable, at: dict[tuple[int, int], Cell]) -> dict[tuple[int, int], str]:
    """New texts of the cells a trailing lone sign leaves and the ones it goes to."""
    texts = {k: c.text for k, c in at.items()}
    for col in range(piece.n_cols - 1):
        ending = [r for r in range(piece.n_rows) if _ends_in_sign(texts.get((r, col), ""))]
        filled = sum(1 for r in range(piece.n_rows) if texts.get((r, col), "").strip())
        if not ending or len(ending) * 2 > filled:
            continue
        for r in ending:
            right = texts.get((r, col + 1), "")
            if (r, col + 1) not in at or not _AMOUNT.fullmatch(right.strip()):
                continue
            head, sign = texts[(r, col)].rstrip().rsplit(None, 1)
            texts[(r, col)], texts[(r, col + 1)] = head, f"{sign} {right.strip()}"
    return {k: t for k, t in texts.items() if t != at[k].text}


def _ends_in_sign(text: str) -> bool:
    parts = text.strip().rsplit(None, 1)
    return len(parts) == 2 and is_sign(parts[1]) and not is_sign(parts[0])


def attach_currency_signs(piece: RawTable) -> RawTable:
    """The piece with set-apart currency signs joined to their amounts (see the module)."""
    col = 0
    while col < piece.n_cols:
        at = _by_pos(piece)
        if _suffix_column(piece, col, at):
            piece = _fold_column(piece, col, at, -1)
            continue
        if _sign_column(piece, col, at):
            piece = _fold_column(piece, col, at)
            continue
        col += 1
    at = _by_pos(piece)
    moved = _trailing_moves(piece, at)
    if not moved:
        return piece
    cells = tuple(c.model_copy(update={"text": moved[(c.row, c.col)]}) if (c.row, c.col) in moved else c
                  for c in piece.cells)
    return piece.model_copy(update={"cells": cells})

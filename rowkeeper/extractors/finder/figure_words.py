"""What the finder reads as a figure: a figure word ("2,340", "Q1", "FY2023"), a line mostly
of figures, the header lines over them, and a figure printed in parts a word space apart (a
leading group of thousands and the rest, the parts of a date). Read by the projection's column
gaps (projection.py, figure_parts.py), two columns of figures set close (figure_columns.py)
and the finder's other strategies. Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from rowkeeper.label_text import period_label

LEADING_GROUP = re.compile(r"[-−+(]?\d{1,3}")
"""A figure's leading group of thousands ("1", "-65", "(715"): one to three digits."""
_GROUP_ON = re.compile(r"\d{3}(?:[.,]\d+)?\)?")
_DATE_PART = re.compile(r"\d{1,4}\.")


def goes_on(prev: str, word: str) -> bool:
    """Whether number `word` goes on the figure ending in `prev`: a group of thousands after a
    leading group ("4 | 973", "65 | 000,6"), or a part of a date after another ("2025. | 01.")."""
    return bool(LEADING_GROUP.fullmatch(prev) and _GROUP_ON.fullmatch(word)
                or _DATE_PART.fullmatch(prev) and _DATE_PART.fullmatch(word))


def mostly_numbers(row: Sequence[Any]) -> bool:
    """Whether at least half the phrases of a row's words are numbers (at least as many digits
    as letters: "2,340", "Q1", "FY2023"); words closer than half their height are one phrase."""
    phrases: list[str] = []
    end = None
    for w in sorted(row, key=lambda w: w[0]):
        if end is not None and w[0] - end < 0.5 * (w[3] - w[1]):
            phrases[-1] += " " + w[4]
        else:
            phrases.append(w[4])
        end = w[2] if end is None else max(end, w[2])
    # a currency sign set apart before its amount ("Ft    1 758 898", accounting style) is part
    # of that figure, not a label: the rows that carry signs stay rows of figures
    phrases = [p for p, nxt in zip(phrases, [*phrases[1:], ""], strict=True)
               if not (_sign_before(p) and is_figure(nxt))]
    numbers = sum(is_figure(p) for p in phrases)
    return numbers >= 0.5 * len(phrases)


def _sign_before(text: str) -> bool:
    """A currency sign in symbols ("$", "€") or in at most three letters ("Ft", "kr", "EUR")."""
    t = text.rstrip(".")
    return 0 < len(t) <= 3 and (t.isalpha() or all(unicodedata.category(ch) == "Sc" for ch in t))


def is_figure(text: str) -> bool:
    """At least as many digits as letters, and a digit: "2,340", "Q1", "FY2023", not "Total"."""
    return sum(ch.isdigit() for ch in text) >= max(1, sum(ch.isalpha() for ch in text))


def header_line_count(lines: Sequence[Sequence[Any]]) -> int:
    """How many of the first lines (three at most) are header lines: those before the first
    line that is mostly numbers and not a line of periods over figures that are none
    ("Standort 2022 2023 2022 2023" under "Stückpreis" and "Kosten", "施設 Q1 Q2 Q3 Q4" under
    "人数")."""
    head = 0
    while head < min(3, len(lines)) and (not mostly_numbers(lines[head]) or _periods_over_figures(lines[head:head + 2])):
        head += 1
    return head


def _periods_over_figures(lines: Sequence[Sequence[Any]]) -> bool:
    """Whether the first of two lines has figures and all of them are periods (years,
    quarters, halves), and the second has a figure that is none: the sub-labels of a spanner
    header over its columns of figures (`transforms.heads.years_over_numbers` asks the same of
    a row of years)."""
    if len(lines) < 2:
        return False
    periods = [str(w[4]) for w in lines[0] if is_figure(str(w[4]))]
    return bool(periods) and all(period_label(p) for p in periods) \
        and any(is_figure(str(w[4])) and not period_label(str(w[4])) for w in lines[1])


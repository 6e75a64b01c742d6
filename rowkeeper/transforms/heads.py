"""Heads that read like figures: a header row over figure columns though its cells are years,
periods, ranges, units or numbers (`2024`, `11/12`, `May/2013`, `9–12`, `$000's`, `1.0 | 1.1 |
... | 1.6`). Each rule says what tells such heads from the body's first row of figures; the
header rules (`headers.RowEvidence`) and the group-label pass (`spanners`) ask the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.transforms.figures import SAMPLE_ROWS, is_number

YEAR = re.compile(r"^(?:FY ?)?(19|20|21)\d\d(?:[/-]\d{2,4})?$", re.I)
"""A year or a fiscal year (`2024`, `FY2024`, `2012/13`)."""


def years_over_numbers(row: Sequence[str], below: Sequence[Sequence[str]], cols: list[bool]) -> bool:
    """A row of years (2025, FY2024) above non-year numbers is a header, not data; labels
    beside the years ("Note" over a column of note numbers) do not make it data."""
    years = [c for c, t in enumerate(row) if c < len(cols) and cols[c] and t.strip() and is_number(t)]
    if not years or not all(YEAR.match(row[c].strip()) for c in years):
        return False
    return any(r[c].strip() and not YEAR.match(r[c].strip()) for r in below for c in years)


_PERIOD = re.compile(r"^(?:FY ?)?(?:\d{2}/\d{2}|(?:19|20|21)\d\d(?:[/-]\d{2,4})?|[^\W\d_]{3,9}\.?[/ -]?(?:19|20|21)\d\d"
                     r"|\d{1,2}([/.])\d{1,2}\1(?:19|20|21)\d\d|(?:19|20|21)\d\d-\d{2}-\d{2})"
                     r"(?:\s*\(\w{1,3}\))?$", re.I)
"""A period heading a column of figures: a year, a crop or fiscal year ("11/12", "2012/13"), a
month and year ("May/2013", "Jun 2013"), a closing date ("12/31/2010", "31.12.2023",
"2023-12-31"), maybe with a note mark ("(a)")."""

_UNIT = re.compile(r"^\(?(?:[$€£¥]\s?(?:'?000'?s?|k|m|mn|bn)?|(?:[$€£¥]\s?)?'?000'?s?|%)\)?$", re.I)
"""A unit heading a column of figures: a currency in thousands or millions (`$000's`, `€m`,
`'000`), a per cent sign."""


def units_over_figures(row: Sequence[str], cols: list[bool]) -> bool:
    """A row of units over the figure columns (`$000's` | `%` | ...), two or more and nothing
    else there: a header row, though `000` reads like a code."""
    cells = [t.strip() for c, t in enumerate(row) if c < len(cols) and cols[c] and t.strip()]
    return len(cells) >= 2 and all(_UNIT.match(t) for t in cells)


_RANGE = re.compile(r"^(?:[^\W\d_]{1,3} ?\d{0,3}|\d{1,3}) ?[–-] ?\d{1,3}$")
"""A range heading a column of figures: grades or ages (`9–12`, `PK–8`, `0-4`; not `-12`)."""


def _period(text: str) -> bool:
    """A period or a range label (`_PERIOD`, `_RANGE`)."""
    return bool(_PERIOD.match(text) or _RANGE.match(text))


def _periods_over_figures(row: Sequence[str], below: Sequence[Sequence[str]], cols: list[bool]) -> bool:
    """Period or range labels ("11/12 (a)", "May/2013", "9–12") and words over figure columns,
    no period or range under them in the figures' rows below: a header row, though a period
    reads like a date and a range like a code."""
    cells = [t.strip() for c, t in enumerate(row) if c < len(cols) and cols[c] and t.strip()]
    if not any(_period(t) for t in cells) or \
            any(not _period(t) and any(ch.isdigit() for ch in t) for t in cells):
        return False
    figures = [r for r in below if any(is_number(t) for c, t in enumerate(r) if c < len(cols) and cols[c])]
    # in the labels' own columns: a stub of years beside them holds the body's row keys
    own = {c for c, t in enumerate(row) if c < len(cols) and cols[c] and _period(t.strip())}
    return bool(figures) and not any(_period(t.strip()) for r in figures for c, t in enumerate(r) if c in own)


_OPEN_RANGE = re.compile(r"^[$€£¥]?\s?(\d{1,3}(?:,\d{3})*|\d+)\s?[–-]$")
"""A range's first half, its dash last: the range heads a column over two lines (`$10,000–` /
`14,999`)."""


def _plain(text: str) -> float | None:
    """A whole figure's value, currency sign and thousands commas aside, else None."""
    digits = text.strip().lstrip("$€£¥").strip().replace(",", "")
    return float(digits) if digits.isdigit() else None


def _open_ranges(row: Sequence[str], below: Sequence[str], cols: list[bool]) -> list[int]:
    """The figure columns where `row` breaks a range after its dash (`$10,000–`) and `below`
    closes it with a larger figure (`14,999`); [] unless two or more do, their starts rising
    left to right: heads of bands (incomes, ages), not the body's figures, which never end in
    a dash run of rising starts each closed by the next line."""
    out, starts = [], []
    for c, t in enumerate(row):
        m = _OPEN_RANGE.match(t.strip()) if c < len(cols) and cols[c] else None
        end = _plain(below[c]) if m and c < len(below) else None
        if m and end is not None and end > float(m.group(1).replace(",", "")):
            out.append(c)
            starts.append(float(m.group(1).replace(",", "")))
    return out if len(out) >= 2 and all(a < b for a, b in zip(starts, starts[1:], strict=False)) else []


def split_ranges(row: Sequence[str], below: Sequence[Sequence[str]], above: Sequence[str],
                 cols: list[bool]) -> bool:
    """Whether `row` holds range heads broken after their dash over two lines: the first line
    (`$10,000–` | `$15,000–`, the line under it closing each range, `_open_ranges`) or the
    second (`14,999` | `29,999`, each under the first half of its range)."""
    return bool(below and _open_ranges(row, below[0], cols) or above and _open_ranges(above, row, cols))


def _decimals(text: str) -> int | None:
    """A plain figure's count of decimal places (`1.0`: 1, `1,200`: 0), else None."""
    try:
        float(text.replace(",", ""))
    except ValueError:
        return None
    return len(text.rpartition(".")[2]) if "." in text else 0


def rising_heads(row: Sequence[str], below: Sequence[Sequence[str]], above: Sequence[str],
                  cols: list[bool]) -> bool:
    """Figures rising left to right over every figure column (three or more: `1.0 | 1.1 | ...
    | 1.6`), each written unlike the figures under it (another count of decimals: `1.0` over
    `800`, `1` over `0.3`), the stub's name a word beside them, under a row of group labels
    (fewer labels than figure columns, spanned or not): the header's row of numeric heads, not
    a row of the body, whose figures are written as the others in their columns."""
    figs = [c for c in range(1, len(row)) if c < len(cols) and cols[c]]
    if len(figs) < 3 or not row[0].strip() or is_number(row[0].strip()) or \
            any(_decimals(row[c].strip()) is None for c in figs):
        return False
    values = [float(row[c].strip().replace(",", "")) for c in figs]
    labels = {above[c].strip() for c in figs if c < len(above) and above[c].strip()}
    if not 0 < len(labels) < len(figs) or any(a >= b for a, b in zip(values, values[1:], strict=False)):
        return False
    for c in figs:
        places = [d for r in below[:SAMPLE_ROWS] if c < len(r) and (d := _decimals(r[c].strip())) is not None]
        if not places or max(set(places), key=places.count) == _decimals(row[c].strip()):
            return False
    return True


def _counting(values: Sequence[str]) -> bool:
    """Three or more small whole numbers counting up by one (`1 | 2 | 3`, `7 | 8 | ... | 12`)."""
    if len(values) < 3 or not all(v.isdigit() and len(v) <= 2 for v in values):
        return False
    return all(int(b) == int(a) + 1 for a, b in zip(values, values[1:], strict=False))


def numbered_heads(row: Sequence[str], below: Sequence[Sequence[str]], above: Sequence[str],
                   cols: list[bool]) -> bool:
    """Grades, ages or ranks as column heads under group labels (`Grade` over `PK | K | 1 | 2
    ... | 6`): over the figure columns, small whole numbers counting up by one and words, no
    other figure, under a row of group labels (fewer labels than figure columns); the body's
    rows never count that way in those columns."""
    figs = [c for c in range(1, len(row)) if c < len(cols) and cols[c] and row[c].strip()]
    numbers = [c for c in figs if is_number(row[c].strip())]
    if not _counting([row[c].strip() for c in numbers]):
        return False
    labels = {above[c].strip() for c in range(1, len(cols)) if cols[c] and c < len(above) and above[c].strip()}
    if not 0 < len(labels) < sum(cols[1:]):
        return False
    return not any(_counting([r[c].strip() for c in numbers if c < len(r)]) for r in below[:SAMPLE_ROWS])


def figure_beside(row: Sequence[str], cols: list[bool]) -> bool:
    """A figure outside the figure columns that reads as no head (no year, period, range or
    unit): an amount beside a key (`Project` | `$904,505` | `Quote no.` | `2026-02-01`), a
    form's value. A row of heads names columns; it holds no amount of its own, so a date in it
    over a column of figures is one more value of the row, not a period heading that column."""
    return any(is_number(t) and not (YEAR.match(t) or _period(t) or _UNIT.match(t))
               for c, t in ((c, t.strip()) for c, t in enumerate(row)) if t and not (c < len(cols) and cols[c]))


def heads_over_figures(row: Sequence[str], below: Sequence[Sequence[str]], above: Sequence[str],
                       cols: list[bool]) -> bool:
    """Whether `row` names the figure columns with heads that read like figures, dates or
    codes: periods or ranges (`_periods_over_figures`), ranges broken after their dash
    (`split_ranges`), numeric heads rising under group labels, written unlike the figures
    under them (`rising_heads`), or counting up by one (`numbered_heads`), and no amount
    beside them (`figure_beside`). Such a row is a header row though it reads as data."""
    if figure_beside(row, cols):
        return False
    return _periods_over_figures(row, below, cols) or split_ranges(row, below, above, cols) or \
        rising_heads(row, below, above, cols) or numbered_heads(row, below, above, cols)

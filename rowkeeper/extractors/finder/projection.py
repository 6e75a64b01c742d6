"""Column gaps of a borderless table from the x projection of its words, and the boundaries
whole-column alignment adds inside them (aligned_columns.py): the aligned-text strategy's
columns, as the PyMuPDF layer's explicit vertical lines.

Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`; rows are `round(y1 / 3)`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.aligned_columns import (
    add_separators,
    column_gap,
    column_separators,
    phrase_ends,
    text_lines,
)
from rowkeeper.extractors.finder.stray_marks import ink_core

PICTURE = "\ufffc"
"""Text of a picture's placeholder word (U+FFFC, the object replacement character)."""


def picture_words(boxes: Sequence[Sequence[float]]) -> list[tuple[float, float, float, float, str]]:
    """Images (x0, y0, x1, y1) as placeholder words: a column of pictures under its header
    ("Photo") is ink the projection must see, or the header reads as a header-only column and
    is merged into its neighbour."""
    return [(b[0], b[1], b[2], b[3], PICTURE) for b in boxes]


def projection_gaps(words: Sequence[Any], pictures: Sequence[Any] = ()) -> list[float]:
    """x of the middle of each gap, wider than a word space, in the union of the words' spans
    (and the `picture_words`); a header-only column is merged into its neighbour (a
    left-aligned label over right-aligned numbers projects apart from them)."""
    words = [w for w in words if w[4].strip(".-_·…")]  # dot leaders and rules span columns
    words = [c for w in words if (c := ink_core(w)) is not None]
    if not words:
        return []
    words = [*words, *pictures]
    # Spanning group headers ("Design effect" over six columns) would close every gap below
    # them: the gaps come from the rows holding numbers when there are enough of them.
    # A row counts when most of its phrases (words closer than a word space) are numbers: a
    # title's "Table 21" does not make it one, a long label beside its figures does not stop it.
    per_row: dict[int, list[Any]] = {}
    for w in words:
        per_row.setdefault(round(w[3] / 3), []).append(w)
    numeric_rows = {r for r, row in per_row.items() if mostly_numbers(row)}
    body = [w for w in words if round(w[3] / 3) in numeric_rows or w[4] == PICTURE]
    if len(numeric_rows) >= 3:
        return _merge_header_only(words, _gaps(body))
    over = sorted(r for r in per_row if r not in numeric_rows)
    if len(numeric_rows) == 2 and len(over) >= 2 and over[-1] < min(numeric_rows):
        # two rows of figures under a header of two lines or more (a continuation's rows under
        # the repeated header): its last line sets a label over each column, the lines over it
        # group labels over several ("BLEU" over "EN-VI" | "JA-EN"), whose ink would close the
        # gaps between the columns they span
        return _merge_header_only(words, _gaps([*body, *per_row[over[-1]]]))
    return _merge_header_only(words, _gaps(words))


def aligned_separators(words: Sequence[Any], seps: list[float], pictures: Sequence[Any] = ()) -> list[float]:
    """The projection's gaps and the boundaries whole-column alignment adds inside its columns
    (a long name run up to the figures beside it closes their gap in the projection), less
    header-only columns (a column of `picture_words` is none)."""
    words = [w for w in words if w[4].strip(".-_·…")]  # dot leaders and rules span columns
    if not words:
        return seps
    edges = column_separators(words, column_gap(words))
    seps = join_figure_parts(words, seps, [x for x, _ in edges])
    # no gap at all: a header set wider than its columns (bold, centred, a cell padding
    # apart) closes every one, and the columns are the ones the body's shared edges show
    more = add_separators(seps, edges) if seps else [x for x, _ in edges]
    more = sorted([*more, *headed_edges(words, more, edges)])
    return _merge_header_only([*words, *pictures], more) if len(more) > len(seps) else seps


def _header_lines(lines: Sequence[Sequence[Any]]) -> int:
    """How many of the first lines (three at most) are header lines: those before the first
    line that is mostly numbers and not a line of years over figures that are no years
    ("Standort 2022 2023 2022 2023" under "Stückpreis" and "Kosten")."""
    head = 0
    while head < min(3, len(lines)) and (not mostly_numbers(lines[head]) or _years_over_figures(lines[head:head + 2])):
        head += 1
    return head


def _years_over_figures(lines: Sequence[Sequence[Any]]) -> bool:
    """Whether the first of two lines has figures and all of them are years, and the second
    has a figure that is none (`transforms.heads.years_over_numbers` asks the same of a row)."""
    if len(lines) < 2:
        return False
    years = [str(w[4]) for w in lines[0] if is_figure(str(w[4]))]
    return bool(years) and all(_YEAR.match(y) for y in years) \
        and any(is_figure(str(w[4])) and not _YEAR.match(str(w[4])) for w in lines[1])


_YEAR = re.compile(r"^(?:FY ?)?(19|20|21)\d\d(?:[/-]\d{2,4})?$", re.I)


def headed_edges(words: Sequence[Any], seps: Sequence[float],
                 edges: Sequence[tuple[float, Sequence[Sequence[Any]]]]) -> list[float]:
    """The shared left edges (`edges`) that a header label starts on and where a word (no
    figure) starts in nine body lines in ten, parted from the words before by gaps of
    different widths: a column of names set left-aligned right after a column of labels of
    any length. In a monospaced face a column gap may be no wider than a word space, so no gap
    of the projection shows it when one label runs up to it (a name 4 pt from the next
    column's words, a space being 2.9); its whole column's edge does. The parts of a name
    ("3015 | Fő utca") part by one and the same word space, under no header label of their
    own; right-aligned figures of one width share a left edge too, but are figures."""
    lines = text_lines(words)
    head = _header_lines(lines)
    body = lines[head:]
    if not head or len(body) < 5:
        return []
    out = []
    for x, held in edges:
        if any(not any(w[0] < max(s, x) and w[2] > min(s, x) for w in words) for s in seps):
            continue  # a boundary in the same white stretch is there already
        left = min(w[0] for w in held[0] if w[0] >= x)  # the edge the column's words start on
        labelled = any(abs(w[0] - left) <= 1.5 for ln in lines[:head] for w in ln)
        gaps = [g for ln in body if (g := _gap_at(ln, x)) is not None]
        starts = sum(any(abs(w[0] - left) <= 1.5 and not is_figure(w[4]) for w in ln) for ln in body)
        if labelled and len(gaps) >= 0.9 * len(body) and starts >= 0.9 * len(body) \
                and max(gaps) - min(gaps) > 1.0:
            out.append(x)
    return out


def join_figure_parts(words: Sequence[Any], seps: Sequence[float], edges: Sequence[float]) -> list[float]:
    """`seps` less the gaps inside figures: where every line with words on both sides parts
    two parts of one figure ("65 | 000,6", "74,6 | %", "2020. | 04. | 15.") by one and the
    same word space, and no column's shared edge (`edges`) stands by. Figures of one format
    line their parts up in every row, so the projection sees a gap there; a real column of
    figures shows its edge, or gaps of other widths. A header over the column may stand
    apart (its words are no figures), and a header label over each part, flush with the part's
    right edge, makes them two right-aligned columns (`_headed_parts`). Three lines show it,
    or every line of a block of two (a key-value block's amounts "704 | 532 Ft", a slide's two
    dates "2024. 05. | 08."), or two lines under a header label running across the gap."""
    lines = text_lines(words)
    head = lines[:_header_lines(lines)]
    heights = sorted(w[3] - w[1] for w in words)
    wide = max(column_gap(words), 0.8 * heights[len(heights) // 2])
    out = []
    bounds = [-math.inf, *seps, math.inf]
    for k, x in enumerate(seps):
        gaps: list[float] = []
        both = 0  # lines with words on both sides of x
        ends: list[float] = []  # the right edges of the figures' parts left of x
        firsts: list[float] = []  # where the figures those parts end start
        real, own = False, False  # own: a word in the column left of x that no figure goes on from
        for i, ln in enumerate(lines):
            # only the words between the gaps either side: a figure of the column before
            # ("652 127" | "468 123 Ft", a shorter amount) is no part of this one
            left = [w for w in ln if bounds[k] <= w[0] and w[2] <= x]
            right = [w for w in ln if w[0] >= x and w[2] <= bounds[k + 2]]
            if _across(ln, x, wide if i < len(head) else 0.0):
                continue  # a word or a header label across x (a header over both parts)
            if not left or not right:
                own = own or bool(left)
                continue
            a, b = left[-1], right[0]
            both += 1
            parts = _figure_parts(str(a[4]), str(b[4]))
            own = own or not parts
            if parts and b[0] - a[2] < wide:
                gaps.append(b[0] - a[2])
                ends.append(a[2])
                firsts.append(_figure_start(ln, a, wide))
            elif parts or b[0] - a[2] < wide:
                real = True  # figures a column gap apart, or a label run up to a figure
        # A shared edge near x is a column's, unless every word left of x is the leading group
        # of a figure going on right of it: right-aligned millions ("1" | "715 727") line up
        # their own edge, and a negative amount ("-450 977") starts on it.
        real = real or own and any(abs(x - e) <= wide for e in edges)
        real = real or bool(ends) and _headed_parts(head, ends, x, bounds[k + 2], wide, max(firsts, default=x))
        # a header label across x heads both parts: two lines of them tell it (a short
        # table's millions, "2 | 315 134 Ft" under "Szállítási idő"), as does a block of two
        need = 2 if any(_across(ln, x, wide) for ln in head) else min(3, max(both, 2))
        if real or len(gaps) < need or max(gaps) - min(gaps) > 1.0:
            out.append(x)
    return out


def _across(line: Sequence[Any], x: float, wide: float) -> bool:
    """Whether a word of `line` runs across `x`, or a label of words of letters closer than
    `wide` does: a header label over a right-aligned column of grouped figures, set in a
    monospaced face ("Szállítási idő" over "296 986"), may have its word space right over the
    figures' group space; it heads both parts as one word across them would."""
    if any(w[0] < x < w[2] for w in line):
        return True
    left, right = [w for w in line if w[2] <= x], [w for w in line if w[0] >= x]
    return bool(left and right) and right[0][0] - left[-1][2] < wide \
        and not is_figure(str(left[-1][4])) and not is_figure(str(right[0][4]))


def _headed_parts(head: Sequence[Sequence[Any]], ends: Sequence[float], x: float, hi: float,
                  wide: float, lo: float, tol: float = 1.5) -> bool:
    """Whether a header line sets a label over each side of `x`: one phrase ending flush with
    the figures' parts left of it (their right edges `ends`, all one), the next starting right
    of `x` before `hi`. Right-aligned columns of grouped figures set a word space apart in a
    monospaced face ("574 872 807 851" under "Mennyiség (db)" and "Tömeg (kg)") part like the
    groups of one figure; a label over the column ends at the whole figure's end. Labels set
    a space apart too ("Keret Költség" over "7 323 802 705") read as one phrase: the one ending
    flush is a label of its own where it lies over the figures left of `x`, from `lo` (where
    the narrowest of them starts), and the word before it ends short of them ("Szállítási idő"
    over "296 986" runs left past its figures: one label)."""
    if max(ends) - min(ends) > tol:
        return False
    for ln in head:
        starts, stops = phrase_ends(ln, wide)
        for i in range(len(ln) - 1):
            if abs(ln[i][2] - ends[0]) > tol or not x <= ln[i + 1][0] < hi:
                continue
            if i in stops and i + 1 in starts or ln[i][0] >= lo - tol and not is_figure(str(ln[i][4])) \
                    and (i == 0 or ln[i - 1][2] < lo - tol):
                return True
    return False


def _figure_start(line: Sequence[Any], last: Any, wide: float) -> float:
    """Where the figure whose last part is `last` starts in `line`: its groups of thousands
    closer than `wide`, back to a leading group (one or two digits) or a word that is none."""
    k = next(i for i, w in enumerate(line) if w is last)
    while k > 0 and len(str(line[k][4])) >= 3 and _LEADING_GROUP.fullmatch(str(line[k - 1][4])) \
            and line[k][0] - line[k - 1][2] < wide:
        k -= 1
    return float(line[k][0])


def join_unheaded(words: Sequence[Any], seps: Sequence[float]) -> list[float]:
    """`seps` less the boundaries inside a headed column's cells: where no header label heads
    the column right of the boundary (`_headed_columns`) and every body line parts its words
    there by one and the same word space, at most a character wide. A code before a name
    ("2475 広島倉庫", "3015 Fő utca raktár") under one header lines its names up as a column
    would, and in a monospaced face a word space is as wide as the narrowest column gap; a
    column of its own has a header, or gaps of other widths. A table with no header row keeps
    its boundaries. A label set right over the figures of the next column ("Anteil [%]") may
    start left of the boundary and heads that column, not the name's."""
    lines = text_lines(words)
    head = _header_lines(lines)
    body = lines[head:]
    if not head or len(body) < 3:
        return list(seps)
    widths = sorted((w[2] - w[0]) / max(len(str(w[4])), 1) for ln in body for w in ln)
    char = 1.2 * widths[len(widths) // 2]
    heads = _headed_columns(lines[:head], body, seps, column_gap(words))
    out = []
    for k, x in enumerate(seps):
        headed = k + 1 in heads
        gaps = [_gap_at(ln, x) for ln in body]
        if headed or None in gaps or max(gaps) - min(gaps) > 1.0 or max(gaps) > char:  # type: ignore[operator]
            out.append(x)
    return out


def _headed_columns(head: Sequence[Sequence[Any]], body: Sequence[Sequence[Any]], seps: Sequence[float],
                    min_gap: float) -> set[int]:
    """Indexes of the columns between `seps` that a label phrase of the `head` lines heads:
    the one it lies in, or, over a boundary, the one it ends in unless it starts where the
    body's words of its first column start (left-aligned over that column); and each column
    where one of its words starts where the body's words start (labels set a word space apart)."""
    bounds = [-math.inf, *seps, math.inf]

    def column(x: float) -> int:
        return next(j for j in range(len(bounds) - 1) if bounds[j] <= x < bounds[j + 1])

    lefts: dict[int, float] = {}
    for w in (w for ln in body for w in ln):
        lefts[column(w[0])] = min(lefts.get(column(w[0]), math.inf), w[0])

    def aligned(x: float) -> bool:
        return abs(x - lefts.get(column(x), math.inf)) <= 1.5

    out = set()
    for ln in head:
        if _one_string(ln, seps):
            continue
        starts, ends = phrase_ends(ln, min_gap)
        for a, b in zip(sorted(starts), sorted(ends), strict=True):
            first, last = column(ln[a][0]), column(ln[b][2])
            out.add(first if aligned(ln[a][0]) else last)
            out |= {column(w[0]) for w in ln[a:b + 1] if aligned(w[0])}
    return out


def _one_string(line: Sequence[Any], seps: Sequence[float], tol: float = 0.5) -> bool:
    """Whether a line over the body is one string run across two boundaries or more: four
    words or more, every two parted by one and the same space, no wider than a character (a
    caption or a heading in the table's monospaced face, "1. táblázat. Szállítói áttekintés",
    whose spaces are as wide as a column gap). Labels set over their columns stand apart by
    gaps of their own widths."""
    if len(line) < 4:
        return False
    gaps = [b[0] - a[2] for a, b in zip(line, line[1:], strict=False)]
    char = sorted((w[2] - w[0]) / max(len(str(w[4])), 1) for w in line)[len(line) // 2]
    across = sum(line[0][0] < x < line[-1][2] for x in seps)
    return across >= 2 and max(gaps) - min(gaps) <= tol and max(gaps) <= 1.2 * char


def _gap_at(line: Sequence[Any], x: float) -> float | None:
    """The gap between the words of `line` either side of `x`; None when a side is empty or a
    word runs across `x`."""
    left, right = [w for w in line if w[2] <= x], [w for w in line if w[0] >= x]
    if not left or not right or len(left) + len(right) < len(line):
        return None
    return right[0][0] - left[-1][2]


def _figure_parts(left: str, right: str) -> bool:
    """Whether two words a word space apart are parts of one figure: a leading group of
    thousands and the rest ("65" "000,6", "1" "200"), a figure and its unit ("74,6" "%",
    "9 000" "Ft"), or the parts of a date ("2020." "04."). Two whole figures ("36.509,84"
    "76.921,19") are none."""
    if not any(ch.isdigit() for ch in left):
        return False
    if not any(ch.isdigit() for ch in right):
        return 0 < len(right) <= 3 and all(ch.isdigit() or ch in ".,-'%" for ch in left)
    return bool(_LEADING_GROUP.fullmatch(left) and _GROUP_ON.fullmatch(right)
                or _DATE_PART.fullmatch(left) and _DATE_PART.fullmatch(right))


_LEADING_GROUP = re.compile(r"[-+(]?\d{1,3}")
_GROUP_ON = re.compile(r"\d{3}(?:[.,]\d+)?\)?")
_DATE_PART = re.compile(r"\d{1,4}\.")


def _merge_header_only(words: Sequence[Any], seps: list[float]) -> list[float]:
    top_rows = sorted({round(w[3] / 3) for w in words})[:2]
    while True:
        bounds = [-1e9, *seps, 1e9]
        cols = [{round(w[3] / 3) for w in words if bounds[i] <= (w[0] + w[2]) / 2 < bounds[i + 1]}
                for i in range(len(bounds) - 1)]
        for i, rows in enumerate(cols):
            if rows and rows <= set(top_rows):
                near = [j for j in (i + 1, i - 1) if 0 <= j < len(cols) and cols[j] and not rows & cols[j]]
                if near:
                    j = near[0]  # the column to the right first: labels sit left over numbers
                    del seps[min(i, j)]
                    break
        else:
            return seps


def _gaps(words: Sequence[Any]) -> list[float]:
    min_gap = column_gap(words)
    # A gap also opens where one row in ten crosses it with a figure or a heading: a bold total
    # row set wider, a long figure run into the next column, a heading over two columns (the
    # first three rows) do not fuse two columns of a long table. Other words cross no gap: a
    # long label is where its column ends. Such a gap only adds a column where the clear gaps
    # found none: a sparse column (dashes, a few figures) is not swallowed by its neighbours'.
    rows = [round(w[3] / 3) for w in words]
    heads = set(sorted(set(rows))[:3])
    figure = [r in heads or is_figure(w[4]) for w, r in zip(words, rows, strict=True)]
    clear = _open_stretches(words, rows, figure, heads, 0, min_gap)
    seps = [(a + b) / 2 for a, b in clear]
    for a, b in _open_stretches(words, rows, figure, heads, len(set(rows)) // 10, min_gap):
        if not any(a <= x <= b for x in seps):
            seps.append((a + b) / 2)
    return sorted(seps)


def _open_stretches(words: Sequence[Any], rows: Sequence[int], figure: Sequence[bool], heads: set[int],
                    allowed: int, min_gap: float) -> list[tuple[float, float]]:
    """Stretches of x, at least `min_gap` wide and between inked ones, where at most `allowed`
    rows have ink and only with figures or headings (a sweep counting the rows and the other
    words at x). A stretch that body rows cross must also start and end at figures: between the
    ragged ends of labels ("... end of 2007" | "(Euro)") there is no column of figures."""
    marks = sorted([(w[0], 1, r, f) for w, r, f in zip(words, rows, figure, strict=True)]
                   + [(w[2], -1, r, f) for w, r, f in zip(words, rows, figure, strict=True)],
                   key=lambda m: (m[0], m[1]))
    ink: dict[int, int] = {}
    out: list[tuple[float, float]] = []
    rows_in, body_in, words_in, open_from, crossed = 0, 0, 0, None, False
    for x, step, r, f in marks:
        was_open = rows_in <= allowed and words_in == 0
        ink[r] = ink.get(r, 0) + step
        change = (step == 1 and ink[r] == 1) - (step == -1 and ink[r] == 0)
        rows_in += change
        body_in += 0 if r in heads else change
        words_in += 0 if f else step
        now_open = rows_in <= allowed and words_in == 0
        if now_open and not was_open:
            open_from = x if f or not body_in else None
            crossed = body_in > 0
        elif now_open:
            crossed = crossed or body_in > 0
        elif was_open and open_from is not None:
            if x - open_from >= min_gap and (f or not crossed):
                out.append((open_from, x))
            open_from = None
    return out


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

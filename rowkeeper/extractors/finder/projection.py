"""Column gaps of a borderless table from the x projection of its words, and the boundaries
whole-column alignment adds inside them (aligned_columns.py): the aligned-text strategy's
columns, as the PyMuPDF layer's explicit vertical lines.

Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`; rows are `round(y1 / 3)`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Any

from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.finder.aligned_columns import (
    add_separators,
    column_gap,
    column_separators,
    is_unit,
    phrase_ends,
    text_lines,
)
from rowkeeper.extractors.finder.figure_parts import join_figure_parts
from rowkeeper.extractors.finder.figure_words import header_line_count, is_figure, mostly_numbers
from rowkeeper.extractors.finder.stray_marks import ink_core
from rowkeeper.glyphs import is_cjk
from rowkeeper.label_text import period_label

COLUMN_ROWS = 3
"""Rows whose words start at one x that make it a column's left edge (a header and two records)."""
ALIGN_TOL = 1.5
"""Points within which words start at one edge."""
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
    # a picture or a tick box is no phrase of words: a record's thumbnail does not make its
    # row one of labels (or the rows left are few, and word spaces they share open columns)
    numeric_rows = {r for r, row in per_row.items()
                    if (inked := [w for w in row if w[4] != PICTURE]) and mostly_numbers(inked)}
    body = [w for w in words if round(w[3] / 3) in numeric_rows or w[4] == PICTURE]
    if len(numeric_rows) >= 3:
        heads = set(sorted(per_row)[:3])
        below = [w for w in words if round(w[3] / 3) not in heads]
        seps = _off_words(below, body, _gaps(body, heads=heads))
        # the rows of figures start right of the first column (a record's key over its wrapped
        # description, the figures on its last line; a key merged down over its rows, printed
        # beside one of them): the columns left of them come from all lines, where a key's
        # number crossing a word space of another key ("Millbrook office 1890" under "North
        # Ridge store 7877") opens no column unless one starts there
        left = min(w[0] for w in body)
        if any(w[2] < left for w in words):
            seps = sorted({*seps, *(x for x in _gaps(words, keys=True) if x < left)})
        return _merge_header_only(words, seps)
    over = sorted(r for r in per_row if r not in numeric_rows)
    if len(numeric_rows) == 2 and len(over) >= 2 and over[-1] < min(numeric_rows):
        # two rows of figures under a header of two lines or more (a continuation's rows under
        # the repeated header): its last line sets a label over each column, the lines over it
        # group labels over several ("BLEU" over "EN-VI" | "JA-EN"), whose ink would close the
        # gaps between the columns they span
        return _merge_header_only(words, _gaps([*body, *per_row[over[-1]]]))
    return _merge_header_only(words, _gaps(words))


def _off_words(words: Sequence[Any], body: Sequence[Any], seps: list[float]) -> list[float]:
    """Each of the body's gaps moved off a word of a line outside the body that it would cut,
    to the middle of the widest part of the body's clear stretch that none of `words` inks (a
    key set on its own line, its number run up to the next column: "Északi telep raktár 8291"
    over the figures of its rows). `words`: the lines under the header (a header label may
    overhang its column; where it sits is `_merge_header_only`'s and the header fold's)."""
    out = []
    for x in seps:
        if not any(w[0] < x < w[2] for w in words):
            out.append(x)
            continue
        lo = max((w[2] for w in body if w[2] <= x), default=x)
        hi = min((w[0] for w in body if w[0] >= x), default=x)
        y = _clear_middle(words, lo, hi) if hi > lo else x
        out.append(y if not any(w[0] < y < w[2] for w in words) else x)
    return out


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
    head = header_line_count(lines)
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


def join_unheaded(words: Sequence[Any], seps: Sequence[float]) -> list[float]:
    """`seps` less the boundaries inside a headed column's cells: where no header label heads
    the column right of the boundary (`_headed_columns`) and every body line parts its words
    there by one and the same word space, at most a character wide. A code before a name
    ("2475 広島倉庫", "3015 Fő utca raktár") under one header lines its names up as a column
    would, and in a monospaced face a word space is as wide as the narrowest column gap; a
    column of its own has a header, or gaps of other widths. A table with no header row keeps
    its boundaries. Only the lines with words in the column right of the boundary count: the
    longest name's code after it ("Nyugati kapu raktár 575" over "Öböl egység 6169") may stand
    alone past the shorter names' codes. A label set right over the figures of the next column ("Anteil [%]") may
    start left of the boundary and heads that column, not the name's. Two body lines are
    enough (a short table under prose, "広島工場 6732" over "長野倉庫 1808"): the header names
    every column of its own. A line over the header that reads as a caption ("Tabelle 1:
    Wartungsplan") names no column, however few boundaries it runs over, and a table under its
    caption alone has no header row."""
    lines = text_lines(words)
    head = min(header_line_count(lines), _over_figures(lines))
    body = lines[head:]
    labels = [ln for ln in lines[:head] if not is_caption(" ".join(str(w[4]) for w in ln))]
    if not labels or len(body) < 2:
        return list(seps)
    widths = sorted((w[2] - w[0]) / max(len(str(w[4])), 1) for ln in body for w in ln)
    char = 1.2 * widths[len(widths) // 2]
    heads = _headed_columns(labels, body, seps, column_gap(words))
    out = []
    for k, x in enumerate(seps):
        headed = k + 1 in heads
        nxt = seps[k + 1] if k + 1 < len(seps) else math.inf
        # the lines with words in the column right of x (a long name's code alone there: the
        # shorter names' lines leave it empty)
        held = [ln for ln in body if any(x <= w[0] < nxt for w in ln) or any(w[0] < x < w[2] for w in ln)]
        gaps = [_gap_at(ln, x) for ln in held]
        if headed or not gaps or None in gaps or max(gaps) - min(gaps) > 1.0 or max(gaps) > char:  # type: ignore[operator]
            out.append(x)
    return out


def _over_figures(lines: Sequence[Sequence[Any]]) -> int:
    """How many lines the header may hold: those down to the last that reaches over the
    columns of figures (where the figures of the lines of mostly numbers start) above the first
    line with a figure there. A record's key line above its figures' line ("6088 金沢倉庫" and
    its description's first line, "Riverside store 243" beside its first row) stops short of
    them or comes after that line (a unit, "[m3]", or a period, "2024", is a label's). The
    figures start where the run of figures that ends such a line starts (a number inside a
    description, "within 5 days", is none). No such line: no bound."""
    figures = [x for ln in lines if mostly_numbers(ln) and (x := _figures_from(ln)) is not None]
    if not figures:
        return len(lines)
    start = min(figures)

    def value(t: str) -> bool:
        return is_figure(t) and not is_unit(t) and not period_label(t)

    first = next((i for i, ln in enumerate(lines) if any(w[0] >= start and value(str(w[4])) for w in ln)),
                 len(lines))
    over = [i for i in range(first) if any(w[2] > start for w in lines[i])]
    return max(over) + 1 if over else len(lines)


def _figures_from(line: Sequence[Any]) -> float | None:
    """x where the run of figures that ends `line` starts (a currency sign or `%` set after the
    last amount, `7.130.696 €`, ends it too); None when its last word is no figure."""
    x = None
    ws = sorted(line, key=lambda w: -w[0])
    while ws and len(ws) > 1 and _sign(str(ws[0][4])):
        ws = ws[1:]
    for w in ws:
        if not is_figure(str(w[4])):
            break
        x = w[0]
    return x


def _sign(text: str) -> bool:
    """Whether a word is a currency sign or a percent sign alone (`€`, `¥`, `%`)."""
    return bool(text) and all(unicodedata.category(ch) == "Sc" or ch == "%" for ch in text)


def _headed_columns(head: Sequence[Sequence[Any]], body: Sequence[Sequence[Any]], seps: Sequence[float],
                    min_gap: float) -> set[int]:
    """Indexes of the columns between `seps` that a label phrase of the `head` lines heads:
    the one it lies in, or, over a boundary, the one it ends in unless it starts where the
    body's words of its first column start (left-aligned over that column); each column
    where one of its words starts where the body's words start (labels set a word space apart);
    and each column a word of kana or Han covers by two glyphs or more (two labels read as one
    word where no space parts them: "費用数量(" over two columns)."""
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
        out |= {j for w in ln for j in _cjk_covered(w, bounds)}
    return out


def _cjk_covered(word: Sequence[Any], bounds: Sequence[float]) -> set[int]:
    """The columns (between `bounds`) a word of kana or Han crossing a boundary covers by two
    glyphs or more."""
    text = str(word[4])
    if not any(is_cjk(ch) for ch in text) or not any(word[0] < x < word[2] for x in bounds):
        return set()
    glyph = (word[2] - word[0]) / max(len(text), 1)
    return {j for j in range(len(bounds) - 1)
            if min(word[2], bounds[j + 1]) - max(word[0], bounds[j]) >= 2 * glyph - 0.5}


def _one_string(line: Sequence[Any], seps: Sequence[float], tol: float = 0.5) -> bool:
    """Whether a line over the body is one string run across two boundaries or more: three
    words or more, every two parted by one and the same space, no wider than a character (a
    caption or a heading in the table's monospaced face, "1. táblázat. Szállítói áttekintés",
    "Tabelle 1 Lieferantenübersicht", whose spaces are as wide as a column gap). Labels set
    over their columns stand apart by gaps of their own widths."""
    if len(line) < 3:
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


def _gaps(words: Sequence[Any], heads: set[int] | None = None, keys: bool = False) -> list[float]:
    """Middles of the open stretches of `words`' x projection. `heads`: the rows that may be
    header lines, the table's first three (`round(y1 / 3)`), else the first three of `words`;
    the rows of figures alone (`projection_gaps`' body) name the table's own, since with its
    header lines left out their first rows are records like the others. `keys`: the words are
    read for the key columns left of the figures, where a figure crossing a stretch is a key's
    last word run up to the next column (the longest key, a word space from its description)
    only where a column starts at the stretch's end: words of `COLUMN_ROWS` rows left-aligned
    there; else it is a key's inner word and the stretch a word space of other keys."""
    min_gap = column_gap(words)
    # A gap also opens where one row in ten crosses it with a figure or a heading: a bold total
    # row set wider, a long figure run into the next column, a heading over two columns (the
    # first three rows) do not fuse two columns of a long table. Other words cross no gap: a
    # long label is where its column ends (a record's name run left past the others of its
    # column, a shorter code before it, crosses the word space after their codes: no column;
    # the first three rows are the table's, not its first three rows of figures).
    # Such a gap only adds a column where the clear gaps found none: a sparse column (dashes, a
    # few figures) is not swallowed by its neighbours'.
    rows = [round(w[3] / 3) for w in words]
    heads = set(sorted(set(rows))[:3]) if heads is None else heads
    figure = [r in heads or is_figure(w[4]) for w, r in zip(words, rows, strict=True)]
    clear = _open_stretches(words, rows, figure, heads, 0, min_gap)
    seps = [(a + b) / 2 for a, b in clear]
    for a, b in _open_stretches(words, rows, figure, heads, len(set(rows)) // 10, min_gap):
        if any(a <= x <= b for x in seps):
            continue
        if not keys:
            seps.append((a + b) / 2)
        elif _rows_starting(words, rows, b) >= COLUMN_ROWS:
            seps.append(_clear_middle(words, a, b))
    return sorted(seps)


def _rows_starting(words: Sequence[Any], rows: Sequence[int], x: float) -> int:
    """How many rows have a word starting at `x` (a left-aligned column's edge)."""
    return len({r for w, r in zip(words, rows, strict=True) if abs(w[0] - x) <= ALIGN_TOL})


def _clear_middle(words: Sequence[Any], a: float, b: float) -> float:
    """The middle of the widest part of (a, b) that no word inks, else of (a, b): the gap after
    a key's number that runs up to the next column, not the number's middle."""
    free, at = (0.0, (a + b) / 2), a
    for w in sorted(w for w in words if w[2] > a and w[0] < b):
        if w[0] - at > free[0]:
            free = (w[0] - at, (at + w[0]) / 2)
        at = max(at, w[2])
    return (at + b) / 2 if b - at > free[0] else free[1]


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

"""Column boundaries of a borderless table from the alignment of whole columns.

A column shows itself by an edge its cells share over many rows: a left edge (text), a right
edge (figures) or a decimal point. A boundary taken from one gap between two cells is lost
where one cell runs up to its neighbour (a long name beside a number); taken from a shared
edge, it is the x that clears the gap in the most rows of that column, next to the edge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.row_rules import text_lines as grouped_lines
from rowkeeper.glyphs import char_cells

Word = Sequence[Any]  # (x0, y0, x1, y1, text, ...)
Anchor = tuple[str, float]  # ("left" | "right" | "decimal", x)

_DECIMAL = ".,"


def column_gap(words: Sequence[Word]) -> float:
    """The narrowest gap that parts two columns: a word space is ~0.3 em and a character ~0.5
    em (one full character in monospace reports, whose columns may be one space apart), so
    0.75 of a median character, and no less than a fifth of the median height. A full-width
    (CJK) glyph counts as `glyphs.WIDE_CELLS` characters: CJK sets no word space, and a
    key and its value printed 0.55 em apart are two columns."""
    heights = sorted(w[3] - w[1] for w in words)
    widths = sorted((w[2] - w[0]) / max(char_cells(str(w[4])), 1) for w in words)
    return max(0.75 * widths[len(widths) // 2], 0.2 * heights[len(heights) // 2], 1.5)


def text_lines(words: Sequence[Word]) -> list[list[Word]]:
    """Words grouped into lines (row_rules' rule: vertical centres within half a word height),
    each left to right."""
    return [sorted(ln, key=lambda w: w[0]) for ln in grouped_lines(words)]


def phrase_ends(line: Sequence[Word], min_gap: float) -> tuple[set[int], set[int]]:
    """Indexes of the words that start and that end a phrase (words closer than `min_gap`)."""
    starts, ends = {0}, {len(line) - 1}
    for i in range(1, len(line)):
        if line[i][0] - line[i - 1][2] >= min_gap or after_fraction(line[i - 1], line[i]):
            starts.add(i)
            ends.add(i - 1)
    return starts, ends


_FRACTION = re.compile(r"^[-−+(]?\d{1,3}(?:[.,\u00a0 ]\d{3})*[.,]\d{1,2}\)?%?$")
_FIGURE = re.compile(r"^[-−+(]?\d[\d.,]*\)?%?$")


def after_fraction(prev: Word, word: Word) -> bool:
    """Whether `word` is a figure of its own after `prev`, a figure that ends in a decimal
    fraction (`55.881,5` `730.206`): no group of digits goes on after a number's fraction, so
    the two are two values however narrow the space between them (two right-aligned columns
    of figures a word space apart)."""
    return bool(_FRACTION.match(str(prev[4]))) and bool(_FIGURE.match(str(word[4])))


def decimal_x(word: Word) -> float | None:
    """x of a figure's decimal mark, estimated from its place in the word; None without one."""
    text = str(word[4])
    digits = sum(ch.isdigit() for ch in text)
    at = max(text.rfind("."), text.rfind(","))
    if at <= 0 or digits < 2 or digits < sum(ch.isalpha() for ch in text) or not text[at - 1].isdigit():
        return None
    return word[0] + (word[2] - word[0]) * at / len(text)


def _edges(line: Sequence[Word], kind: str) -> list[tuple[float, int]]:
    """(x, word index) of one kind of edge of every word of a line."""
    if kind == "left":
        return [(w[0], i) for i, w in enumerate(line)]
    if kind == "right":
        return [(w[2], i) for i, w in enumerate(line)]
    return [(x, i) for i, w in enumerate(line) if (x := decimal_x(w)) is not None]


def anchors(lines: Sequence[Sequence[Word]], min_gap: float, tol: float = 1.5,
            share: float = 0.5) -> list[tuple[Anchor, dict[int, int]]]:
    """Edges shared by at least `share` of the lines (and three): each with the word that
    holds it in each line. An edge counts only where, in most of its lines, a gap of a column
    (not a word space) or the line's end lies on its open side: the second words of "Mr. Smith"
    / "Mr. Jones" share a left edge but no column starts there."""
    need = max(3, math.ceil(share * len(lines)))
    out: list[tuple[Anchor, dict[int, int]]] = []
    ends: dict[int, tuple[set[int], set[int]]] = {}  # each line's phrase ends, read once
    for kind in ("left", "right", "decimal"):
        marks = sorted((x, r, i) for r, ln in enumerate(lines) for x, i in _edges(ln, kind))
        k = 0
        while k < len(marks):
            # the marks within `tol` of this one: a run of the sorted marks (none further on)
            j = k + 1
            while j < len(marks) and marks[j][0] - marks[k][0] <= tol:
                j += 1
            group = marks[k:j]
            held: dict[int, int] = {}
            for _, r, i in group:
                held.setdefault(r, i)
            if len(held) >= need and _open_side(lines, kind, held, min_gap, ends) >= 2 / 3 * len(held):
                out.append(((kind, sum(m[0] for m in group) / len(group)), held))
                k += len(group)
            else:
                k += 1
    return out


def _open_side(lines: Sequence[Sequence[Word]], kind: str, held: dict[int, int], min_gap: float,
               read: dict[int, tuple[set[int], set[int]]]) -> int:
    """How many of the held words stand at a phrase's start (left) or end (right, decimal);
    `read` keeps each line's `phrase_ends` for the next group (same lines, same `min_gap`)."""
    n = 0
    for r, i in held.items():
        if r not in read:
            read[r] = phrase_ends(lines[r], min_gap)
        starts, ends = read[r]
        n += i in (starts if kind == "left" else ends)
    return n


def left_boundary(lines: Sequence[Sequence[Word]], kind: str, held: dict[int, int],
                  min_gap: float) -> float | None:
    """The x left of an anchored column that clears the gap before its cell in the most rows,
    as close to the cells as that allows (a long label on the left runs up to the column, a
    figure seldom leaves it); None when fewer than two rows, or under half of them, agree."""
    spans, apart = [], 0
    for r, i in held.items():
        line = lines[r]
        first = i if kind == "left" else _phrase_start(line, i, min_gap)
        if first > 0 and line[first][0] > line[first - 1][2]:
            spans.append((line[first - 1][2], line[first][0]))
            apart += after_fraction(line[first - 1], line[first])
    best = _deepest(spans)
    need = max(2, 0.5 * len(held))
    # most rows part the cell from its left neighbour by a gap of an em or so: after a word
    # space in all of them ("Row 1", "仙台センター 8638", a CJK font's space being wider than
    # its figures' column gap) the edge is inside one column
    heights = sorted(ln[i][3] - ln[i][1] for ln, i in ((lines[r], i) for r, i in held.items()))
    wide = max(min_gap, 0.8 * heights[len(heights) // 2])
    # (or a word space after a figure's fraction: two values, `after_fraction`)
    if best is None or best[2] < need or sum(hi - lo >= wide for lo, hi in spans) + apart < need:
        return None
    lo, hi, _ = best
    return hi - 1.0 if hi - lo > 2.0 else (lo + hi) / 2


def _figure(text: str) -> bool:
    return sum(ch.isdigit() for ch in text) >= max(1, sum(ch.isalpha() for ch in text))


_UNIT = re.compile(r"[(\[][^\W\d_][^\s()\[\]]*[)\]]")


def is_unit(text: str) -> bool:
    """A unit in brackets that opens with a letter ("[m3]", "(kg/m2)", "(m²)"): a header
    label's last word, however many digits it holds; "(2024)" and "(12.5)" are figures."""
    return bool(_UNIT.fullmatch(text))


def _words_of_letters(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) > sum(ch.isdigit() for ch in text)


def _phrase_start(line: Sequence[Word], i: int, min_gap: float) -> int:
    """Index of the first word of the cell ending with word i: the words before it closer than
    a column gap ("1 200 000 Ft", "EUR 1.200"), not a label run up to the figure."""
    first, figure = i, _figure(str(line[i][4]))
    while first > 0 and line[first][0] - line[first - 1][2] < min_gap \
            and not after_fraction(line[first - 1], line[first]):
        prev = str(line[first - 1][4])
        if figure and _words_of_letters(prev):
            break
        first -= 1
        figure = figure or _figure(prev)
    return first


def _deepest(spans: Sequence[tuple[float, float]]) -> tuple[float, float, int] | None:
    """(lo, hi, depth) of the rightmost stretch of x inside the most spans."""
    marks = sorted([(lo, 1) for lo, _ in spans] + [(hi, -1) for _, hi in spans], key=lambda m: (m[0], m[1]))
    depth, best, last = 0, None, -math.inf
    for x, step in marks:
        if depth > 0 and x > last and (best is None or depth >= best[2]):
            best = (last, x, depth)
        depth += step
        last = x
    return best


def column_separators(words: Sequence[Word], min_gap: float) -> list[tuple[float, list[list[Word]]]]:
    """A boundary left of every column that an edge shared over the rows shows, with the lines
    that share the edge."""
    lines = text_lines([w for w in words if str(w[4]).strip()])
    if len(lines) < 3:
        return []
    seps: list[tuple[float, list[list[Word]]]] = []
    for (kind, _), held in anchors(lines, min_gap):
        x = left_boundary(lines, kind, held, min_gap)
        if x is not None and all(abs(x - s) >= min_gap for s, _ in seps):
            seps.append((x, [lines[r] for r in held]))  # a column's edges may all give it
    return sorted(seps, key=lambda s: s[0])


def add_separators(seps: Sequence[float], more: Sequence[tuple[float, Sequence[Sequence[Word]]]]) -> list[float]:
    """`seps` with each boundary of `more` that parts a column of theirs in the rows of its
    own edge: in most of them (and two) a label ends left of it and a figure starts right of
    it, between the kept separators around it. A header over the column alone does not make
    it two, nor do the parts of a label."""
    out = sorted(seps)
    for x, lines in more:
        lo = max((s for s in out if s <= x), default=-math.inf)
        hi = min((s for s in out if s > x), default=math.inf)
        both = sum(_label_then_figure(ln, lo, x, hi) for ln in lines)
        if both >= max(2, 0.5 * len(lines)):
            out = sorted([*out, x])
    return out


def _label_then_figure(line: Sequence[Word], lo: float, x: float, hi: float) -> bool:
    """Whether a line has a word of letters left of `x` (from `lo`) and a figure right after
    it (before `hi`): a label run up to its number. Parts of one label ("20 - 29 | years",
    a numbered range set in tabular figures) are no two columns; a figure after another's
    fraction is one (`after_fraction`)."""
    left = [w for w in line if lo <= _mid(w) < x]
    right = [w for w in line if x <= _mid(w) < hi]
    return bool(left and right) and _figure(str(right[0][4])) and (
        _words_of_letters(str(left[-1][4])) or after_fraction(left[-1], right[0]))


def _mid(w: Word) -> float:
    return (w[0] + w[2]) / 2


def rejoin_phrases(cells: Sequence[Sequence[list[Word]]], min_gap: float,
                   tol: float = 1.5) -> list[list[list[Word]]]:
    """Cell words of a grid (rows of cells of words, left to right), with the words of letters
    at the head of a cell of figures that run on from the phrase on their left moved back to
    it: "... Maschinenbau AG" set a word space before "35,50" puts "AG" past the figures'
    column boundary. A word stays where it starts at its column's shared left edge; words
    before words (two header labels set close) stay where they are."""
    out = [[list(c) for c in row] for row in cells]
    n_cols = max((len(r) for r in out), default=0)
    firsts = [[row[j][0][0] for row in out if j < len(row) and row[j]] for j in range(n_cols)]
    for row in out:
        for j in range(1, len(row)):
            left, cell = row[j - 1], row[j]
            k = next((i for i, w in enumerate(cell) if _figure(str(w[4]))), len(cell))
            if not left or k == 0 or k == len(cell) or not all(_figure(str(w[4])) for w in cell[k:]):
                continue
            if _runs_on(left[-1], cell[0], min_gap) and all(
                    b[0] - a[2] < min_gap for a, b in zip(cell[:k], cell[1:k], strict=False)) and \
                    sum(abs(x - cell[0][0]) <= tol for x in firsts[j]) < 3:
                left.extend(cell[:k])
                del cell[:k]
    return out


def _runs_on(prev: Word, word: Word, min_gap: float) -> bool:
    """Whether `word` continues the phrase ending in `prev`: closer than a column gap, and not
    a figure after letters."""
    if word[0] - prev[2] >= min_gap:
        return False
    return not (_words_of_letters(str(prev[4])) and _figure(str(word[4])))


def whole_phrases(words: Sequence[Word], cuts: Sequence[float], min_gap: float,
                  on_cuts: bool = False) -> dict[int, float]:
    """x to place each word of a phrase of words (no figure among them but a unit in brackets,
    "Thể tích [m3]"; words closer than `min_gap`) that runs across column boundaries `cuts`, by `id` of the word: the middle of
    the phrase's widest part between them. A header label wider than its column ("Biên lợi
    nhuận" over right-aligned percentages) reaches over the gap into its neighbour; placed
    word by word, its first words would join the neighbour's label. Labels set a word space
    apart (a tight header, "Name Lunch order") are two: a word of the phrase starts at a left
    edge that words of letters share over the lines (a column of text; the widest figures of a
    right-aligned column share one too, by chance). `on_cuts`: the cuts stand on the left
    edge their columns' words share (a block of fields' values, `key_value.blocks_apart`), so
    a word starting on one starts a phrase: a block's longest key set a word space before its
    value (`担当者 静岡`, a key column padded to its longest key) is two cells."""
    out: dict[int, float] = {}
    lines = text_lines([w for w in words if str(w[4]).strip()])
    found = anchors(lines, min_gap)
    lefts = [x for (kind, x), held in found if kind == "left"
             and sum(_words_of_letters(str(lines[r][i][4])) for r, i in held.items()) > len(held) / 2]
    # every right edge a column shares, and whether figures hold it (a column of figures)
    rights = [(x, sum(_figure(str(lines[r][i][4])) for r, i in held.items()) > len(held) / 2)
              for (kind, x), held in found if kind == "right"]
    for line in lines:
        starts, _ = phrase_ends(line, min_gap)
        on_left = {i for i, w in enumerate(line) if any(abs(w[0] - x) <= 1.5 for x in lefts)}
        flush = {i: any(figures for _, figures in near) for i in range(1, len(line))
                 if (near := [e for e in rights if abs(line[i - 1][2] - e[0]) <= 1.5])}
        starts = _monospaced_labels(line, starts, on_left, flush, cuts, min_gap) | _spaced_ends(line, rights)
        if on_cuts:
            starts |= {i for i, w in enumerate(line) if any(0 <= w[0] - x <= 1.5 for x in cuts)}
        bounds = [*sorted(starts | set_apart(line, starts)), len(line)]
        for a, b in zip(bounds, bounds[1:], strict=False):
            phrase = line[a:b]
            inner = [x for x in cuts if phrase[0][0] < x < phrase[-1][2]]
            if len(phrase) < 2 or not inner or any(_figure(str(w[4])) and not is_unit(str(w[4])) for w in phrase) or \
                    on_left & set(range(a + 1, b)):
                continue
            edges = [phrase[0][0], *inner, phrase[-1][2]]
            # a phrase starting on a left edge words of letters share is that column's text
            k = 0 if a in on_left else max(range(len(edges) - 1), key=lambda i: edges[i + 1] - edges[i])
            out.update({id(w): (edges[k] + edges[k + 1]) / 2 for w in phrase})
    return out


def _spaced_ends(line: Sequence[Word], rights: Sequence[tuple[float, bool]], tol: float = 0.5) -> set[int]:
    """Indexes of the words after a letter-spaced label that ends on the right edge a column of
    figures shares, the next letter-spaced too: labels spaced out wider than their columns'
    pitch (`E N - V I` right over its figures, `E N - D E` starting a word space after it or
    touching it) part where the figures end (`column_edges` parted the letters there)."""
    return {i for i in range(1, len(line)) if _letter_spaced(line[i - 1]) and _letter_spaced(line[i])
            and any(figures and abs(line[i - 1][2] - x) <= tol for x, figures in rights)}


def _letter_spaced(w: Word) -> bool:
    """A word of three characters or more, each wider than 0.8 of the word's height (letters
    spaced out: set solid a letter is about half as wide, a CJK glyph's cell 0.7)."""
    text = str(w[4])
    return len(text) >= 3 and (w[2] - w[0]) / char_cells(text) > 0.8 * (w[3] - w[1])


def _monospaced_labels(line: Sequence[Word], starts: set[int], on_left: set[int], flush: dict[int, bool],
                       cuts: Sequence[float], min_gap: float) -> set[int]:
    """`starts` of a monospaced line's labels, where a label ends flush with the right edge its
    column shares (`flush`: the words after such a word, True where figures hold the edge).
    A label's words one character cell apart (`one_string`) join, except after a word flush
    with an edge ("Költség Mennyiség", typed one space apart). Where every gap of the line
    under a word's height is one such space, wider than a column gap, and a label ends flush
    over a column of figures (labels set a space apart over right-aligned figures, "Cost Unit
    price [USD] Share [%]"), those spaces part labels only after a label flush over figures,
    before a word starting on a left edge that words of letters share (`on_left`), and where a
    column boundary (`cuts`) runs through the space ("Tartalmaz" over a column of tick boxes,
    no figures' edge to end on, a space before "Egységár (Ft)"). A line whose short gaps are
    not all one width, or narrower than `min_gap` (a proportional face's word spaces, one
    width too), keeps the starts its gaps give it."""
    starts = starts - (one_string(line) - set(flush))
    small = {i: g for i in range(1, len(line))
             if (g := line[i][0] - line[i - 1][2]) <= line[i][3] - line[i][1]}
    over_figures = {i for i, figures in flush.items() if figures}
    char = sorted((w[2] - w[0]) / max(len(str(w[4])), 1) for w in line)[len(line) // 2]
    if len(small) < 2 or any(abs(g - char) > 0.5 for g in small.values()) or min(small.values()) < min_gap \
            or not over_figures & set(small):
        return starts
    return {i for i in starts if i not in small} | over_figures \
        | {i for i in small if i in on_left or any(line[i - 1][2] <= x <= line[i][0] for x in cuts)}


def set_apart(line: Sequence[Word], starts: set[int], tol: float = 0.5) -> set[int]:
    """Indexes of the words of a line that stand closer to the word before them than the
    line's own word space (`_word_space`), or further off: two strings placed apart, as tight
    labels over close columns ("Árrés (%)" "Mennyiség (db)" in a monospaced face, whose space
    is wider than their 4 pt; "Khối lượng" 4 pt before "Thời gian giao (ngày)" in a face whose
    space is 3.1 pt, each right-aligned over its column of figures). One string's spaces are
    equal."""
    gaps, space = _word_space(line)
    if space is None:
        return set()
    return {i for i, g in gaps.items() if i not in starts and (g < space - tol or space + tol < g)}


def one_string(line: Sequence[Word], tol: float = 0.1) -> set[int]:
    """Indexes of the words of a line in a monospaced face (every word as wide as its
    characters times one pitch) that stand one character cell from the word before them: one
    string's words, one label, though its space is as wide as a column gap ("Szállítási idő
    [nap]"). Labels placed apart stand a padding off, a little more or less than a cell
    ("Pontszám" 6 pt after "[Ft]" at a 5.1 pt pitch)."""
    if len(line) < 2:
        return set()
    pitches = [(w[2] - w[0]) / max(len(str(w[4])), 1) for w in line]
    pitch = sorted(pitches)[len(pitches) // 2]
    if any(abs(p - pitch) > tol for p in pitches):
        return set()  # a proportional face: its words are phrases by `min_gap` alone
    return {i for i in range(1, len(line)) if abs(line[i][0] - line[i - 1][2] - pitch) <= tol}


def _word_space(line: Sequence[Word]) -> tuple[dict[int, float], float | None]:
    """The gap before each word of a line (by index) and the line's own word space: its most
    common gap under a word's height, seen twice (None when no gap is)."""
    gaps = {i: line[i][0] - line[i - 1][2] for i in range(1, len(line))}
    counts: dict[float, int] = {}
    for i, g in gaps.items():
        if 0 < g <= line[i][3] - line[i][1]:
            counts[round(g * 4) / 4] = counts.get(round(g * 4) / 4, 0) + 1
    space, seen = max(counts.items(), key=lambda kv: (kv[1], kv[0]), default=(0.0, 0))
    return gaps, (space if seen >= 2 else None)

"""A tagged table's rows across the pages it runs over, read from all its pages' declarations.

A layout repeats rows of a table on every page it runs over and cuts rows at a page break;
both show in the tags as one TR element with glyphs on two pages. A browser prints an HTML
table's TFoot at the foot of each page (the same TR each time, after the rows of later pages):
kept on the table's last page only (`repeated_feet_dropped`). A row taller than what is left
of a page is split, its cells' last lines on the next page under the repeated header: joined
back into the row where it starts (`split_row_joined`). Headers repeated at the top of each
page are the merge's matter (declared header rows on every piece). Pure functions over
`Declaration`s: no PDF handle.
"""

from __future__ import annotations

from dataclasses import replace

import pymupdf

from rowkeeper.extractors.tagged_tables import Declaration, DeclaredCell, DeclaredRow, cell_text
from rowkeeper.extractors.tagged_words import WordBreak

Read = tuple[pymupdf.Matrix, list[Declaration]] | str
"""A page's declarations and the matrix they were read upright through, or why none."""


def across_pages(read: dict[int, Read]) -> dict[int, Read]:
    """Each page's declarations with the repeated footers dropped and the rows a page break
    cut joined back (pages by number; a page read alone keeps its declarations)."""
    later: set[tuple[int | None, tuple[int, int]]] = set()
    out: dict[int, Read] = {}
    for pno in sorted(read, reverse=True):
        here = read[pno]
        if isinstance(here, str):
            out[pno] = here
            continue
        turn, decls = here
        out[pno] = (turn, [repeated_feet_dropped(d, {k for e, k in later if e == d.element}) for d in decls])
        later |= {(d.element, r.key) for d in decls if d.element is not None for r in d.rows}
    pages = sorted(out)
    for pno, nxt in zip(pages, pages[1:], strict=False):
        here, there = out[pno], out[nxt]
        if nxt != pno + 1 or isinstance(here, str) or isinstance(there, str):
            continue
        began = {d.element for d in here[1] if d.element is not None and d.rows}
        there = out[nxt] = (there[0], [replace(a, continued=a.element in began) for a in there[1]])
        joined = [_joined(d, there[1]) for d in here[1]]
        out[pno] = (here[0], [d for d, _ in joined])
        for _, after in joined:
            if after is not None:
                out[nxt] = (there[0], [after if a.element == after.element else a for a in there[1]])
                there = out[nxt]
    return broken_words_shared(out)


def broken_words_shared(read: dict[int, Read]) -> dict[int, Read]:
    """Each declaration with the evidence of words broken in narrow columns that other pages
    give (`tagged_words`): the document's layout keeps the space at its wraps when one of its
    pages shows it (a table's last page may hold no wrapped paragraph), and the edges where the
    same Table element's cells break figures on its other pages (a long table's last page may
    break one cell of a column only)."""
    decls = [d for here in read.values() if not isinstance(here, str) for d in here[1]]
    spaced = any(d.spaced_wraps for d in decls)
    for d in decls:
        d.spaced_wraps = spaced
        d.edges = [(b.x1, b.advance) for e in decls if e is not d and e.element is not None
                   and e.element == d.element for r in e.rows for c in r.cells for b in c.breaks if b.figure]
    return read


def _joined(before: Declaration, decls: list[Declaration]) -> tuple[Declaration, Declaration | None]:
    after = next((a for a in decls if before.element is not None and a.element == before.element), None)
    if after is None:
        return before, None
    return split_row_joined(before, after)


def repeated_feet_dropped(decl: Declaration, later: set[tuple[int, int]]) -> Declaration:
    """The declaration less its trailing rows that are a footer repeated here: rows (by key)
    that show again on a later page of the same Table (`later`), in its TFoot or after a gap
    in its rows' order. A row the page break cuts (its text on both pages) is no repeat: it
    follows the row before it."""
    rows = decl.rows
    n = len(rows)
    while n > 1 and rows[n - 1].key in later:
        n -= 1
    if n == len(rows) or n == 0:
        return decl
    first, before = rows[n], rows[n - 1]
    gap = first.key[0] == before.key[0] and first.key[1] > before.key[1] + 1
    if not (gap or all(r.in_foot for r in rows[n:])):
        return decl
    return replace(decl, rows=rows[:n])


def split_row_joined(before: Declaration, after: Declaration) -> tuple[Declaration, Declaration]:
    """`before` (a Table's rows on one page) with its last row completed by the lines the page
    break sent to the next page, and `after` (the same Table on the next page) without them:
    the first row of `after` past the rows repeated from `before`, all of them header rows,
    that is the same TR as `before`'s last body row."""
    if not before.rows or not after.rows:
        return before, after
    last = before.rows[-1]
    if _heads(last):
        return before, after  # a header alone at a page's foot: repeated on the next, not cut
    seen = {r.key for r in before.rows[:-1]}
    i = next((k for k, r in enumerate(after.rows) if r.key not in seen), None)
    if i is None or after.rows[i].key != last.key or not all(_heads(r) for r in after.rows[:i]):
        return before, after  # (a sheet printed across pages shows its rows on each, other columns)
    rest = after.rows[i]
    return (replace(before, rows=[*before.rows[:-1], _completed(last, rest)]),
            replace(after, rows=[*after.rows[:i], *after.rows[i + 1:]], moved=[*after.moved, *(c.bbox for c in rest.cells)]))


def _cell_completed(a: DeclaredCell, c: DeclaredCell) -> DeclaredCell:
    """Cell `a` with the lines `c` the page break sent on: its text, its lines, and its line
    breaks that may fall inside a word, the break between the pages one of them when a word
    may go on over it (`tagged_words`: the column's room is the page's, where `a` stands)."""
    shift = len(a.line_texts)
    breaks = [*a.breaks, *(replace(b, after=b.after + shift) for b in c.breaks)]
    (end, _), (_, advance) = a.word_edges, c.word_edges
    if shift and end is not None and advance is not None:
        figure = bool(a.text) and bool(c.text) and a.text[-1].isdigit() and c.text[0].isdigit()
        breaks.append(WordBreak(shift - 1, end, advance, max(a.line_ends[:-1], default=float("-inf")), figure))
    return replace(a, text=cell_text([a.text, c.text]), lines=a.lines + c.lines,
                   line_texts=(*a.line_texts, *c.line_texts), line_ends=(*a.line_ends, *c.line_ends),
                   breaks=tuple(breaks), word_edges=(c.word_edges[0], a.word_edges[1]))


def _heads(row: DeclaredRow) -> bool:
    """A header row (in THead, or all TH): what a layout repeats over a continuation."""
    return row.in_head or all(c.header for c in row.cells)


def _completed(row: DeclaredRow, rest: DeclaredRow) -> DeclaredRow:
    """The row with each cell's text on the next page after its own (a cell there alone
    stands in the row at its x)."""
    cells = list(row.cells)
    top = min(c.bbox[1] for c in cells)
    bottom = max(c.bbox[3] for c in cells)
    at = {c.index: k for k, c in enumerate(cells)}
    for c in rest.cells:
        k = at.get(c.index) if c.index >= 0 else None
        if k is None:
            cells.append(replace(c, bbox=(c.bbox[0], top, c.bbox[2], bottom)))
        else:
            cells[k] = _cell_completed(cells[k], c)
    cells.sort(key=lambda c: (c.index, c.bbox[0]))
    return replace(row, cells=cells)

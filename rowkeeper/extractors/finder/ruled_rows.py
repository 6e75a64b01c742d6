"""Rows of a ruled table that its rules leave joined: a label column's cell over several rows
whose lines each sit in one row, and rows of paragraphs parted by a blank line across the row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.extractors.finder.figure_words import mostly_numbers
from rowkeeper.extractors.finder.reads import words_at
from rowkeeper.extractors.finder.word_lines import reading_order


def split_stacked_spans(page: pymupdf.Page, tab: Any, rows: list[list[Any]],
                         texts: list[list[str | None]]) -> tuple[list[list[Any]], list[list[str | None]]]:
    """A ruled cell over three or more rows whose text lines each sit in one of the rows it
    covers (a label column the rules between rows leave open) is one cell per row: the lines
    go to their rows. A merged cell whose text sits in some of its rows only stays merged."""
    tops = [min((c[1] for c in row if c), default=tab.bbox[3]) for row in rows]
    bands = [(0.0, top, 0.0, bottom) for top, bottom in zip(tops, [*tops[1:], tab.bbox[3]], strict=True)]
    for i, row in enumerate(rows):
        for j, c in enumerate(row):
            if c is None:
                continue
            covered = [k for k in range(i, len(bands)) if bands[k][1] >= c[1] - 1 and bands[k][3] <= c[3] + 1]
            if len(covered) < 3 or any(rows[k][j] is not None for k in covered[1:]):
                continue
            lines: dict[int, list[Any]] = {}
            for w in words_at(page, pymupdf.Rect(c)):
                mid = (w[1] + w[3]) / 2
                at = [k for k in covered if bands[k][1] <= mid < bands[k][3]]
                if not at or not bands[at[0]][1] - 1 <= w[1] and w[3] <= bands[at[0]][3] + 1:
                    break  # a line across a row edge: a merged cell's wrapped text
                lines.setdefault(at[0], []).append(w)
            else:
                if set(lines) != set(covered):
                    continue
                for k in covered:
                    rows[k][j] = (c[0], bands[k][1], c[2], bands[k][3])
                    texts[k][j] = " ".join(w[4] for w in reading_order(lines[k]))
    return rows, texts


def split_paragraph_rows(page: pymupdf.Page, rows: list[list[Any]],
                          texts: list[list[str | None]]) -> tuple[list[list[Any]], list[list[str | None]]]:
    """A ruled row whose text falls into blocks parted by a blank line across all its cells
    ("Stationary:" / "Major  Emissions of ...  Utilities, ..." / "Area  ...") is one row per
    block: rules drawn round groups of rows only. Rows with spans, or with text in one cell
    only (a note of two paragraphs), stay whole."""
    out_rows: list[list[Any]] = []
    out_texts: list[list[str | None]] = []
    for row, text in zip(rows, texts, strict=True):
        blocks = _paragraph_blocks(page, row) if all(row) else []
        if len(blocks) < 2:
            out_rows.append(row)
            out_texts.append(text)
            continue
        cuts = [row[0][1], *((a[-1] + b[0]) / 2 for a, b in zip(blocks, blocks[1:], strict=False)), row[0][3]]
        words = words_at(page, pymupdf.Rect(row[0][0], row[0][1], row[-1][2], row[0][3]))
        for top, bottom in zip(cuts, cuts[1:], strict=False):
            out_rows.append([(c[0], top, c[2], bottom) for c in row])
            out_texts.append([_lines_text([w for w in words if c[0] <= (w[0] + w[2]) / 2 < c[2]
                                           and top <= (w[1] + w[3]) / 2 < bottom]) for c in row])
    return out_rows, out_texts


def _lines_text(words: Sequence[Any]) -> str:
    """Words as find_tables' extract() gives a cell: a line per text line ("\n" between, as
    downstream splits rows stacked in one cell by them)."""
    lines: dict[int, list[Any]] = {}
    for w in words:
        lines.setdefault(round(w[3]), []).append(w)
    return "\n".join(" ".join(w[4] for w in sorted(ws, key=lambda w: w[0])) for _, ws in sorted(lines.items()))


def _paragraph_blocks(page: pymupdf.Page, row: Sequence[Any]) -> list[tuple[float, float]]:
    """(top, bottom) of the blocks of text lines in a ruled row, parted where a gap of at
    least half a line's height runs across the row; [] when fewer than two cells hold text or
    a cell stacks lines of figures."""
    if any(abs(c[1] - row[0][1]) > 1 or abs(c[3] - row[0][3]) > 1 for c in row):
        return []
    words = [w for w in words_at(page, pymupdf.Rect(row[0][0], row[0][1], row[-1][2], row[0][3]))
             if row[0][1] <= (w[1] + w[3]) / 2 < row[0][3]]  # not the edge of a neighbour's line
    if sum(any(c[0] <= (w[0] + w[2]) / 2 < c[2] for w in words) for c in row) < 2:
        return []
    for c in row:  # lines of figures stacked in a cell are rows of their own, split downstream
        per_line: dict[int, list[Any]] = {}
        for w in words:
            if c[0] <= (w[0] + w[2]) / 2 < c[2]:
                per_line.setdefault(round(w[3]), []).append(w)
        if sum(mostly_numbers(line) for line in per_line.values()) >= 2:
            return []
    lines = sorted((w[1], w[3]) for w in words)
    height = sorted(b - t for t, b in lines)[len(lines) // 2]
    blocks: list[tuple[float, float]] = []
    for top, bottom in lines:
        if blocks and top - blocks[-1][1] < 0.5 * height:
            blocks[-1] = (blocks[-1][0], max(blocks[-1][1], bottom))
        else:
            blocks.append((top, bottom))
    return _keyed_blocks(blocks, words, row[0])


def _keyed_blocks(blocks: list[tuple[float, float]], words: Sequence[Any],
                  key: Sequence[float]) -> list[tuple[float, float]]:
    """The blocks with each one that has no text in the row's first (key) cell joined to the
    block above: a record starts with its key, and a blank line inside a record's value cells
    (`Total: 39%`, then a list of brands and shares) goes on with that record."""
    out: list[tuple[float, float]] = []
    for top, bottom in blocks:
        keyed = any(key[0] <= (w[0] + w[2]) / 2 < key[2] and top <= (w[1] + w[3]) / 2 <= bottom for w in words)
        if out and not keyed:
            out[-1] = (out[-1][0], bottom)
        else:
            out.append((top, bottom))
    return out

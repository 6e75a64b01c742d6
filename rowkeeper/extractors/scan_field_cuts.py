"""OCR runs cut where a key meets its value: a gap wider than a word space at a column's start
that lines around it attest.

The detector reads a field's key and its value as one run where the gutter between them is
little wider than a word space ("Valid until $788,885", "Người liên hệ 890-1523"); on the lines
around it the same two columns come out as two runs, or as a run with a wide gap at the same x.
Such a line is one run, so no band holds the two runs a table's row needs and the block of fields
is not found. A gap alone says nothing (a heading's word spaces are as wide); a gap whose next
word starts where another line, starting at the run's own x, starts a column is a column edge.
Pure geometry on `OcrBox`es in image pixels.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_runs import ALIGN, row_bands
from rowkeeper.extractors.run_cuts import cut_at_columns

WIDE = 1.5
"""A gap this many times the page's median word space, at least, may be a column's gutter (the
zoo's scans: word spaces 0.21-0.26 line heights, gutters read inside one run 0.42-1.06)."""
REACH = 3.5
"""Line heights (top to top) within which another line may attest a column edge: the rows of
one block of fields."""
SPACE = 0.25
"""Word space in line heights where the page has too few spaced words to measure one."""


def field_cuts(boxes: Sequence[OcrBox], lh: float) -> list[tuple[int, OcrBox]]:
    """`boxes` with each run cut at its attested column edges: (index of the run cut, piece)."""
    wide = WIDE * _word_space(boxes, lh)
    tol = ALIGN * lh
    starts = {id(b): _starts(b, wide) for b in boxes}
    bands = row_bands(boxes)
    out: list[tuple[int, OcrBox]] = []
    at = {id(b): j for j, b in enumerate(boxes)}
    for band in bands:
        top = min(b.box[1] for b in band)
        near = [[x for b in other for x in starts[id(b)]] for other in bands
                if other is not band and abs(min(b.box[1] for b in other) - top) <= REACH * lh]
        for run in band:
            own = starts[id(run)][0]
            cuts = [x for x in _gaps(run, wide) if any(_has(line, x, tol) and _has(line, own, tol) for line in near)]
            pieces = cut_at_columns(run, _spans(run, cuts)) if cuts else [run]
            out += [(at[id(run)], p) for p in pieces]
    return out


def _starts(run: OcrBox, wide: float) -> list[float]:
    """Where `run`'s first word starts, then each word after a gap of at least `wide`."""
    words = run.word_boxes()
    return [words[0].box[0]] + [n.box[0] for p, n in zip(words, words[1:], strict=False) if n.box[0] - p.box[2] >= wide]


def _gaps(run: OcrBox, wide: float) -> list[float]:
    """Where the words after `run`'s column-wide gaps start: a gap of at least `wide`, or one
    wider by a fifth than every other gap of the run (a key and its value set a word space apart
    in a large font, "Contact 2026-04-28"; a line of prose spaces its words evenly)."""
    words = run.word_boxes()
    gaps = [(n.box[0] - p.box[2], n.box[0]) for p, n in zip(words, words[1:], strict=False)]
    return [x for g, x in gaps if g > 0 and (g >= wide or all(g >= 1.2 * h for h, y in gaps if y != x))]


def _has(line: list[float], x: float, tol: float) -> bool:
    return any(abs(s - x) <= tol for s in line)


def _spans(run: OcrBox, cuts: list[float]) -> list[tuple[float, float]]:
    edges = [run.box[0], *(x - 1 for x in cuts), run.box[2]]
    return list(zip(edges, edges[1:], strict=False))


def _word_space(boxes: Sequence[OcrBox], lh: float) -> float:
    """The page's median gap between the words of one run (the prose's word space)."""
    gaps = [n.box[0] - p.box[2] for words in (b.word_boxes() for b in boxes if b.text)
            for p, n in zip(words, words[1:], strict=False)]
    return statistics.median(gaps) if len(gaps) >= 5 else SPACE * lh

"""Column footprints on a scan closed over word spaces: a gap that every row reads inside one
run, no wider than the table's own word spaces, parts no columns.

Footprints come from the words' ink (`ocr_tables.footprints`), merged within a tolerance set
narrow enough for tables set tight. A font set loose leaves word spaces as wide as that, so a
key like "1749 Westgate hub" or a date "2026. 08. 24." parted into columns at the same word
space on every row. The detector says otherwise: it reads a line's words into one run across
word spaces and starts a new run at a column gap. Pure geometry on `OcrBox`es in pixels.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.extractors.ocr_engines import OcrBox

WIDER = 1.15
"""A gap read inside runs stays a column gap when its median width is over this many times the
median of the table's other word spaces: one font's word spaces are even (a key's "1749 |
Westgate hub" 0.46-0.53 line heights beside "Westgate | hub" 0.51), and a narrow gutter the
detector ran across is wider ("¥7,541,141 | 2023年11月28日" 0.51 beside 0.40-0.43)."""
SEPARATE = 1 / 3
"""Rows that read the two sides as runs of their own, per row that reads them in one run, under
which the gap is a word space (the detector now and then parts a line at a word space)."""


def closed_word_spaces(cols: list[tuple[float, float]], bands: Sequence[Sequence[OcrBox]],
                       head: Sequence[OcrBox] = ()) -> list[tuple[float, float]]:
    """`cols` with neighbours merged where the gap between them is a word space: at least two
    rows read words on both sides within one run of `bands` (one, where no run starts on the
    right side), few rows read them as two runs,
    the header (`head`) has no label of its own on each side, and the gap is no wider than the
    runs' other word spaces (`WIDER`). One label over both sides ("Határidő" over the groups of
    "2026. 08. 24.") says nothing either way."""
    if len(cols) < 2:
        return cols
    inside: dict[int, list[float]] = {}
    other: list[float] = []
    for band in bands:
        for run in band:
            words = run.word_boxes() if run.words else []
            for a, b in zip(words, words[1:], strict=False):
                k = _gap_of(cols, a, b)
                (other if k is None else inside.setdefault(k, [])).append(b.box[0] - a.box[2])
    apart = _apart(cols, bands)
    labels = [w.box for b in head if b.text for w in b.word_boxes()]
    vetoed = {k for k in range(len(cols) - 1)
              if any(_over(x, cols[k]) and not _over(x, cols[k + 1]) for x in labels)
              and any(_over(x, cols[k + 1]) and not _over(x, cols[k]) for x in labels)}
    starts = _starts(cols, bands)
    out = [cols[0]]
    for k in range(len(cols) - 1):
        widths = inside.get(k, [])
        # a footprint no run starts in holds only the ends of runs begun left of it (a merged
        # cell's "Outpatient care" printed once in a sparse column): one row says enough
        seen = len(widths) >= 2 or (len(widths) == 1 and not starts.get(k + 1))
        closed = (seen and other and k not in vetoed and apart.get(k, 0) < SEPARATE * len(widths)
                  and statistics.median(widths) <= WIDER * statistics.median(other))
        if closed:
            out[-1] = (out[-1][0], cols[k + 1][1])
        else:
            out.append(cols[k + 1])
    return out


def _over(box: tuple[float, float, float, float], col: tuple[float, float]) -> bool:
    return min(box[2], col[1]) > max(box[0], col[0])


def _gap_of(cols: list[tuple[float, float]], a: OcrBox, b: OcrBox) -> int | None:
    """The gap between footprints k and k+1 that word `a` and the next word `b` stand on each side
    of, if any: `a` on footprint k and not k+1, `b` on k+1 and not k (a word set aside as running
    across a gap, `ocr_tables.footprints`, may reach past its footprint's end)."""
    for k in range(len(cols) - 1):
        if (_over(a.box, cols[k]) and not _over(a.box, cols[k + 1])
                and _over(b.box, cols[k + 1]) and not _over(b.box, cols[k])):
            return k
    return None


def _starts(cols: list[tuple[float, float]], bands: Sequence[Sequence[OcrBox]]) -> dict[int, int]:
    """Per footprint, the runs whose first word starts on it."""
    out: dict[int, int] = {}
    for band in bands:
        for run in band:
            if run.text and run.words:
                x = run.word_boxes()[0].box[0]
                for k, (a, b) in enumerate(cols):
                    if a <= x <= b:
                        out[k] = out.get(k, 0) + 1
    return out


def _apart(cols: list[tuple[float, float]], bands: Sequence[Sequence[OcrBox]]) -> dict[int, int]:
    """Per gap, the rows where one run ends on its left side and the next starts on its right."""
    out: dict[int, int] = {}
    for band in bands:
        texts = sorted((b for b in band if b.text and b.words), key=lambda b: b.box[0])
        for a, b in zip(texts, texts[1:], strict=False):
            k = _gap_of(cols, a.word_boxes()[-1], b.word_boxes()[0])
            if k is not None:
                out[k] = out.get(k, 0) + 1
    return out

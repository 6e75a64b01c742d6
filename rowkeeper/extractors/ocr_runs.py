"""Row bands of OCR runs into runs of table rows: where a borderless table on a scan starts,
goes on and ends.

A band is the runs of one line; a table is a run of bands with two or more runs each. Rows
stand a pitch apart whatever their leading (a picture or a wrapped cell makes a row taller than
its text); a heading, a caption or a second table's own columns end a table. Pure geometry on
`OcrBox`es in image pixels; `ocr_tables` places the runs into columns.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.ocr_engines import OcrBox

SPREAD = 2.5
"""Line heights a table's rows may stand apart, at most, when the runs of the next row line up
with the last one's (tall rows: a picture, a wrapped cell beside single lines, loose leading);
closer than 1.2 line heights, any multi-run band continues a run."""
ALIGN = 0.25
"""Line heights within which two runs start (or end) at one x: a detector's box edges wander by
a few pixels, a column's next cell is set at the same edge."""
SAME = 0.75
"""Share of a row's runs at the last row's edges from which the two rows are one table's."""
FIELDS = 3
"""Runs on each of two rows, at least, from which the two rows alone make a table: a block of
fields set two pairs a row (key, value, key, value) stands two rows high where it holds four or
five fields."""
STRAY = 0.5
"""Recognition score under which a lone run is a stray reading (a picture's edge, a speck) and
neither a row nor a break of the table it lies in."""


def row_bands(boxes: Sequence[OcrBox]) -> list[list[OcrBox]]:
    """Boxes grouped into horizontal bands (a box joins a band it overlaps by half its height,
    and none of whose boxes it covers by half across: two lines of one cell are two bands)."""
    bands: list[list[OcrBox]] = []
    extent: list[tuple[float, float]] = []
    for b in sorted(boxes, key=lambda b: (b.box[1] + b.box[3]) / 2):
        if bands and not any(_across(o, b) > 0.5 * min(o.box[2] - o.box[0], b.box[2] - b.box[0]) for o in bands[-1]):
            y0, y1 = extent[-1]
            if min(y1, b.box[3]) - max(y0, b.box[1]) >= 0.5 * max(min(b.height, y1 - y0), 1.0):
                bands[-1].append(b)
                extent[-1] = (min(y0, b.box[1]), max(y1, b.box[3]))
                continue
        bands.append([b])
        extent.append((b.box[1], b.box[3]))
    return [sorted(band, key=lambda b: b.box[0]) for band in bands]


def _across(a: OcrBox, b: OcrBox) -> float:
    return min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])


def with_pictures(bands: list[list[OcrBox]], pictures: Sequence[OcrBox], lh: float) -> list[list[OcrBox]]:
    """Text bands with each picture (a box without text) in the band of its row.

    A picture is taller than a line and set beside its row's first line (tops near), not
    centred on it: it joins the band whose top is nearest its own, when it reaches within a
    line height of that band. Its box then fills the row's height, so a table's rows set apart
    by their pictures still read as one run of bands, and the picture column as a column."""
    out = [list(band) for band in bands]
    for p in pictures:
        near = [(abs(min(b.box[1] for b in band) - p.box[1]), i) for i, band in enumerate(out)
                if p.box[1] - lh <= max(b.box[3] for b in band) and min(b.box[1] for b in band) <= p.box[3] + lh]
        if near:
            out[min(near)[1]].append(p)
    return [sorted(band, key=lambda b: b.box[0]) for band in out]


def runs_of(bands: list[list[OcrBox]], lh: float) -> list[list[list[OcrBox]]]:
    """Maximal runs of close bands that start and end with a multi-run band."""
    runs: list[list[list[OcrBox]]] = []
    cur: list[list[OcrBox]] = []
    for band in bands:
        if len(band) == 1 and band[0].score < STRAY and not (cur and _wraps_on(band[0], cur[-1], lh)):
            continue  # a stray reading, but for a cell's wrapped line read with little confidence
        gap = min(b.box[1] for b in band) - max(b.box[3] for b in cur[-1]) if cur else 0.0
        gap_ok = bool(cur) and (gap < 1.2 * lh or (gap < SPREAD * lh and _next_row(band, cur, lh)))
        if cur and gap_ok and (len(band) >= 2 or _inside_columns(band[0], cur)):
            cur.append(band)
            continue
        if cur:
            runs.append(_trim(cur, lh))
        cur = [band] if len(band) >= 2 else []
    if cur:
        runs.append(_trim(cur, lh))
    return runs


def table_runs(bands: list[list[OcrBox]], lh: float, min_rows: int) -> list[list[list[OcrBox]]]:
    """The runs of `bands` that hold a table's rows (`runs_of`, `joined`, cut where tables are
    `stacked`): `min_rows` multi-run bands at least, or two rows of fields."""
    pieces = [p for whole in joined(runs_of(bands, lh), bands, lh) for p in stacked(whole, lh, min_rows)]
    return [p for p in pieces if sum(len(b) >= 2 for b in p) >= min_rows or two_rows_of_fields(p, lh)]


def two_rows_of_fields(run: list[list[OcrBox]], lh: float) -> bool:
    """Whether `run` is two rows of fields: two multi-run bands of as many text runs each, at
    least `FIELDS`, every run starting where the other row's run of its column starts. Two rows
    of prose or a heading beside a date share no such grid: a third row is the evidence
    elsewhere."""
    rows = [[b for b in band if b.text] for band in run if len(band) >= 2]
    if len(rows) != 2 or len(rows[0]) != len(rows[1]) or len(rows[0]) < FIELDS:
        return False
    return all(abs(a.box[0] - b.box[0]) <= ALIGN * lh for a, b in zip(*rows, strict=True))


def joined(runs: list[list[list[OcrBox]]], bands: list[list[OcrBox]], lh: float) -> list[list[list[OcrBox]]]:
    """Runs joined where the next one goes on at the first one's columns, one row pitch on.

    A table's rows stand a pitch apart, whatever the leading: where a row is taller than its
    text (a picture the page pass did not find, a wrapped neighbour) the gap before the next
    row is wider than any gap between lines, but the next row still starts one pitch (the
    later run's own) after the last, with nothing but stray readings between."""
    pos = {id(band): i for i, band in enumerate(bands)}
    out: list[list[list[OcrBox]]] = []
    for run in runs:
        if out and out[-1] and run and _goes_on(out[-1], run, bands[pos[id(out[-1][-1])] + 1:pos[id(run[0])]], lh):
            out[-1] = out[-1] + run
        else:
            out.append(run)
    return out


def _goes_on(a: list[list[OcrBox]], b: list[list[OcrBox]], between: list[list[OcrBox]], lh: float) -> bool:
    if len(b) < 3 or any(len(x) > 1 or x[0].score >= STRAY for x in between):
        return False
    tops = [min(x.box[1] for x in band) for band in (a[-1], *b)]
    pitch = statistics.median(t1 - t0 for t0, t1 in zip(tops[1:], tops[2:], strict=False))
    return tops[1] - tops[0] <= 1.15 * pitch and _lines_up(b[0], a, lh)


def stacked(run: list[list[OcrBox]], lh: float, min_rows: int) -> list[list[list[OcrBox]]]:
    """`run` cut where lines of one run each (a heading, a caption) stand between two tables:
    at least `min_rows` multi-run bands on each side, and the rows after do not line up with
    the rows before. A group label or a wrapped cell's line stands between rows of one set of
    columns, and a wrapped header's last line has a header alone above it."""
    pieces: list[list[list[OcrBox]]] = [[]]
    i = 0
    while i < len(run):
        j = i
        while j < len(run) and len(run[j]) == 1:
            j += 1
        cut = (j > i > 0 and j < len(run) and sum(len(b) >= 2 for b in pieces[-1]) >= min_rows
               and sum(len(b) >= 2 for b in run[j:]) >= min_rows and not _goes_on_after(run[j:], pieces[-1], lh))
        cut = cut or (j == i and _new_columns(pieces[-1], run[j:], lh, min_rows))
        if cut:
            pieces.append([])
        else:
            pieces[-1].extend(run[i:j])
        if j < len(run):
            pieces[-1].append(run[j])
        i = j + 1
    return [p for p in pieces if p]


def _goes_on_after(after: list[list[OcrBox]], before: list[list[OcrBox]], lh: float) -> bool:
    """Whether the rows `after` lines standing alone are the same table's as the rows `before`:
    the first row lines up with the last row before (`_lines_up`), and it or the next one sets
    3 in 4 of its runs at that row's edges (`SAME`); a record wrapped over several lines is
    taken as a whole (`_next_row`, `_record_rows`). Two stacked tables share the page's left
    margin and often a right edge by chance, so two edges in common are no evidence: a group
    label's or a wrapped cell's next row takes up every column of the row before it."""
    rows = [b for b in after[:2] if len(b) >= 2]
    return _next_row(after[0], before, lh) and any(
        _share_lined(b, last, lh) >= SAME for b in rows for last in _record_rows(before, lh))


def _new_columns(before: list[list[OcrBox]], after: list[list[OcrBox]], lh: float, min_rows: int) -> bool:
    """Whether a second table starts at `after[0]` with nothing between: at least `min_rows`
    multi-run rows on each side, each side's last two rows set at one set of edges (most of their
    runs line up), and neither of the first two rows after at the edges of the last row before."""
    rows_before = [b for b in before if len(b) >= 2]
    rows_after = [b for b in after if len(b) >= 2]
    # the test reads three rows after (a header and two rows at one set of edges): a run of two
    # multi-run rows after (min_rows 2, a side-by-side block's fields) starts no second table
    if len(rows_before) < min_rows or len(rows_after) < min_rows or len(after) < 3 \
            or len(after[0]) < 2 or len(after[1]) < 2:
        return False
    last = rows_before[-1]
    return (_share_lined(last, rows_before[-2], lh) >= SAME and _share_lined(after[2], after[1], lh) >= SAME
            and _share_lined(after[0], last, lh) < SAME and _share_lined(after[1], last, lh) < SAME)


def _share_lined(band: list[OcrBox], row: list[OcrBox], lh: float) -> float:
    """Share of `band`'s text runs that start or end where a run of `row` does."""
    texts = [b for b in band if b.text]
    tol = ALIGN * lh
    hits = sum(any(abs(b.box[0] - p.box[0]) <= tol or abs(b.box[2] - p.box[2]) <= tol for p in row if p.text)
               for b in texts)
    return hits / len(texts) if texts else 0.0


def _lines_up(band: list[OcrBox], run: list[list[OcrBox]], lh: float) -> bool:
    """Whether most of `band`'s text runs (two at least) start or end where a run of the last
    multi-run band of `run` does: the next row of the same columns."""
    last = next(b for b in reversed(run) if len(b) >= 2)
    edges = [(p.box[0], p.box[2]) for p in last if p.text]
    texts = [b for b in band if b.text]
    tol = ALIGN * lh
    hits = sum(any(abs(b.box[0] - x0) <= tol or abs(b.box[2] - x1) <= tol for x0, x1 in edges)
               for b in texts)
    return hits >= 2 and 2 * hits >= len(texts)


def _next_row(band: list[OcrBox], run: list[list[OcrBox]], lh: float) -> bool:
    """Whether `band` lines up (`_lines_up`) with the last multi-run band of `run`, or with one
    of the last two records' multi-run bands (a record: the bands from one that starts at the
    run's left edge, its key, to the next). A record wrapped over several lines holds its
    figures on its first, middle or last line: the next record's key and first line line up
    with the record's first line, and its figure line with the figure line of the one before."""
    return _lines_up(band, run, lh) or any(_lines_up(band, [row], lh) for row in _record_rows(run, lh))


def _record_rows(run: list[list[OcrBox]], lh: float) -> list[list[OcrBox]]:
    """The multi-run bands of `run`'s last two records (a record: the bands from one that
    starts at the run's left edge, its key, to the next), the last band among them."""
    left = min((b.box[0] for row in run for b in row if b.text), default=0.0)
    keyed = [i for i, row in enumerate(run) if len(row) >= 2 and row[0].text and row[0].box[0] - left <= ALIGN * lh]
    start = keyed[-2] if len(keyed) >= 2 else 0
    return [row for row in run[start:] if len(row) >= 2]


def _inside_columns(b: OcrBox, run: list[list[OcrBox]]) -> bool:
    """A single run inside a table (a wrapped cell, a group label) sits under one column."""
    lefts = [x.box[0] for band in run for x in band]
    return b.box[2] - b.box[0] < 0.5 * (max(x.box[2] for band in run for x in band) - min(lefts))


def _trim(run: list[list[OcrBox]], lh: float) -> list[list[OcrBox]]:
    """`run` less its last single-run bands, but for the wrapped lines that close its last
    record: set at the leading of the line over them (their box reaches it) and starting where a
    run of it starts (a caption or a note under the table stands further off; a line that reads
    as a caption, `Table 2: …`, set close under it is no wrapped line either)."""
    keep = len(run)
    while keep and len(run[keep - 1]) < 2:
        keep -= 1
    end = keep
    while end < len(run) and _wraps_on(run[end][0], run[end - 1], lh):
        end += 1
    return run[:end]


def _wraps_on(b: OcrBox, above: list[OcrBox], lh: float) -> bool:
    return (b.box[1] <= max(a.box[3] for a in above) and not is_caption(b.text)
            and any(abs(b.box[0] - a.box[0]) <= ALIGN * lh for a in above if a.text))

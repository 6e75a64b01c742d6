"""Group labels over sub-columns on a scan, placed whole where they stand.

A spanner label is centred over its sub-columns ("Lead time" over "Q1 | Q2 | Q3 | Q4"): over an
even number of them it stands on the gap between the middle two, and its words overlap both
footprints. Cut at the columns it came out as two labels ("Lead" | "time"), and placed as a
cell spanning the two footprints it covers it claimed the wrong sub-columns (the middle two of
four) with a span that the header transforms take as drawn. Placed whole, in the column its
middle stands over, it leaves the reading of its group to the transforms' centred reading
(`transforms.spanners`), as a text page's label does. Pure geometry on `OcrBox`es in pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.label_text import period_label

Span = tuple[float, float]


def is_label(text: str) -> bool:
    """A label, not a figure: a word of letters (`Q1`, `Menge`, `利益率`) or a period (`2023`)."""
    text = text.strip()
    return bool(text) and (period_label(text) or sum(ch.isalpha() for ch in text) > sum(ch.isdigit() for ch in text))


def on_columns(run: OcrBox, cols: Sequence[Span]) -> list[int]:
    """The columns whose footprints the run's words stand on."""
    return sorted({i for w in run.word_boxes() for i, c in enumerate(cols) if min(c[1], w.box[2]) > max(c[0], w.box[0])})


def over_sub_labels(band: Sequence[OcrBox], below: Sequence[OcrBox], cols: Sequence[Span]) -> bool:
    """Whether `band` is a row of group labels over a row of sub-labels: the row under it
    names (nearly) every column with labels, not figures; this row holds fewer than half as
    many runs, all labels, each in a column of its own, and one of them stands over two
    columns or more."""
    if not band or not below or not all(is_label(b.text) for b in [*band, *below]):
        return False
    named = {i for b in below for i in on_columns(b, cols)}
    return len(named) >= len(cols) - 1 and 2 * len(band) < len(named) + 2 \
        and any(len(on_columns(b, cols)) >= 2 for b in band) \
        and len({centre_column(b, cols) for b in band}) == len(band)


def centre_column(run: OcrBox, cols: Sequence[Span]) -> int:
    """The column whose footprint is nearest the run's middle (the left one on a tie)."""
    mid = (run.box[0] + run.box[2]) / 2
    return min(range(len(cols)), key=lambda i: (max(cols[i][0] - mid, mid - cols[i][1], 0.0), i))

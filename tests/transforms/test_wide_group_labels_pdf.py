"""A wide group label beside narrow ones keeps its outer columns (issue 13, peer us-018 p1, us-017 p4).

`Actual` centred over seven years beside `Projected` centred over three (us-018 p1: six beside
four, a tie the labels' few points off centre broke): each sub-column went to the nearest label
centre, so the seventh year, nearer `Projected`'s centre than `Actual`'s, was given to
`Projected`; the trim of a group that leaves its label off its middle then cut both groups to
the runs they stand centred over, and the first and last `Actual` years were left without it. The same with `Grade` centred over `7 .. 12` beside two stacked labels of one column
each (`Elementary` / `ungraded`): `7`, `8` were left without `Grade`. A group now takes back the
bare columns beside it while its label stands as well centred over them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import centred, new_page, put

STATES = ["United States", "Northeast", "Connecticut", "Maine", "Massachusetts", "New Hampshire",
          "New Jersey", "New York", "Pennsylvania", "Rhode Island", "Vermont", "Midwest"]


def grouped_page(path: Path, groups: tuple[tuple[str, int], ...], heads: list[tuple[str, ...]],
                 stub: str, pitch: float = 44.5) -> Path:
    """A borderless table of figures: `stub` over the row names, each group label centred over
    its run of columns (`groups`: label, columns), the columns' heads (one or two lines each)
    right-aligned over right-aligned figures."""
    rnd = random.Random(18)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 50, "Table 3. Number of graduates, by region and state: selected years", 10, "bold")
    page.draw_line((36, 58), (576, 58), width=1)
    x0 = 576 - pitch * len(heads)
    mids = [x0 + pitch * (j + 0.5) for j in range(len(heads))]
    start = 0
    for label, n in groups:
        centred(page, (mids[start] + mids[start + n - 1] + 17) / 2, 89, label)
        start += n
    for m, head in zip(mids, heads, strict=True):
        for k, line in enumerate(head):
            put(page, m + 17, 103 - 11 * (len(head) - 1 - k), line, 8, align="right")
    put(page, 36, 103, stub, 8)
    page.draw_line((36, 108), (576, 108), width=0.5)
    y = 120.0
    for name in STATES:
        put(page, 36, y, name, 8)
        for m in mids:
            put(page, m + 17, y, f"{rnd.randint(10, 999)},{rnd.randint(100, 999)}", 8, align="right")
        y += 12
    doc.save(path)
    return path


def test_a_wide_group_label_beside_a_narrower_one_keeps_its_outer_columns(tmp_path: Path) -> None:
    years = [f"{y}–{str(y + 1)[2:]}" for y in range(2003, 2013)]
    path = grouped_page(tmp_path / "years.pdf", (("Actual", 7), ("Projected", 3)),
                        [(y,) for y in years], "Region and state")
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.columns == ("Region and state", *(f"Actual {y}" for y in years[:7]),
                             *(f"Projected {y}" for y in years[7:]))
    assert [r[0] for r in table.rows] == STATES


def test_a_group_label_beside_stacked_labels_keeps_its_outer_columns(tmp_path: Path) -> None:
    heads = [(str(g),) for g in range(7, 13)] + [("Elementary", "ungraded"), ("Secondary", "ungraded")]
    path = grouped_page(tmp_path / "grades.pdf", (("Grade", 6),), heads, "Year", pitch=60)
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.columns == ("Year", *(f"Grade {g}" for g in range(7, 13)),
                             "Elementary ungraded", "Secondary ungraded")
    assert [r[0] for r in table.rows] == STATES

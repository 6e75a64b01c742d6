"""A stacked label's first line over its own column only is no group label (issue 13, peer us-024 p3/p6).

`Unadjusted` / `odds ratio` centred in one column of four under a group label, beside
`(95% CI)` printed on the lower line only: the text fallback spread `Unadjusted` into the next
column (`Peeling paint Unadjusted (95% CI)`), as it would a group label over lower-case
sub-labels. Its ink stands over its own column's label only, so it is that label's first line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import centred, new_page, put

SUBS = [("no.",), ("(%)",), ("Unadjusted", "odds ratio"), ("(95% CI)",)]
ROWS = ["Male", "Female", "White", "Black", "Hispanic", "Other", "Northeast", "Midwest", "South", "West"]


def stacked_page(path: Path, groups: tuple[str, ...] = ("Peeling paint", "no working smoke alarm")) -> Path:
    """A borderless table: each group label centred over four columns, under it `no.`, `(%)`,
    `Unadjusted` / `odds ratio` stacked in one column and `(95% CI)`, figures centred under them."""
    rnd = random.Random(6)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 60, "Table 4. Selected characteristics of housing units with peeling paint", 10, "bold")
    page.draw_line((36, 68), (576, 68), width=1)
    mids = [[160 + 208 * k + 50 * j for j in range(4)] for k in range(len(groups))]
    for label, ms in zip(groups, mids, strict=True):
        centred(page, (ms[0] + ms[-1]) / 2, 82, label)
        for m, lines in zip(ms, SUBS, strict=True):
            for k, line in enumerate(lines):
                centred(page, m, 103 - 9 * (len(lines) - 1 - k), line)
    put(page, 36, 103, "Characteristics", 8)
    page.draw_line((36, 108), (576, 108), width=0.5)
    y = 120.0
    for name in ROWS:
        put(page, 36, y, name, 8)
        for ms in mids:
            figures = [f"{rnd.randint(1, 9)},{rnd.randint(100, 999)}", f"({rnd.randint(10, 99) / 10:.1f})",
                       f"{rnd.randint(5, 30) / 10:.1f}", f"({rnd.randint(5, 9) / 10:.1f}–{rnd.randint(10, 30) / 10:.1f})"]
            for m, text in zip(ms, figures, strict=True):
                centred(page, m, y, text)
        y += 12
    doc.save(path)
    return path


def test_a_stacked_labels_first_line_heads_its_own_column_only(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(stacked_page(tmp_path / "stacked.pdf"))).tables
    names = ["Characteristics"]
    for group in ("Peeling paint", "no working smoke alarm"):
        names += [f"{group} no.", f"{group} (%)", f"{group} Unadjusted odds ratio", f"{group} (95% CI)"]
    assert table.columns == tuple(names)
    assert [r[0] for r in table.rows] == ROWS

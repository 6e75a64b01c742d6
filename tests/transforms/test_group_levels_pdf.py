"""Group labels of several levels over one header (issue 13, peer us-024 p2/p3).

Years centred over five columns each, under them a group label centred over the last four of
each year's columns, and in each year's first column a label stacked over two lines beside
it (`total occupied` / `housing units`); the sub-labels (`no.` | `(%)` | ...) on the header's
last line. The row right under the years holds only the group labels and the stacked labels'
first lines, so the group-label pass, which read a row's groups from the row right under it,
gave the years no columns (each stayed in the one its text falls in) and the text fallback
spread the stacked label over the next level's columns (`total occupied no.`). The years are
now read against the row that names every figure column, each level's groups stay inside the
level's above (the group label beside the next year's first column is not given it), and a
label spreads into no column another label above heads.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import centred, new_page, put

SUBS = ["no.", "(%)", "OR", "(95% CI)"]
ROWS = ["Male", "Female", "White", "Black", "Hispanic", "Other", "Northeast", "Midwest", "South", "West"]


def levels_page(path: Path, years: tuple[str, ...] = ("2007", "2009")) -> Path:
    """A borderless table: `Characteristic` over the stub, per year `total occupied` /
    `housing units` and four sub-labels, `Inadequate housing units` centred over the four,
    the year centred over all five; rules under the title and the header."""
    rnd = random.Random(24)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 60, "Table 1. Selected characteristics of householders in inadequate housing", 10, "bold")
    page.draw_line((36, 68), (576, 68), width=1)
    mids = []
    for k in range(len(years)):
        x0 = 150 + 215 * k
        mids.append([x0 + 22] + [x0 + 64 + 40 * j for j in range(4)])
    for year, ms in zip(years, mids, strict=True):
        centred(page, (ms[0] - 22 + ms[-1] + 18) / 2, 80, year)
        centred(page, (ms[1] - 12 + ms[-1] + 18) / 2, 94, "Inadequate housing units")
        centred(page, ms[0], 98, "total occupied")
        centred(page, ms[0], 107, "housing units")
        for m, label in zip(ms[1:], SUBS, strict=True):
            centred(page, m, 107, label)
    put(page, 36, 107, "Characteristic", 8)
    page.draw_line((36, 112), (576, 112), width=0.5)
    y = 124.0
    for name in ROWS:
        put(page, 36, y, name, 8)
        for ms in mids:
            figures = [f"{rnd.randint(10, 99)},{rnd.randint(100, 999)}", f"{rnd.randint(100, 999)}",
                       f"({rnd.randint(10, 99) / 10:.1f})", f"{rnd.randint(10, 30) / 10:.1f}",
                       f"({rnd.randint(10, 15) / 10:.1f}–{rnd.randint(16, 30) / 10:.1f})"]
            for m, text in zip(ms, figures, strict=True):
                centred(page, m, y, text)
        y += 12
    page.draw_line((36, y - 7), (576, y - 7), width=1)
    doc.save(path)
    return path


def test_three_levels_of_centred_group_labels_name_each_column(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(levels_page(tmp_path / "levels.pdf"))).tables
    names = ["Characteristic"]
    for year in ("2007", "2009"):
        names += [f"{year} total occupied housing units"]
        names += [f"{year} Inadequate housing units {s}" for s in SUBS]
    assert table.columns == tuple(names)
    assert [r[0] for r in table.rows] == ROWS


def wrapped_page(path: Path) -> Path:
    """Two group labels centred over four columns each; under each, the third column's label
    wrapped over two lines (`Unadjusted` / `odds ratio`), the others on the last line."""
    rnd = random.Random(6)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 60, "Table 4. Peeling paint and smoke alarms, United States, 2009", 10, "bold")
    page.draw_line((36, 68), (576, 68), width=1)
    mids = [[190 + 190 * k + 44 * j for j in range(4)] for k in range(2)]
    for label, ms in zip(("Peeling paint", "No working smoke alarm"), mids, strict=True):
        centred(page, (ms[0] + ms[-1]) / 2, 80, label)
        centred(page, ms[2], 93, "Unadjusted")
        for m, sub in zip(ms, ("no.", "(%)", "odds ratio", "(95% CI)"), strict=True):
            centred(page, m, 102, sub)
    put(page, 36, 102, "Characteristics", 8)
    page.draw_line((36, 107), (576, 107), width=0.5)
    y = 119.0
    for name in ROWS:
        put(page, 36, y, name, 8)
        for ms in mids:
            figures = [f"{rnd.randint(1, 9)},{rnd.randint(100, 999)}", f"({rnd.randint(10, 99) / 10:.1f})",
                       f"{rnd.randint(10, 30) / 10:.1f}", f"({rnd.randint(10, 15) / 10:.1f}–{rnd.randint(16, 30) / 10:.1f})"]
            for m, text in zip(ms, figures, strict=True):
                centred(page, m, y, text)
        y += 12
    doc.save(path)
    return path


def test_a_labels_first_line_under_a_group_label_heads_its_own_column(tmp_path: Path) -> None:
    """`Unadjusted`, the first line of `Unadjusted odds ratio`, stands centred over the four
    columns `Peeling paint` heads too: it is no second level over them (`Unadjusted no.`)."""
    (table,) = rowkeeper.extract(str(wrapped_page(tmp_path / "wrapped.pdf"))).tables
    for k, label in enumerate(("Peeling paint", "No working smoke alarm")):
        names = table.columns[1 + 4 * k:5 + 4 * k]
        assert names[:3] == (f"{label} no.", f"{label} (%)", f"{label} Unadjusted odds ratio")
        assert names[3].startswith(f"{label} ")
    assert [r[0] for r in table.rows] == ROWS


def tall_page(path: Path) -> Path:
    """A header of five lines set bottom-aligned (us-002 p3's shape): `Average amount
    borrowed` / `(by borrowers)` centred over the last three columns, `Percent who borrowed`
    over the first four, labels stacked over up to three lines (`Under-` / `graduate` /
    `only`), one-line labels (`Neither`, `Both`, the stub's name) on the last line."""
    rnd = random.Random(3)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 60, "Table 5. Borrowing for undergraduate and graduate education", 10, "bold")
    page.draw_line((36, 68), (576, 68), width=1)
    mids = [236.0 + 48 * k for k in range(7)]
    centred(page, (mids[4] + mids[6]) / 2, 80, "Average amount borrowed")
    centred(page, (mids[4] + mids[6]) / 2, 89, "(by borrowers)")
    centred(page, (mids[0] + mids[3]) / 2, 89, "Percent who borrowed")
    heads = [["", "", "Neither"], ["Under-", "graduate", "only"], ["", "Graduate", "only"], ["", "", "Both"],
             ["Under-", "graduate", "only"], ["", "Graduate", "only"], ["", "", "Both"]]
    for mid, head in zip(mids, heads, strict=True):
        for k, line in enumerate(head):
            if line:
                centred(page, mid, 98 + 9 * k, line)
    put(page, 36, 116, "Student and institutional characteristics", 8)
    page.draw_line((36, 120), (576, 120), width=0.5)
    y = 132.0
    for name in ROWS:
        put(page, 36, y, name, 8)
        figures = [f"{rnd.randint(100, 400) / 10:.1f}" for _ in range(4)]
        figures += [f"${rnd.randint(5, 45)},{rnd.randint(1, 9)}00" for _ in range(3)]
        for mid, text in zip(mids, figures, strict=True):
            centred(page, mid, y, text)
        y += 11
    doc.save(path)
    return path


def test_a_last_line_label_under_a_group_label_stays_in_the_header(tmp_path: Path) -> None:
    """`Neither` on the header's last line stands under `Percent who borrowed`, now given
    the four columns it is centred over: a group label, not a label `Neither` would carry on,
    so that line is still the header's (it was read as the first body row)."""
    (table,) = rowkeeper.extract(str(tall_page(tmp_path / "tall.pdf"))).tables
    assert table.columns[0] == "Student and institutional characteristics"
    assert table.columns[1] == "Percent who borrowed Neither"
    assert table.columns[3] == "Percent who borrowed Graduate only"
    assert table.columns[6] == "Average amount borrowed (by borrowers) Graduate only"
    assert [r[0] for r in table.rows] == ROWS

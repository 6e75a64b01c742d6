"""Heads that read like figures and the group labels over them (issue 13, peer us-002 p1 and
us-017 p3, p5-7).

Heads of bands broken after their dash (us-002 p1): `$10,000–` over `14,999`,
each line of the head centred over its column under a group label centred over the bands,
beside labels wrapped over two and three lines (`Percent` / `who` / `borrowed`).

Both lines of the ranges read as figures, so the header stopped above them and they became
the first two body rows; the ranges' first halves, rising left to right and each closed by a
larger figure on the next line, are heads. And a label centred over its own column only
(`Percent` over `who`) heads no sub-column beside it: the group-label pass reads where each
label stands, and the text fallback no longer spreads it over `Average amount`.

Grades counting up by one under `Grade` (`PK | K | 1 ... | 6`, us-017 p3) are heads too, and
`Grade` heads them, not `Total` beside them. A stacked label's middle line right over its own
column (`Pacific`, under `Asian/`, us-017 p5) heads that column only, not every bare one left
of it (`Pacific Total`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import centred, new_page, put

STUB = "Student and institutional characteristics"
HEADS = [["Percent", "who", "borrowed"], ["", "Average", "amount"], ["", "Less than", "$10,000"],
         ["", "$10,000–", "14,999"], ["", "$15,000–", "29,999"], ["", "$30,000–", "54,999"],
         ["", "$55,000", "or more"]]
ROWS = ["Total", "Public 4-year", "Private not-for-profit", "Doctorate-granting", "Master's",
        "Bachelor's", "For-profit", "Other"]


def band_page(path: Path) -> Path:
    """A borderless table under a rule: the stub's name on the header's last line, seven
    figure columns whose labels wrap over two or three lines, centred; `Amount borrowed`
    centred over the last five, with a rule under it."""
    rnd = random.Random(2)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Table 3. Borrowing by 2003", 10, "bold")
    mids = [250.0, 292.0, 345.0, 392.0, 436.0, 480.0, 524.0]  # the bands set closer
    page.draw_line((60, 80), (mids[-1] + 24, 80), width=1)
    y = 92.0
    centred(page, (mids[2] + mids[-1]) / 2, y, "Amount borrowed")
    page.draw_line((mids[2] - 20, y + 3), (mids[-1] + 20, y + 3), width=0.5)
    for line in range(3):
        for mid, head in zip(mids, HEADS, strict=True):
            if head[line]:
                centred(page, mid, y + 10 * line, head[line])
    put(page, 60, y + 20, STUB, 8)
    page.draw_line((60, y + 24), (mids[-1] + 24, y + 24), width=0.5)
    y += 36
    for name in ROWS:
        put(page, 60, y, name, 8)
        figures = [f"{rnd.randint(100, 999) / 10:.1f}", f"${rnd.randint(10, 60)},{rnd.randint(1, 9)}00"]
        figures += [f"{rnd.randint(50, 400) / 10:.1f}" for _ in range(5)]
        for mid, text in zip(mids, figures, strict=True):
            put(page, mid + 14, y, text, 8, align="right")
        y += 11
    page.draw_line((60, y - 6), (mids[-1] + 24, y - 6), width=1)
    doc.save(path)
    return path


def test_range_heads_broken_after_their_dash_are_header_rows(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(band_page(tmp_path / "bands.pdf"))).tables
    assert table.columns == (STUB, "Percent who borrowed", "Average amount", "Amount borrowed Less than $10,000",
                             "Amount borrowed $10,000– 14,999", "Amount borrowed $15,000– 29,999",
                             "Amount borrowed $30,000– 54,999", "Amount borrowed $55,000 or more")
    assert [r[0] for r in table.rows] == ROWS


def test_a_trailing_minus_in_the_body_is_no_range_head() -> None:
    from rowkeeper.transforms.headers import detect_header_rows

    grid = [["Account", "Q1", "Q2", "Q3"], ["Freight", "1,200-", "3,400-", "2,100-"],
            ["Rent", "1,000", "2,000", "900"], ["Fees", "300", "40", "2,000-"]]
    assert detect_header_rows(grid) == 1  # falling or unclosed: a body of negatives


GRADES = ["PK", "K", "1", "2", "3", "4", "5", "6"]


def grade_page(path: Path) -> Path:
    """Enrollment by year: `Year` and `Total` on the header's line, then grades counting up
    by one (`PK | K | 1 ... | 6`) under `Grade`, centred over them alone, a rule under it."""
    rnd = random.Random(4)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Table 2. Enrollment by grade, 1996-2004", 10, "bold")
    rights = [150.0] + [205.0 + 44 * k for k in range(len(GRADES))]
    page.draw_line((60, 80), (rights[-1], 80), width=1)
    mid = (rights[1] - 30 + rights[-1]) / 2
    centred(page, mid, 92, "Grade")
    page.draw_line((rights[1] - 30, 95), (rights[-1], 95), width=0.5)
    put(page, 60, 104, "Year", 8)
    for right, label in zip(rights, ["Total", *GRADES], strict=True):
        put(page, right, 104, label, 8, align="right")
    page.draw_line((60, 108), (rights[-1], 108), width=0.5)
    y = 120.0
    for year in range(1996, 2005):
        put(page, 60, y, str(year), 8)
        figures = [f"{rnd.randint(45, 49)},{rnd.randint(100, 999)}"]
        figures += [f"{rnd.randint(1, 3)},{rnd.randint(100, 999)}" for _ in GRADES]
        for right, text in zip(rights, figures, strict=True):
            put(page, right, y, text, 8, align="right")
        y += 11
    page.draw_line((60, y - 6), (rights[-1], y - 6), width=1)
    doc.save(path)
    return path


def test_grades_counting_up_under_a_group_label_are_heads(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(grade_page(tmp_path / "grades.pdf"))).tables
    assert table.columns == ("Year", "Total", *(f"Grade {g}" for g in GRADES))
    assert [r[0] for r in table.rows] == [str(y) for y in range(1996, 2005)]


RACES = [["", "", "Total"], ["", "", "White"], ["", "", "Black"], ["", "", "Hispanic"],
         ["Asian/", "Pacific", "Islander"], ["American", "Indian/", "Alaska Native"], ["Two or", "more", "races"]]


def stacked_page(path: Path) -> Path:
    """Labels right-aligned over their figures, the last three stacked over three lines (the
    middle line right over its own column, every column left of it bare on that line), under
    `Race/ethnicity` over the columns from `White` on."""
    rnd = random.Random(6)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 60, "Table 4. Enrollment by race/ethnicity", 10, "bold")
    rights = [155.0, 228.0, 293.0, 359.0, 424.0, 504.0, 570.0]
    page.draw_line((36, 66), (rights[-1], 66), width=1)
    centred(page, (rights[1] - 24 + rights[-1]) / 2, 80, "Race/ethnicity")
    for line in range(3):
        put(page, 36, 94 + 10 * line, "Year" if line == 2 else "", 8)
        for right, label in zip(rights, RACES, strict=True):
            if label[line]:
                put(page, right, 94 + 10 * line, label[line], 8, align="right")
    page.draw_line((36, 118), (rights[-1], 118), width=0.5)
    y = 130.0
    for year in range(1996, 2004):
        put(page, 36, y, str(year), 8)
        figures = [f"{rnd.randint(45, 49)},{rnd.randint(100, 999)}", f"{rnd.randint(28, 30)},{rnd.randint(100, 999)}",
                   f"{rnd.randint(7, 8)},{rnd.randint(100, 999)}", f"{rnd.randint(6, 9)},{rnd.randint(100, 999)}",
                   f"{rnd.randint(1, 2)},{rnd.randint(100, 999)}", str(rnd.randint(500, 599)), "—"]
        for right, text in zip(rights, figures, strict=True):
            put(page, right, y, text, 8, align="right")
        y += 11
    doc.save(path)
    return path


def test_a_stacked_labels_middle_line_heads_its_own_column_only(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(stacked_page(tmp_path / "races.pdf"))).tables
    assert table.columns[0] == "Year"
    assert table.columns[1] == "Total"  # no `Pacific` read over every bare column before it
    assert table.columns[5:] == ("Asian/ Pacific Islander", "American Indian/ Alaska Native", "Two or more races")
    assert [r[0] for r in table.rows] == [str(y) for y in range(1996, 2004)]

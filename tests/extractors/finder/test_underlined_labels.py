"""A group label with a rule drawn under it heads the columns that rule reaches over (issue 13,
peer us-018 p6/p7, us-024 p5, us-018 p3).

Report tables draw a short rule under each group label, from the gap before its first
sub-column to its last column's edge; the label is centred on the rule, so over right-aligned
sub-columns it stands left of their middle, and read from where it stands (nearest centre) its
last column went to no label (`Current dollars` over `Total` | `Per pupil`: `Per pupil` lost
`Current expenditures Current dollars`). A long label cut at a column edge (`Leaks during
preceding 12` | `months`) is one label over the rule's columns too.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import centred, new_page, put, width

YEARS = [f"{y}–{str(y + 1)[2:]}" for y in range(1996, 2010)]


def underlined_page(path: Path, top: str, groups: tuple[tuple[str, int], ...],
                    heads: list[tuple[str, str]], first: tuple[str, str], pitch: float = 90.0) -> Path:
    """A borderless table of figures: a stub, one plain column (`first`), then `groups` of
    sub-columns (label, columns), each label centred on a rule drawn under it from the gap
    before its first sub-column to its last column's right edge; `top` over all the groups
    with a rule of its own; two-line heads right-aligned over right-aligned figures."""
    rnd = random.Random(6)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 48, "Table 18. Current expenditures per pupil: school years 1996–97 through 2009–10", 9, "bold")
    page.draw_line((36, 60), (576, 60), width=0.75)
    rights = [576 - pitch * k for k in range(len(heads))][::-1]
    first_right = rights[0] - pitch
    if top:
        left = rights[0] - pitch + 26
        centred(page, (left + 576) / 2, 70, top)
        page.draw_line((left, 74), (576, 74), width=0.5)
    start = 0
    for label, n in groups:
        left, right = rights[start] - pitch + 26, rights[start + n - 1]
        if label:  # "": columns under no group label
            centred(page, (left + right) / 2, 84.5, label)
            page.draw_line((left, 88), (right, 88), width=0.5)
        start += n
    for r, (a, b) in zip([first_right, *rights], [first, *heads], strict=True):
        put(page, r, 99, a, 8, align="right")
        put(page, r, 109, b, 8, align="right")
    put(page, 36, 109, "School year", 8)
    page.draw_line((36, 113), (576, 113), width=0.5)
    y = 125.0
    for year in YEARS:
        put(page, 36, y, year, 8)
        for r in [first_right, *rights]:
            put(page, r, y, f"{rnd.randint(100, 999)}.{rnd.randint(0, 9)}", 8, align="right")
        y += 11
    doc.save(path)
    return path


def test_a_label_centred_on_its_rule_heads_every_column_the_rule_reaches(tmp_path: Path) -> None:
    heads = [("Total", "(in billions)"), ("Per pupil", "in fall enrollment")] * 2
    path = underlined_page(tmp_path / "t18.pdf", "", (("Constant 2010–11 dollars", 2), ("Current dollars", 2)),
                           heads, ("Fall enrollment", "(in thousands)"))
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.columns == (
        "School year", "Fall enrollment (in thousands)",
        "Constant 2010–11 dollars Total (in billions)", "Constant 2010–11 dollars Per pupil in fall enrollment",
        "Current dollars Total (in billions)", "Current dollars Per pupil in fall enrollment")
    assert [r[0] for r in table.rows] == YEARS


def test_a_long_label_cut_at_a_column_edge_is_one_label_over_its_rule(tmp_path: Path) -> None:
    heads = [("", "No."), ("", "(%)"), ("Unadjusted", "odds ratio"), ("", "(95% CI)")] * 2
    path = underlined_page(tmp_path / "t3.pdf", "", (("Rodent seen in unit recently", 4),
                                                      ("Leaks during preceding 12 months", 4)),
                           heads, ("Total", "units"), pitch=52)
    (table,) = rowkeeper.extract(str(path)).tables
    subs = ["No.", "(%)", "Unadjusted odds ratio", "(95% CI)"]
    assert table.columns == ("School year", "Total units",
                             *(f"Rodent seen in unit recently {s}" for s in subs),
                             *(f"Leaks during preceding 12 months {s}" for s in subs))
    assert len(table.rows) == len(YEARS)


def test_a_rule_across_the_whole_header_gives_no_spans(tmp_path: Path) -> None:
    heads = [("Total", "(in billions)"), ("Per pupil", "in fall enrollment")]
    path = underlined_page(tmp_path / "plain.pdf", "", (), heads, ("Fall enrollment", "(in thousands)"))
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.columns == ("School year", "Fall enrollment (in thousands)", "Total (in billions)",
                             "Per pupil in fall enrollment")


def test_stacked_labels_first_lines_under_a_group_label_head_their_own_columns(tmp_path: Path) -> None:
    """Under `Modern method` the two-line labels' first lines (`Female` / `sterilization`,
    `Male` / `sterilization`, `Condom/` / `Nirodh`) stand in one row with the one-line labels'
    empty slots (`Pill`, `IUD`) beside them: a row of first lines, no group labels (`Male` is
    not spread over `Pill`)."""
    heads = [("Female", "sterilization"), ("Male", "sterilization"), ("", "Pill"), ("", "IUD"),
             ("Condom/", "Nirodh"), ("", "Rhythm"), ("Folk", "method")]
    path = underlined_page(tmp_path / "t21.pdf", "", (("Modern method", 5), ("Traditional", 2)),
                           heads, ("Any", "method"), pitch=54)
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.columns == ("School year", "Any method", "Modern method Female sterilization",
                             "Modern method Male sterilization", "Modern method Pill", "Modern method IUD",
                             "Modern method Condom/ Nirodh", "Traditional Rhythm",
                             "Traditional Folk method")


def test_a_label_reaches_no_further_than_its_rule(tmp_path: Path) -> None:
    """Past the end of `Modern method`'s rule a column of its own with a two-line label (`Other`
    / `method`): its first line stands in the row under the group label, beside `Condom/`, and
    the group label, spread to the right over bare slots, took it too (`Modern method Other
    method`). A span a rule gave ends where the rule does."""
    heads = [("Female", "sterilization"), ("Male", "sterilization"), ("", "Pill"), ("", "IUD"),
             ("Condom/", "Nirodh"), ("Other", "method"), ("", "Rhythm"), ("Folk", "method")]
    path = underlined_page(tmp_path / "t22.pdf", "", (("Modern method", 5), ("", 1), ("Traditional", 2)),
                           heads, ("Any", "method"), pitch=54)
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.columns == ("School year", "Any method", "Modern method Female sterilization",
                             "Modern method Male sterilization", "Modern method Pill", "Modern method IUD",
                             "Modern method Condom/ Nirodh", "Other method", "Traditional Rhythm",
                             "Traditional Folk method")


FIELDS = [("Quote no.", "2025-08-06"), ("Customer", "Elm Street 51"), ("Valid until", "203-8787"),
          ("Contact", "Ms. Novak"), ("Total due", "12,480.00")]


def test_a_forms_lines_under_each_field_underline_no_label(tmp_path: Path) -> None:
    """Keys and values a little apart on a line drawn under each field (a quote's header
    block): every line has the same extent, the key and its value stand further apart than a
    word space, so no row is one label over both columns."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 75, 70.5, "Table 1", 10, "bold")
    at = 75 + max(width(key, 10) for key, _ in FIELDS) + 6  # the longest key 6 pt from its value
    put(page, at, 70.5, "Quote summary by customer", 10, "bold")
    for k, (key, value) in enumerate(FIELDS):
        y = 90 + 19.5 * k
        put(page, 75, y, key, 10)
        put(page, at, y, value, 10)
        page.draw_line((72, y + 4.5), (214, y + 4.5), width=0.5)
    path = tmp_path / "form.pdf"
    doc.save(path)
    (table,) = rowkeeper.extract(str(path)).tables
    assert [tuple(r) for r in table.rows][-4:] == FIELDS[1:]

"""Wrapped row labels in borderless tables (finder/label_tails.py): the lines a long first-column
label wraps onto belong to its record, group labels stay rows of their own."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, rows_page
from tests.transforms.pdf_docs import tables_of

HEADER = ("Measure", "2009", "2010", "2011")
XS = (72, 300, 380, 460)
RECORDS = [(["Data sets available"], ["47", "272,768", "389,933"]),
           (["Applications and mashups developed", "by the public and government"], ["0", "237", "1,079"]),
           (["Data set downloads"], ["0", "652,412", "2,348,928"]),
           (["Nations establishing open data", "sites"], ["0", "6", "21"]),
           (["States offering open data sites"], ["0", "8", "29"]),
           (["Cities in North America with open", "data sites"], ["0", "8", "11"])]
JOINED = [(" ".join(label), *values) for label, values in RECORDS]


def _table(path: Path, records: list[tuple[list[str], list[str]]], record_space: float, indent: float) -> Path:
    """A borderless table under a title and rules; each record's label lines 11 pt apart, the
    records `record_space` further apart, label tails indented by `indent`."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Table 3. Open data programme, key figures", 11, "bold")
    page.draw_line((72, 70), (520, 70))
    for x, text in zip(XS, HEADER, strict=True):
        put(page, x, 84, text)
    page.draw_line((72, 90), (520, 90))
    y = 104.0
    for label, values in records:
        for x, v in zip(XS[1:], values, strict=False):
            put(page, x, y, v)
        for k, line in enumerate(label):
            put(page, 72 + (indent if k else 0), y + 11 * k, line)
        y += 11 * len(label) + record_space
    page.draw_line((72, y - 6), (520, y - 6))
    put(page, 72, y + 20, "Source: agency reports. Figures are cumulative at the end of each fiscal year.")
    doc.save(path)
    return path


def test_label_lines_tight_under_records_that_stand_apart_join_their_record(tmp_path: Path) -> None:
    (table,) = tables_of(_table(tmp_path / "apart.pdf", RECORDS, record_space=5, indent=8))
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == JOINED


def test_lower_case_tails_join_their_record_at_one_pitch(tmp_path: Path) -> None:
    (table,) = tables_of(_table(tmp_path / "pitch.pdf", RECORDS, record_space=0, indent=0))
    assert [tuple(r) for r in table.rows] == JOINED


def test_group_labels_between_records_stay_rows(tmp_path: Path) -> None:
    """Capitalised label-only lines at the table's one pitch are group labels, not tails."""
    records = [(["Demographic assumptions"], []), (["Population"], ["1.2", "1.3", "1.4"]),
               (["Economic assumptions"], []), (["Inflation rate"], ["2.0", "2.1", "2.2"]),
               (["Unemployment rate"], ["5.1", "5.0", "4.9"]), (["Regional figures"], []),
               (["North"], ["3.3", "3.1", "3.0"]), (["South"], ["4.4", "4.2", "4.1"])]
    (table,) = tables_of(_table(tmp_path / "groups.pdf", records, record_space=0, indent=0))
    assert [r[0] for r in table.rows] == [label[0] for label, _ in records]


@pytest.mark.parametrize(("space", "indent"), [(0, 0), (5, 8)])
def test_a_group_label_wrapped_in_lower_case_is_one_row(tmp_path: Path, space: float, indent: float) -> None:
    """A group label too long for the first column wraps onto a line of its own that goes on
    in lower case (`Highest enrollment after bachelor's` / `degree by 2003`): one group label
    row over its records, not a second group label `degree by 2003`."""
    records = [(["Population"], ["1.2", "1.3", "1.4"]), (["Highest enrollment after bachelor's", "degree by 2003"], []),
               (["Master's degree"], ["37.9", "19.9", "30.0"]), (["Doctoral degree"], ["63.1", "43.7", "18.3"]),
               (["Highest degree earned by 2003"], []), (["Bachelor's degree"], ["32.3", "23.3", "36.2"]),
               (["Doctoral degree"], ["64.3", "44.1", "17.1"])]
    (table,) = tables_of(_table(tmp_path / "wrapped_group.pdf", records, record_space=space, indent=indent))
    assert [r[0] for r in table.rows] == [" ".join(label) for label, _ in records]
    assert list(table.rows[1]) == ["Highest enrollment after bachelor's degree by 2003", "", "", ""]


def test_a_record_whose_label_and_sentence_both_wrap_is_one_row(tmp_path: Path) -> None:
    """Both cells of a record run on to a second line, each starting in lower case there."""
    rows = [("Population", ["Projections are consistent with the census estimates"]),
            ("Disposable income per capita in|constant dollars",
             ["Annual percent changes range between -1.9% and 2.2%", "with an annual growth rate of 1.4%"]),
            ("Inflation rate", ["Inflation rate ranges between 1.0% and 2.0%"]),
            ("Unemployment rate", ["Remains between 5.3% and 7.9%"]),
            ("Men aged 18 and 19", ["Remains between 17.7% and 26.8%"])]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 40, 50, "Table A-1. Summary of forecast assumptions", 10, "bold")
    page.draw_line((40, 56), (560, 56))
    put(page, 40, 70, "Variable")
    put(page, 560, 70, "Assumption", align="right")
    y = 84.0
    for label, text in rows:
        for k, line in enumerate(label.split("|")):
            put(page, 40 + (8 if k else 0), y + 11 * k, line)
        for k, line in enumerate(text):
            put(page, 560, y + 11 * k, line, align="right")
        y += 11 * max(len(text), len(label.split("|"))) + 1
    path = tmp_path / "both.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == ("Variable", "Assumption")
    assert [tuple(r) for r in table.rows] == [(label.replace("|", " "), " ".join(text)) for label, text in rows]


def test_a_footnote_right_under_the_table_is_no_tail(tmp_path: Path) -> None:
    """A note marked "a" set tight under the last record stays out of the table."""
    records = [(["Data sets available"], ["47", "272,768", "389,933"]),
               (["Data set downloads"], ["0", "652,412", "2,348,928"]),
               (["States offering open data sites", "a data for 2011 are provisional"], ["0", "8", "29"])]
    (table,) = tables_of(_table(tmp_path / "note.pdf", records, record_space=5, indent=0))
    assert [r[0] for r in table.rows] == ["Data sets available", "Data set downloads", "States offering open data sites"]


def test_records_of_lower_case_identifiers_stay_rows(tmp_path: Path) -> None:
    """A data dictionary whose names and types are lower case: each line is its own record."""
    rows = [("Field", "Type", "Unit"), ("age", "integer", "years"), ("income", "decimal", "dollars"),
            ("region", "text", "none"), ("weight", "decimal", "kilograms"), ("height", "decimal", "metres")]
    (table,) = tables_of(rows_page(tmp_path / "fields.pdf", "Table 1. Fields of the survey file", rows, (72, 250, 400)))
    assert table.columns == rows[0]
    assert [tuple(r) for r in table.rows] == rows[1:]


def test_a_group_label_tight_under_a_wrapped_record_stays_a_row(tmp_path: Path) -> None:
    """"American Indian/Alaska" / "Native" / "Annual income ($)": the group label set tight
    under the wrapped label is not glued to the record above it."""
    records = [(["Asian/Pacific Islander"], ["1,604", "57", "39.9"]),
               (["American Indian/Alaska", "Native", "Annual income ($)"], ["378", "22", "36.1"]),
               (["24,999 or less"], ["49,240", "2,388", "45.1"]), (["25,000 to 49,999"], ["29,757", "1,913", "38.0"])]
    (table,) = tables_of(_table(tmp_path / "group.pdf", records, record_space=5, indent=0))
    labels = [r[0] for r in table.rows]
    assert "Annual income ($)" in labels
    assert not any(x.endswith("Annual income ($)") and x != "Annual income ($)" for x in labels)


@pytest.mark.parametrize("indent", [0, 2])
def test_a_label_broken_after_a_slash_takes_its_next_line_before_a_group_label(tmp_path: Path, indent: float) -> None:
    """"American Indian/" / "Alaska Native" / "Female": the record's label breaks off after its
    slash, so the line under it is its tail even with a group label set tight under both (two
    label-only lines before the white left it unclear which was whose)."""
    records = [(["Males"], []), (["Asian/Pacific Islander"], ["2,536", "95", "3.7"]),
               (["American Indian/", "Alaska Native", "Females"], ["348", "18", "5.3"]),
               (["White, non-Hispanic"], ["33,628", "1,536", "4.6"]), (["Hispanic"], ["5,523", "458", "8.3"])]
    (table,) = tables_of(_table(tmp_path / "slash.pdf", records, record_space=5, indent=indent))
    assert [r[0] for r in table.rows] == ["Males", "Asian/Pacific Islander", "American Indian/ Alaska Native",
                                          "Females", "White, non-Hispanic", "Hispanic"]
    assert tuple(table.rows[2]) == ("American Indian/ Alaska Native", "348", "18", "5.3")


def test_an_indented_tail_joins_its_record_before_a_group_label_set_out_at_the_margin(tmp_path: Path) -> None:
    """A stub of two levels: group labels at the margin, records indented, a record's wrapped
    line a little further in ("American Indian/Alaska" / "Native"), the next group label set
    tight under it at the margin ("Sex, by race/ethnicity"). The line at the record's indent is
    its tail; the one set out left of it is the next group's label."""
    lines = [(0, "Race/Ethnicity", [], 12), (8, "White, non-Hispanic", ["78,744", "3,174", "4.0"], 12),
             (8, "Hispanic", ["12,609", "966", "7.7"], 12),
             (8, "American Indian/Alaska", ["707", "51", "7.2"], 12), (10, "Native", [], 9),
             (0, "Sex, by race/ethnicity", [], 9), (8, "White, non-Hispanic", ["45,116", "1,638", "3.6"], 12),
             (8, "Hispanic", ["7,086", "508", "7.2"], 12)]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Table 1. Households in inadequate housing", 11, "bold")
    page.draw_line((72, 70), (520, 70))
    for x, text in zip(XS, ("Characteristic", "Total", "Number", "Percent"), strict=True):
        put(page, x, 84, text)
    page.draw_line((72, 90), (520, 90))
    y = 104.0
    for indent, label, values, step in lines:  # records stand apart, a label's lines tight
        y += step
        put(page, 72 + indent, y, label, 8)
        for x, v in zip(XS[1:], values, strict=False):
            put(page, x, y, v, 8)
    page.draw_line((72, y + 6), (520, y + 6))
    doc.save(tmp_path / "indent.pdf")
    (table,) = tables_of(tmp_path / "indent.pdf")
    assert [r[0] for r in table.rows] == ["Race/Ethnicity", "White, non-Hispanic", "Hispanic",
                                          "American Indian/Alaska Native", "Sex, by race/ethnicity",
                                          "White, non-Hispanic", "Hispanic"]
    assert tuple(table.rows[3]) == ("American Indian/Alaska Native", "707", "51", "7.2")


def test_the_grids_first_line_owns_no_tail() -> None:
    """A caption cut into the grid's first line (its words over two columns) and its wrapped
    second line tight under it are no record and its tail: the join leaves them rows, so the
    caption can still leave the table; a body record's tail still joins."""
    from rowkeeper.extractors.finder.label_tails import join_label_tails

    texts = [["Table 1. Operating", "costs per region,"], ["Quarterly figures by site", ""],
             ["Site", "Budget"], ["", ""],
             ["North", "1,200"], ["", ""],
             ["Central warehouse and", "2,400"], ["depots", ""], ["", ""],
             ["South", "900"]]
    rows = [[(0.0, 10.0 * i, 50.0, 10.0 * i + 8), (60.0, 10.0 * i, 90.0, 10.0 * i + 8)] for i in range(len(texts))]
    _, joined = join_label_tails(rows, texts)
    filled = [t for t in joined if any(t)]
    assert filled[:2] == [["Table 1. Operating", "costs per region,"], ["Quarterly figures by site", ""]]
    assert ["Central warehouse and depots", "2,400"] in filled


def test_the_last_records_tail_beside_prose_and_past_the_middle_joins_it(tmp_path: Path) -> None:
    """A small table in the right column of a two-column page: its last label wraps onto a
    line that runs past the table's middle (still short of the figures), and the left column's
    prose goes on level with it. That line is the last record's tail, not a line after the
    table (before, the prose beside it and its length both ended the table above it)."""
    doc = pymupdf.open()
    page = new_page(doc)
    prose = ["The amounts below apply to each payroll period of the year and are used with the",
             "tables that follow. Employers who withheld too much in one period may make an",
             "offsetting adjustment in a later pay period to correct any overwithholding that",
             "occurred, as long as the adjustment is made within the same calendar year and the",
             "employee is told of it in writing. Records of the adjustment are kept for four years."]
    rows = [("Weekly", "71.15"), ("Biweekly", "142.31"), ("Monthly", "308.33"), ("Quarterly", "925.00"),
            ("Annually", "3,700.00"), ("Daily or Miscellaneous", "14.23")]
    for k, line in enumerate(prose * 3):
        put(page, 42, 120 + 11 * k, line[:52], 8)
    put(page, 323, 110, "Payroll Period", 9, "bold")
    put(page, 537, 110, "Allowance", 9, "bold", align="right")
    page.draw_line((323, 114), (560, 114))
    y = 128.0
    for label, value in rows:
        put(page, 323, y, label)
        put(page, 537, y, value, align="right")
        y += 16.5
    put(page, 332, y - 16.5 + 11, "(each day of the payroll period)")
    put(page, 318, y + 14, "When employers use the percentage method tables for", 10)
    doc.save(tmp_path / "tail.pdf")
    (table,) = [t for t in tables_of(tmp_path / "tail.pdf") if "Payroll Period" in t.columns]
    assert table.columns == ("Payroll Period", "Allowance")
    assert len(table.rows) == len(rows)
    assert tuple(table.rows[-1]) == ("Daily or Miscellaneous (each day of the payroll period)", "14.23")

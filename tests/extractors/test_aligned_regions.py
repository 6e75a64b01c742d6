"""Runs of aligned text rows (borderless table candidates): line boxes without their leading
blanks, row-group labels after a wider gap, stacked tables."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.text_runs import aligned_regions
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from rowkeeper.extractors.text_layer import lines_of_dict, page_dict
from tests.extractors.helpers import doc_for


def test_line_box_starts_at_its_first_character_not_its_leading_blanks() -> None:
    """A monospace report indents a centred label with spaces; its box starts at the label."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), " " * 10 + "Design effect  ", fontname="cour", fontsize=10)
    (line,) = lines_of_dict(1, page_dict(page))
    assert line.text == "Design effect"
    assert abs(line.bbox[0] - (72 + 10 * 6.0)) < 0.5  # Courier: 0.6 em per character
    assert abs(line.bbox[2] - (72 + 23 * 6.0)) < 0.5


def _row(page: pymupdf.Page, y: float, cells: tuple[str, ...], x0: float = 72) -> None:
    for j, text in enumerate(cells):
        page.insert_text((x0 if j == 0 else 300 + 60 * j, y), text, fontsize=9)


def test_group_label_after_a_wider_gap_stays_in_the_table(tmp_path: Path) -> None:
    """'Wealth index' alone in the first column, a little more than a row pitch and a half below
    the last row, labels the rows under it: one table, the label a row of it; a long label
    counts too while it ends in the left half of the table."""
    doc = pymupdf.open()
    page = doc.new_page()
    _row(page, 100, ("Characteristic", "Any", "Modern", "Total"))
    y = 118.0
    groups = (("Caste", ("Scheduled", "Tribe", "Backward", "Other")),
              ("Wealth index", ("Lowest", "Second", "Fourth", "Highest")),
              ("Postsecondary degree-granting institutions",
               ("Total enrollment", "Current expenditures per pupil in fall enrollment", "Men", "Women")))
    for group, rows in groups:
        page.insert_text((72, y), group, fontsize=9)
        y += 11
        for k, label in enumerate(rows):
            _row(page, y, (label, f"7{k}.1", f"5{k}.8", "100.0"), x0=72)
            y += 11
        y += 6  # the gap before the next group label: 17 pt against an 11 pt pitch
    path = tmp_path / "groups.pdf"
    doc.save(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert len(tables) == 1
    firsts = [r[0] for r in tables[0].grid()]
    assert firsts == ["Characteristic"] + [x for g, rows in groups for x in (g, *rows)]


def test_centred_heading_after_a_gap_starts_the_next_stacked_table() -> None:
    """Two monospace tables one under the other, each under a heading indented with blanks:
    the heading does not start in the first column, so the second table is a region of its own."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 100.0
    for block in (("1.0", "1.1", "1.2"), ("1.7", "1.8", "1.9")):
        page.insert_text((72, y), " " * 20 + "Design effect", fontname="cour", fontsize=10)
        y += 12.7
        page.insert_text((72, y), "Proportion    " + "   ".join(block), fontname="cour", fontsize=10)
        for p in ("0.99", "0.95", "0.90", "0.85", "0.80"):
            y += 12.7
            page.insert_text((72, y), f"{p:<10}    {800:>3}   {880:>3}   {960:>3}", fontname="cour", fontsize=10)
        y += 12.7 * 2.1
    regions, _, _ = aligned_regions(lines_of_dict(1, page_dict(page)))
    assert len(regions) == 2


BORDERLESS = [("Region", "Units", "Revenue", "Margin"), ("North", "120", "4,300", "12.5"),
              ("South", "95", "3,150", "9.8"), ("East", "240", "8,020", "14.1"), ("West", "61", "1,990", "7.7")]


def test_rotate_page_whose_sideways_text_displays_upright(tmp_path: Path) -> None:
    """Text written sideways and a /Rotate that turns it upright for the reader: the text dict,
    words and rulings are in unrotated (sideways) space, so the page is read on an upright copy
    like any sideways page, not as columns of one-character rows."""
    src = pymupdf.open()
    land = src.new_page(width=792, height=612)
    for i, row in enumerate(BORDERLESS):
        for j, text in enumerate(row):
            land.insert_text((100 + 110 * j, 120 + 14 * i), text, fontsize=10)
    out = pymupdf.open()
    page = out.new_page(width=612, height=792)
    page.show_pdf_page(pymupdf.Rect(0, 0, 612, 792), src, 0, rotate=90)
    from rowkeeper.extractors.upright import upright_rotation

    want = upright_rotation(page_dict(page), 0)
    assert want in (90, 270)
    page.set_rotation(want)  # now the reader sees it upright
    path = tmp_path / "rotated.pdf"
    out.save(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [[tuple(r) for r in t.grid()] for t in tables] == [BORDERLESS]


def test_section_heading_in_larger_print_ends_the_table(tmp_path: Path) -> None:
    """'3.3  Measuring Financial Literacy' in larger print two lines under the table has two
    segments like a row, but is no row of it: the table's column gaps stay open."""
    doc = pymupdf.open()
    page = doc.new_page()
    rows = [("", "Freq.", "Percent", "Mean Loss"), ("I/we kept the assets", "344", "75.2", "12196"),
            ("I/we sold some of the assets", "53", "11.6", "23518"), ("I/we sold all of them", "61", "13.2", "9187"),
            ("Total", "458", "100.0", "13153")]
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((80 if j == 0 else 230 + 70 * (j - 1), 130 + 12 * i), text, fontsize=9)
    page.insert_text((73, 130 + 12 * 4 + 30), "3.3", fontsize=13)
    page.insert_text((110, 130 + 12 * 4 + 30), "Measuring Financial Literacy", fontsize=13)
    path = tmp_path / "heading.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    grid = [tuple(r) for r in table.grid()]
    assert grid[-4:] == rows[1:]


def test_caption_over_the_columns_is_no_row_of_the_table() -> None:
    """'Table 15.' and its sentence print as two segments like a row; the sentence runs across
    several cells of the rows below, so the region starts at the table's header. A description
    column (one cell per row) keeps its first row."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((36, 60), "Table 15.", fontsize=9)
    page.insert_text((84, 60), "Actual and projected percentage changes in public high school graduates, by region",
                     fontsize=9)
    rows = [("Region and state", "2008", "2015", "2021"), ("United States", "10.4", "0.9", "3.8"),
            ("Northeast", "13.9", "-0.4", "0.3"), ("Maine", "6.1", "-10.6", "-3.2"), ("Ohio", "5.8", "-7.0", "6.5")]
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((36 if j == 0 else 190 + 90 * j, 80 + 11 * i), text, fontsize=9)
    (region,), _, _ = aligned_regions(lines_of_dict(1, page_dict(page)))
    assert region[1] > 62  # below the caption's baseline

    doc = pymupdf.open()
    page = doc.new_page()
    described = [("Variable", "Assumption"), ("Inflation rate", "Inflation rate ranges between 1.4% and 2.3% each year"),
                 ("Ages 18 and 19", "Remains between 17.7% and 19.1%"), ("Ages 20 to 24", "Remains between 10.8%"),
                 ("Age 25 and over", "Remains between 5.3% and 6.0%")]
    for i, (label, text) in enumerate(described):
        page.insert_text((40, 80 + 11 * i), label, fontsize=9)
        page.insert_text((565 - pymupdf.get_text_length(text, fontsize=9), 80 + 11 * i), text, fontsize=9)
    (region,), _, _ = aligned_regions(lines_of_dict(1, page_dict(page)))
    assert region[1] < 75  # the header row is in


def test_table_beside_running_text_of_the_next_page_column(tmp_path: Path) -> None:
    """A table in the left column of a two-column page, prose at its own line pitch in the
    right column: the prose lines fall level with and between the table's rows, yet the table
    is one table of its own columns, without the prose."""
    doc = pymupdf.open()
    page = doc.new_page()
    rows = [("State/Area", "no.", "Rate", "(95% CI)")] + [
        (name, f"{1000 + 37 * k:,}", f"{190.5 - 3 * k:.1f}", f"({180.2 - 3 * k:.1f}-{200.8 - 3 * k:.1f})")
        for k, name in enumerate(("Columbia", "New York", "Oklahoma", "Tennessee", "Rhode Island", "Arkansas",
                                  "Michigan", "Missouri", "Ohio", "Kentucky", "Iowa", "Texas"))]
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((45 if j == 0 else 60 + 55 * j, 100 + 10.9 * i), text, fontsize=7)
    sentence = "the promotion of cardiovascular health through preventing"
    for i in range(14):
        page.insert_text((323, 96 + 10 * i), sentence, fontsize=8)
    path = tmp_path / "two_columns.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == rows


def test_single_lines_over_a_two_column_table_are_its_header(tmp_path: Path) -> None:
    """'2016' alone over the figures, '(all amounts in EUR)' and 'Class A' alone in the first
    column, each a line spacing above the next: the table's header and first group label,
    not text before it. The title a wider gap above stays out."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((71, 100), "Key figures", fontsize=15)
    right = 536.0

    def figure(y: float, text: str) -> None:
        page.insert_text((right - pymupdf.get_text_length(text, fontsize=9), y), text, fontsize=9)

    figure(150, "2016")
    page.insert_text((71, 165), "(all amounts in EUR)", fontsize=9)
    page.insert_text((71, 187), "Class A", fontsize=9)
    body = [("Net Asset Value at 31 December", "5,111,372"), ("Number of outstanding units", "49,136"),
            ("Net Asset Value per unit", "104.03"), ("Costs", "(106,870)")]
    for i, (label, value) in enumerate(body):
        page.insert_text((71, 209 + 22 * i), label, fontsize=9)
        figure(209 + 22 * i, value)
    (region,), _, _ = aligned_regions(lines_of_dict(1, page_dict(page)))
    assert 130 < region[1] < 145  # from "2016" down, "Key figures" left out


def test_labels_beside_sentences_are_rows_of_a_two_column_table(tmp_path: Path) -> None:
    """An assumptions table: labels of 26-40 characters beside right-aligned sentences. Each row
    has one segment that is no running text, so the rows are table rows (two columns of prose
    have running text on both sides)."""
    from tests.extractors.finder.layout import new_page, put
    from tests.transforms.pdf_docs import tables_of

    rows = [("Variable", "Assumption"),
            ("Population", "Projections are consistent with the Census Bureau estimates"),
            ("18- to 24-year-old population", "Census Bureau projection: average annual growth rate of 0.1%"),
            ("25- to 29-year-old population", "Census Bureau projection: average annual growth rate of 0.6%"),
            ("30- to 34-year-old population", "Census Bureau projection: average annual growth rate of 1.3%"),
            ("Education revenue receipts per capita", "Annual changes range between -2.4% and 2.3% a year"),
            ("Inflation rate", "Inflation rate ranges between 1.0% and 2.0%")]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 40, 50, "Table A-1. Summary of forecast assumptions", 10, "bold")
    page.draw_line((40, 56), (560, 56))
    for i, (label, text) in enumerate(rows):
        put(page, 40, 70 + 12 * i, label)
        put(page, 560, 70 + 12 * i, text, align="right")
    path = tmp_path / "assumptions.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == rows[0]
    assert [tuple(r) for r in table.rows] == rows[1:]

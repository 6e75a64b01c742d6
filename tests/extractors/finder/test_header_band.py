"""The header row over a borderless table that prints as one long text line
(finder/header_band.py): labels set a word space apart are no prose, and stay the table's
column names; a heading or a prose line over a table does not become its header."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.header_band import header_band
from tests.extractors.finder.layout import grids, new_page, put, width
from tests.transforms.pdf_docs import tables_of

HEADERS = {
    "vi": ["Hạng mục", "Nhà cung cấp", "Công suất [kW]", "Chi phí [VNĐ]", "Điểm"],
    "en": ["Item", "Supplier name", "Power output [kW]", "Unit cost [EUR]", "Score"],
}
KINDS = ["Dây chuyền", "Nhà máy", "Cửa hàng", "Văn phòng"]


def _table(path: Path, labels: list[str], above: str | None = None, above_y: float = 104,
           above_size: float = 10, caption: str | None = None) -> Path:
    """A text column, a left-aligned text column, then figure columns right-aligned under
    right-aligned labels whose gaps are a little wider than a word space (bold header)."""
    rnd = random.Random(5)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "1. Overview", 14, "bold")
    if above:
        put(page, 60, above_y, above, above_size)
    if caption:
        put(page, 60, 113, caption, 10, "bold")
    x_text = 200.0
    rights = [x_text + width(labels[1], 10, "bold")]
    for label in labels[2:]:
        rights.append(rights[-1] + 6 + max(width(label, 10, "bold"), 48))
    y = 130.0
    put(page, 60, y, labels[0], 10, "bold")
    put(page, x_text, y, labels[1], 10, "bold")
    for x, label in zip(rights[1:], labels[2:], strict=True):
        put(page, x, y, label, 10, "bold", "right")
    for i in range(8):
        y += 17
        put(page, 60, y, f"{rnd.randint(1000, 9999)} Site {i}", 10)
        put(page, x_text, y, KINDS[i % 4], 10)
        for x in rights[1:]:
            put(page, x, y, f"{rnd.randint(100, 999)}.{rnd.randint(100, 999)}", 10, align="right")
    doc.save(path)
    return path


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_header_printed_as_one_long_line_names_the_columns(tmp_path: Path, lang: str) -> None:
    (t,) = tables_of(_table(tmp_path / "t.pdf", HEADERS[lang]))
    assert t.columns == tuple(HEADERS[lang])
    assert len(t.rows) == 8 and t.rows[0][1] == "Dây chuyền"


def test_a_prose_line_over_the_table_is_no_header(tmp_path: Path) -> None:
    sentence = "The figures below were checked by the control department in March."
    (t,) = tables_of(_table(tmp_path / "t.pdf", HEADERS["en"], above=sentence))
    assert t.columns == tuple(HEADERS["en"])
    assert all(sentence not in " ".join(r) for r in t.rows)


def test_the_last_line_of_a_paragraph_over_a_captioned_table_is_no_header(tmp_path: Path) -> None:
    """A caption then the header, right under a paragraph in larger print: the paragraph's
    last line is one phrase in its own print, and no header row of the table."""
    labels = ["Photo", "Site", "Lead time [days]", "Cost [USD]", "Revenue [USD]"]
    path = _table(tmp_path / "t.pdf", labels, above="slightly from the sum of the rows.", above_y=96,
                  above_size=12, caption="Table 1 – Headcount and budget")
    (t,) = tables_of(path)
    assert t.caption == "Table 1 – Headcount and budget"
    assert t.columns == tuple(labels)


def _words(line: list[tuple[float, str]], y: float, size: float, char: float) -> list[tuple]:
    """Word tuples of one printed line: (x, text) each, `char` points a character."""
    return [(x, y, x + char * len(t), y + size, t, 0, 0, 0) for x, t in line]


BODY = [w for i in range(4) for w in _words([(60, f"Site {i}"), (160, "412,118"), (240, "9,301")],
                                             130 + 13 * i, 7.5, 3.8)]
EDGES = [60.0, 150.0, 230.0, 270.0]


def test_header_band_takes_labels_apart_by_more_than_a_word_space() -> None:
    labels = _words([(60, "Site"), (160, "Budget"), (186.8, "[USD]"), (240, "Score")], 117, 7.5, 3.8)
    assert [w[4] for w in header_band(labels, BODY, EDGES)] == ["Site", "Budget", "[USD]", "Score"]


def test_header_band_leaves_prose_in_larger_print_and_a_line_far_up() -> None:
    # word spaces of 3.6 points in 9-point print: wider than the table's gap, one phrase all the same
    prose = _words([(60, "slightly"), (90.0, "from"), (109.2, "the"), (124.8, "sum"), (144.6, "of"),
                    (156.0, "the"), (171.6, "rows.")], 116, 9.0, 4.5)
    assert header_band(prose, BODY, EDGES) == []
    far = _words([(60, "Site"), (160, "Budget"), (240, "Score")], 90, 7.5, 3.8)
    assert header_band(far, BODY, EDGES) == []


UNIT_LABELS = ["Item", "Category", "Headcount", "Volume (m3)", "Power (kW)", "Share (%)", "Lead time"]


def _ruled_below_header(path: Path, labels: list[str]) -> Path:
    """A table ruled between its rows only, the first rule under the header row (none over
    it), right-aligned figure columns under right-aligned labels set a few points apart (the
    header prints as one text line)."""
    rnd = random.Random(7)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "1. Evaluation", 14, "bold")
    put(page, 60, 193, "Table 1 Supplier overview, operating costs per region", 9.5)
    rights = [177 + width(labels[1], 9.5) + 6 + width(labels[2], 9.5)]
    for label in labels[3:]:
        rights.append(rights[-1] + 6 + width(label, 9.5))
    y = 213.0
    put(page, 63, y, labels[0], 9.5)
    put(page, 177, y, labels[1], 9.5)
    for x, label in zip(rights, labels[2:], strict=True):
        put(page, x, y, label, 9.5, align="right")
    for i in range(8):
        page.draw_line((60, y + 6.5), (rights[-1] + 3, y + 6.5), width=0.5)
        y += 20.6
        put(page, 63, y, f"{rnd.randint(1000, 9999)} Cedar Park depot", 9.5)
        put(page, 177, y, KINDS[i % 4].split()[0], 9.5)
        for x in rights:
            put(page, x, y, f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}", 9.5, align="right")
    page.draw_line((60, y + 6.5), (rights[-1] + 3, y + 6.5), width=0.5)
    doc.save(path)
    return path


def test_a_unit_with_a_digit_in_brackets_leaves_the_header_a_header(tmp_path: Path) -> None:
    """`(m3)` has as many digits as letters, but in brackets after a label it is a unit: the
    header row over the first rule stays the table's column names."""
    (t,) = tables_of(_ruled_below_header(tmp_path / "t.pdf", UNIT_LABELS))
    assert t.columns == tuple(UNIT_LABELS)
    assert len(t.rows) == 8 and t.rows[0][1] == "Dây"


def test_header_band_keeps_units_in_brackets_and_drops_a_paragraph_beside() -> None:
    labels = _words([(60, "Site"), (160, "Volume"), (186.8, "[m3]"), (240, "Score")], 117, 7.5, 3.8)
    assert [w[4] for w in header_band(labels, BODY, EDGES)] == ["Site", "Volume", "[m3]", "Score"]
    # the first words of a paragraph set beside the table, a gutter right of its last column
    beside = _words([(290, "Costs"), (315, "include")], 116, 7.5, 3.8)
    assert [w[4] for w in header_band(labels + beside, BODY, EDGES)] == ["Site", "Volume", "[m3]", "Score"]
    # a figure (a table stacked above) is no header; nor a line run on past the side at a word space
    assert header_band(_words([(60, "Site"), (160, "412,118"), (240, "9,301")], 117, 7.5, 3.8), BODY, EDGES) == []
    across = _words([(60, "Site"), (160, "Budget"), (240, "Score"), (262, "and"), (279, "more")], 117, 7.5, 3.8)
    assert header_band(across, BODY, EDGES) == []


def test_a_paragraph_level_with_the_header_leaves_it_the_tables(tmp_path: Path) -> None:
    """A borderless (zebra) table with a header set tight and a paragraph beside it whose
    first line stands level with the header row: the header's line, read with a strip of
    margin, takes in the paragraph's first word; that word stands a gutter apart and is no
    label, and the header stays."""
    labels = ["Location", "Cost [USD]", "Revenue [USD]", "Share [%]"]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "1. Overview", 14, "bold")
    put(page, 72, 229, "Table 1 Regional costs", 9, "bold")
    rights = [165 + width(labels[1], 8)]
    for label in labels[2:]:
        rights.append(rights[-1] + 4 + width(label, 8))
    y = 243.0
    put(page, 74, y, labels[0], 8)
    for x, label in zip(rights, labels[1:], strict=True):
        put(page, x, y, label, 8, align="right")
    rnd = random.Random(3)
    for i in range(8):
        y += 10.5
        if i % 2 == 0:
            page.draw_rect(pymupdf.Rect(72, y - 7.5, rights[-1] + 2, y + 3), color=None, fill=(0.9, 0.9, 0.9))
        put(page, 74, y, f"{rnd.randint(1000, 9999)} Hue {i}", 8)
        for x in rights:
            put(page, x, y, f"{rnd.randint(100, 999)}.{rnd.randint(100, 999)}", 8, align="right")
    prose = ["and services but exclude depreciation", "of the sites that opened during the",
             "year, which are included from their", "first full month of operation. The",
             "figures below were checked by the", "controlling team in March. Values",
             "are rounded; totals may differ."]
    for k, line in enumerate(prose):
        put(page, rights[-1] + 16, 242 + 13.5 * k, line, 8)
    path = tmp_path / "t.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == tuple(labels)
    assert len(t.rows) == 8
    assert all("and" not in " ".join(r).split() for r in t.rows)


def _mono(page: pymupdf.Page, x: float, y: float, text: str, right: bool = False) -> None:
    """`text` in 8-point Courier on baseline `y`, starting at `x` or ending there."""
    if right:
        x -= pymupdf.get_text_length(text, fontname="cour", fontsize=8)
    page.insert_text((x, y), text, fontsize=8, fontname="cour")


def test_a_monospaced_sentence_right_over_the_header_is_no_header(tmp_path: Path) -> None:
    """A page set in a monospaced face: a note a row pitch over a table whose header row
    stands apart (labels over wide columns). The note's word spaces are a character wide, as
    wide as a column gap, so it reads as many phrases; it ends a clause ("...month."), and is
    no header of the table."""
    labels = ["Item", "Revenue", "Margin", "Volume", "Unit price", "Staff"]
    rights = [260.0, 330.0, 400.0, 470.0, 530.0]
    rnd = random.Random(11)
    doc = pymupdf.open()
    page = new_page(doc, width=842, height=595)
    put(page, 36, 80, "Evaluation", 12, "bold")
    _mono(page, 36, 104, "Sites opened during the year count from their first full month.")
    y = 117.0
    _mono(page, 39, y, labels[0])
    for x, label in zip(rights, labels[1:], strict=True):
        _mono(page, x, y, label, right=True)
    for _ in range(8):
        y += 13
        _mono(page, 39, y, f"Cedar Park depot {rnd.randint(1000, 9999)}")
        for x in rights:
            _mono(page, x, y, f"{rnd.randint(10, 99)}.{rnd.randint(100, 999)},{rnd.randint(1, 9)}", right=True)
    (grid,) = grids(doc, tmp_path / "noted.pdf")
    assert grid[0] == labels and len(grid) == 9
    (t,) = tables_of(tmp_path / "noted.pdf")
    assert t.columns == tuple(labels)
    assert len(t.rows) == 8 and all("month." not in " ".join(r) for r in t.rows)


def test_header_band_leaves_a_line_ending_a_clause() -> None:
    note = _words([(60, "Sites"), (83, "open"), (102, "by"), (113, "May."), (135, "Budget"), (240, "Score.")],
                  117, 7.5, 3.8)
    assert header_band(note, BODY, EDGES) == []


PARAGRAPH = ("This table gives the number and the share of households who gave each answer to the",
             "question on their savings. The mean loss and the share of wealth lost are given",
             "for each group of the households.")
LABELS = ("", "Freq.", "Percent", "Mean loss", "Share of")
CAPTION = "Table 1: Households' answers"


def _under_paragraph(path: Path, face: str, caption_gap: float | None = None) -> Path:
    """A paragraph whose last, short line sits right on the rule over a table (its descenders
    touch the rule): rules over and under the header and under the body, one column rule after
    the stub, a two-line label over the last column; with `caption_gap`, a caption in larger
    print over the paragraph, its baseline that far over the paragraph's first baseline."""
    doc = pymupdf.open()
    page = new_page(doc)
    if caption_gap is not None:
        put(page, 200, 100 - caption_gap, CAPTION, 12, face)
    for i, line in enumerate(PARAGRAPH):
        put(page, 72, 100 + 11 * i, line, 9.5, face)
    top = 100 + 11 * 2 + 3.0  # the descender line of the paragraph's last line
    xs = (72.0, 220.0, 290.0, 360.0, 440.0)
    for y in (top, top + 24, top + 26, top + 90):
        page.draw_line((66, y), (520, y), width=0.4)
    page.draw_line((214, top), (214, top + 90), width=0.4)
    for x, label in zip(xs, LABELS, strict=True):
        put(page, x, top + 9.5, label, 9.5, face)
    put(page, xs[-1], top + 21, "wealth lost", 9.5, face)
    answers = ("We kept the assets", "We sold some of them", "We sold all of them", "We bought more")
    for i, answer in enumerate(answers):
        y = top + 37 + 12 * i
        for x, text in zip(xs, (answer, str(300 - 70 * i), f"{60 - 13 * i}.{i}", str(12000 + 997 * i),
                                f"{17 + i}.{i}%"), strict=True):
            put(page, x, y, text, 9.5, face)
    doc.save(path)
    return path


@pytest.mark.parametrize("face", ["serif", "sans"])
def test_a_paragraphs_last_line_on_the_top_rule_is_no_row(tmp_path: Path, face: str) -> None:
    """The paragraph's last line is no header row (it names no column out to the table's right
    side), and no glyph of it that touches the table's area is read into its first row."""
    (t,) = tables_of(_under_paragraph(tmp_path / "t.pdf", face))
    assert t.columns == ("", "Freq.", "Percent", "Mean loss", "Share of wealth lost")
    assert len(t.rows) == 4 and t.rows[0][0] == "We kept the assets"
    assert all("households" not in cell for row in t.rows for cell in row)


def test_a_caption_over_the_tables_lead_in_paragraph_names_the_table(tmp_path: Path) -> None:
    """`Table 1: ...`, then a paragraph set tight under it saying what the table holds, then
    the table right under the paragraph: the caption is the table's, three rows up."""
    (t,) = tables_of(_under_paragraph(tmp_path / "t.pdf", "serif", caption_gap=12.0))
    assert t.caption == CAPTION
    assert len(t.rows) == 4


def test_a_caption_a_blank_line_over_the_paragraph_is_not_taken_across_it(tmp_path: Path) -> None:
    """The same caption with a blank line between it and the paragraph: the paragraph is
    running text, and the caption, three rows up past it, is not read as the table's."""
    (t,) = tables_of(_under_paragraph(tmp_path / "t.pdf", "serif", caption_gap=26.0))
    assert t.caption is None

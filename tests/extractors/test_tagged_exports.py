"""The tagged layer on the shapes real exporters write (Word, LibreOffice, InDesign, Acrobat,
Chrome/Skia, Prince, LaTeX tagpdf): turned pages, a Table over several pages, Caption elements,
cells left out of the tags, note rows (PDFs written by tests/tagged_pdf.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.api import extract
from tests.extractors.test_tagged_tables import HEAD, PROSE, _body, _head, _sales, _tagged_attempts
from tests.tagged_pdf import TCell, TPara, TTable, write_tagged_pdf


def test_a_table_on_a_turned_page_is_read_from_its_tags(tmp_path: Path) -> None:
    # a landscape media box turned by /Rotate 90, its content drawn sideways: upright as shown
    body = [[TCell("North", 60, 100, row_span=2), TCell("1,200", 220, 100), TCell("2,300", 320, 100)],
            [TCell("1,310", 220, 120), TCell("2,410", 320, 120)],
            [TCell("South", 60, 140), TCell("2,340", 220, 140), TCell("2,500", 320, 140)]]
    rec = extract(write_tagged_pdf(tmp_path / "turned.pdf", [TTable([HEAD, *body], head_rows=1)], [PROSE], rotate=90))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("Region", "Q1", "Q2")
    assert table.rows == (("North", "1,200", "2,300"), ("North", "1,310", "2,410"), ("South", "2,340", "2,500"))
    north = next(c for c in table.cells if c.text == "North")
    assert north.row_span == 2
    # boxes in the page's unrotated coordinates, as every layer gives them: the column of the
    # row heads lies at the right of the landscape media box
    assert north.bbox[0] < north.bbox[2] < 120 and north.bbox[1] > 500


CAPTION_SHAPES = {
    "a Caption kid of the Table, above it": dict(caption=TPara(["Quarterly sales by region"], 60, 50)),
    "a Caption kid of the Table, under it": dict(caption=TPara(["Quarterly sales by region"], 60, 190)),
    "a Caption element beside the Table": dict(caption=TPara(["Quarterly sales by region"], 60, 50), caption_beside=True),
}


@pytest.mark.parametrize("shape", sorted(CAPTION_SHAPES))
def test_the_caption_element_is_the_tables_caption(tmp_path: Path, shape: str) -> None:
    # no "Table N" in it: the caption finder takes no such line, the tags say it is the caption
    table = TTable([_head(), *_body()], head_rows=1, **CAPTION_SHAPES[shape])
    rec = extract(write_tagged_pdf(tmp_path / "caption.pdf", [table], [TPara(["Sales rose in every region."], 60, 300)]))
    (read,) = rec.tables
    assert read.extractor == "tagged" and read.columns == ("Region", "Q1", "Q2")
    assert read.caption == "Quarterly sales by region"
    assert len(read.rows) == 4


def _three_pages(repeat: str) -> tuple[TTable, list[TPara]]:
    """One Table element over three pages, its header repeated on the next pages as `repeat`
    says: "none", "TRs" (real rows of TH in the Table) or "artifact" (printed, not tagged)."""
    again = [[TCell(c.text, c.x, 30, page, tag="TH") for c in HEAD] for page in (1, 2)]
    top = 30 if repeat == "none" else 50
    rows = [HEAD, *_sales(0, 100, 5), *([again[0]] if repeat == "TRs" else []), *_sales(1, top, 7, start=5),
            *([again[1]] if repeat == "TRs" else []), *_sales(2, top, 5, start=12)]
    shown = [TPara([c.text], c.x, 30, page=page) for page in (1, 2) for c in HEAD] if repeat == "artifact" else []
    table = TTable(rows, head_rows=1)
    return table, shown


@pytest.mark.parametrize("repeat", ["none", "TRs", "artifact"])
def test_one_table_element_over_three_pages_is_one_table_with_its_header_once(tmp_path: Path, repeat: str) -> None:
    table, shown = _three_pages(repeat)
    pdf = write_tagged_pdf(tmp_path / "three.pdf", [table], [PROSE], pages=3, height=220, artifacts=shown)
    rec = extract(pdf)
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (read,) = rec.tables
    assert read.pages == (1, 2, 3) and read.columns == ("Region", "Q1", "Q2")
    assert [r[0] for r in read.rows] == [f"Region {i}" for i in range(17)]


def test_row_heads_tagged_th_without_scope_are_the_body_and_the_empty_corner_is_no_cell(tmp_path: Path) -> None:
    # the header's empty corner cell not written at all; each body row opens with a TH (no Scope)
    head = [TCell("Q1", 220, 80, tag="TH"), TCell("Q2", 320, 80, tag="TH")]
    body = [[TCell(f"Region {i}", 60, 100 + 20 * i, tag="TH"), TCell(f"{1200 + i}", 220, 100 + 20 * i),
             TCell(f"{2300 + i}", 320, 100 + 20 * i)] for i in range(4)]
    (table,) = extract(write_tagged_pdf(tmp_path / "row_heads.pdf", [TTable([head, *body])], [PROSE])).tables
    assert table.extractor == "tagged" and table.header_rows == 1
    assert table.columns == ("", "Q1", "Q2")
    assert table.rows == tuple((f"Region {i}", f"{1200 + i}", f"{2300 + i}") for i in range(4))


def test_empty_cells_left_out_of_every_row_are_laid_by_x(tmp_path: Path) -> None:
    # no row writes all its cells (an empty one left out of the tags in each, the corner too):
    # the rows count fewer cells than the table has columns
    xs = (60, 220, 320, 420)
    head = [TCell(t, x, 80, tag="TH") for t, x in zip(("Q1", "Q2", "Q3"), xs[1:], strict=True)]
    body = [[TCell("North", 60, 100, tag="TH", row_span=2), TCell("1,200", 220, 100), TCell("3,400", 420, 100)],
            [TCell("1,310", 220, 120), TCell("2,410", 320, 120)]]
    for i in range(3):
        row = [TCell(f"Region {i}", 60, 140 + 20 * i, tag="TH"),
               *[TCell(f"{k}{i}0", x, 140 + 20 * i) for k, x in enumerate(xs[1:], start=1) if k != i + 1]]
        body.append(row)
    rec = extract(write_tagged_pdf(tmp_path / "sparse.pdf", [TTable([head, *body])], [PROSE]))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("", "Q1", "Q2", "Q3")
    assert table.rows[:2] == (("North", "1,200", "", "3,400"), ("North", "1,310", "2,410", ""))
    assert table.rows[2:] == (("Region 0", "", "200", "300"), ("Region 1", "110", "", "310"),
                              ("Region 2", "120", "220", ""))


def test_group_labels_over_column_pairs_stand_over_their_pairs_when_the_corner_is_left_out(tmp_path: Path) -> None:
    # each label's ColSpan 2, its text nearer the second column of its pair than the first
    xs = (60, 160, 240, 320, 400)
    groups = [TCell("2023", 215, 70, tag="TH", col_span=2), TCell("2024", 375, 70, tag="TH", col_span=2)]
    head = [TCell(t, x, 85, tag="TH") for t, x in zip(("H1", "H2", "H1", "H2"), xs[1:], strict=True)]
    body = [[TCell(f"Region {i}", 60, 105 + 20 * i), *[TCell(f"{k}{i}", x, 105 + 20 * i) for k, x in enumerate(xs[1:], 1)]]
            for i in range(4)]
    rec = extract(write_tagged_pdf(tmp_path / "pairs.pdf", [TTable([groups, head, *body], head_rows=2)],
                                   [TPara(["Sales rose in every region."], 60, 300)]))
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert table.columns == ("", "2023 H1", "2023 H2", "2024 H1", "2024 H2")
    assert table.rows[0] == ("Region 0", "10", "20", "30", "40")


def test_a_note_in_the_last_row_of_the_table_is_its_footnote_not_a_row(tmp_path: Path) -> None:
    # an export's footnote set as a TR of one TD at the end of the Table, across the columns
    note = [TCell("** Figures for the last quarter are provisional", 60, 180)]
    rec = extract(write_tagged_pdf(tmp_path / "note.pdf", [TTable([_head(), *_body(), note], head_rows=1)], [PROSE]))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("Region", "Q1", "Q2")
    assert [r[0] for r in table.rows] == [f"Region {i}" for i in range(4)]
    assert table.footnotes == ("** Figures for the last quarter are provisional",)


def test_a_table_element_continued_after_a_page_break_far_above_the_foot_is_one_table(tmp_path: Path) -> None:
    # the page breaks before a row that does not fit (Word moves a tall row whole): the first
    # page's piece ends half way down, yet the tags say the next page's rows are the same Table
    page2 = [[TCell(f"Region {i}", 60, 30 + 20 * (i - 4), 1), TCell(f"{1200 + 37 * i:,}", 220, 30 + 20 * (i - 4), 1),
              TCell(f"{2300 + 41 * i:,}", 320, 30 + 20 * (i - 4), 1)] for i in range(4, 8)]
    table = TTable([_head(), *_body(4), *page2], head_rows=1)
    rec = extract(write_tagged_pdf(tmp_path / "break.pdf", [table], [PROSE], pages=2, height=420))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (read,) = rec.tables
    assert read.pages == (1, 2) and read.columns == ("Region", "Q1", "Q2")
    assert [r[0] for r in read.rows] == [f"Region {i}" for i in range(8)]


@pytest.mark.parametrize("below", [False, True], ids=["captions before their tables", "captions after their tables"])
def test_caption_elements_between_two_tables_go_one_to_each(tmp_path: Path, below: bool) -> None:
    tables = [TTable([[TCell(t, x, top + 10, tag="TH") for t, x in (("Region", 60), ("Q1", 220), ("Q2", 320))],
                      *_body(3, top + 30)], head_rows=1, caption_beside=True,
                     caption=TPara([f"Sales of the {name} offices"], 60, top + (100 if below else -10)))
              for name, top in (("northern", 80), ("southern", 260))]
    rec = extract(write_tagged_pdf(tmp_path / "two.pdf", tables, [TPara(["Sales rose in every region."], 60, 500)]))
    assert [t.caption for t in rec.tables] == ["Sales of the northern offices", "Sales of the southern offices"]


def test_a_sheet_printed_across_pages_keeps_each_pages_rows(tmp_path: Path) -> None:
    # a spreadsheet export prints a wide sheet's columns over several pages: one Table element
    # whose every TR holds cells on each page. The last row of a page is the same TR as a row
    # of the next page, and no row the page break cut: each page keeps its own cells
    names = [("Region", "Q1", "Q2"), ("Region", "Q3", "Q4")]
    data = [("North", "1,200", "2,300", "1,310", "2,410"), ("South", "2,340", "2,500", "2,120", "2,050"),
            ("East", "1,100", "1,150", "1,190", "1,230")]
    head = [TCell(t, x, 80, p, tag="TH") for p in (0, 1) for t, x in zip(names[p], (60, 220, 320), strict=True)]
    body = [[TCell(r[0], 60, 100 + 20 * i, 0), TCell(r[1], 220, 100 + 20 * i, 0), TCell(r[2], 320, 100 + 20 * i, 0),
             TCell(r[0], 60, 100 + 20 * i, 1), TCell(r[3], 220, 100 + 20 * i, 1), TCell(r[4], 320, 100 + 20 * i, 1)]
            for i, r in enumerate(data)]
    rec = extract(write_tagged_pdf(tmp_path / "sheet.pdf", [TTable([head, *body], head_rows=1)], pages=2))
    by_page = {t.pages[0]: t for t in rec.tables if t.extractor == "tagged"}
    assert by_page[1].columns == names[0] and by_page[1].rows == tuple(r[:3] for r in data)
    assert by_page[2].columns == names[1] and by_page[2].rows == tuple((r[0], *r[3:]) for r in data)

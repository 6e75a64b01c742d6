"""The tagged layer: a tagged PDF's own tables, read from its structure tree, or refused with
the reason and left to the finder (PDFs written by tests/tagged_pdf.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.api import extract
from tests.tagged_pdf import TCell, TPara, TTable, write_tagged_pdf

PROSE = TPara(["Quarterly sales by region, in thousands of euros."], 60, 60)


def _sales(page: int = 0, top: float = 100.0, rows: int = 4, start: int = 0) -> list[list[TCell]]:
    return [[TCell(f"Region {start + i}", 60, top + 20 * i, page), TCell(f"{1200 + 37 * (start + i):,}", 220, top + 20 * i, page),
             TCell(f"{2300 + 41 * (start + i):,}", 320, top + 20 * i, page)] for i in range(rows)]


HEAD = [TCell("Region", 60, 80, tag="TH"), TCell("Q1", 220, 80, tag="TH"), TCell("Q2", 320, 80, tag="TH")]


def _tagged_attempts(rec) -> list:
    return [a for a in rec.document.attempts if a.extractor == "tagged"]


def test_tagged_table_read_cell_for_cell_with_th_header_and_a_span(tmp_path: Path) -> None:
    body = [[TCell("North", 60, 100, row_span=2), TCell("1,200", 220, 100), TCell("2,300", 320, 100)],
            [TCell("1,310", 220, 120), TCell("2,410", 320, 120)],
            [TCell("South", 60, 140), TCell("2,340", 220, 140), TCell("2,500", 320, 140)],
            [TCell("Total, all regions", 60, 160, col_span=2), TCell("7,210", 320, 160)]]
    pdf = write_tagged_pdf(tmp_path / "tagged.pdf", [TTable([HEAD, *body], head_rows=1)], [PROSE])
    rec = extract(pdf)
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert table.columns == ("Region", "Q1", "Q2")
    assert len(table.rows) == 4
    assert table.rows[0] == ("North", "1,200", "2,300")
    assert table.rows[1][1:] == ("1,310", "2,410")
    assert table.rows[3][2] == "7,210"
    north = next(c for c in table.cells if c.text == "North")
    total = next(c for c in table.cells if c.text == "Total, all regions")
    assert (north.row_span, north.col_span) == (2, 1)
    assert (total.row_span, total.col_span) == (1, 2)


def test_tagged_table_over_two_pages_is_one_table(tmp_path: Path) -> None:
    rows = [HEAD, *_sales(0, 100, 5), *_sales(1, 30, 5, start=5)]
    pdf = write_tagged_pdf(tmp_path / "two.pdf", [TTable(rows, head_rows=1)], [PROSE], pages=2, height=220)
    rec = extract(pdf)
    assert {p for a in _tagged_attempts(rec) if a.accepted for p in a.pages} == {1, 2}
    (table,) = rec.tables
    assert table.pages == (1, 2) and len(table.regions) == 2
    assert table.columns == ("Region", "Q1", "Q2")
    assert [r[0] for r in table.rows] == [f"Region {i}" for i in range(10)]


def test_one_column_tagged_table_is_refused_and_the_finder_reads_it(tmp_path: Path) -> None:
    # each TR holds one TD with the whole printed line: tagged as a list of lines
    lines = [[TCell("Region", 60, 80), TCell("Q1", 220, 80), TCell("Q2", 320, 80)], *_sales(0, 100, 5)]
    rows = [[TCell(c.text, c.x, c.top) for c in row] for row in lines]
    tables = [TTable([[r[0]] for r in rows])]
    paras = [TPara([c.text], c.x, c.top) for r in rows for c in r[1:]]
    pdf = write_tagged_pdf(tmp_path / "onecol.pdf", tables, [PROSE, *paras])
    rec = extract(pdf)
    (attempt,) = _tagged_attempts(rec)
    assert not attempt.accepted and "tagged table 1 refused: 6 row(s) x 1 column(s)" in attempt.reason
    (table,) = rec.tables
    assert table.extractor == "pymupdf"
    assert table.columns == ("Region", "Q1", "Q2")
    assert table.rows[0] == ("Region 0", "1,200", "2,300")


def test_prose_in_tds_is_refused(tmp_path: Path) -> None:
    words = "the quick brown fox jumps over the lazy dog and runs on".split()
    para = [" ".join(words[k:] + words[:k]) for k in range(5)]
    # a layout table: two TDs side by side, each a paragraph of five lines
    rows = [[TCell("\n".join(para), 60, 100), TCell("\n".join(para), 320, 100)],
            [TCell("End of part one", 60, 200), TCell("End of part two", 320, 200)]]
    pdf = write_tagged_pdf(tmp_path / "layout.pdf", [TTable(rows)], [PROSE])
    rec = extract(pdf)
    reasons = " ".join(a.reason for a in _tagged_attempts(rec))
    assert "refused" in reasons and not any(t.extractor == "tagged" for t in rec.tables)


def test_untagged_twin_gives_the_same_cells_through_the_finder(tmp_path: Path) -> None:
    rows = [HEAD, *_sales(0, 100, 5)]
    tagged = extract(write_tagged_pdf(tmp_path / "tagged.pdf", [TTable(rows, head_rows=1)], [PROSE]))
    twin = extract(write_tagged_pdf(tmp_path / "twin.pdf", [TTable(rows, head_rows=1)], [PROSE], tagged=False))
    assert not _tagged_attempts(twin)  # an untagged PDF: the layer is passed over
    assert [t.extractor for t in tagged.tables] == ["tagged"]
    assert [t.extractor for t in twin.tables] == ["pymupdf"]
    assert tagged.tables[0].columns == twin.tables[0].columns == ("Region", "Q1", "Q2")
    assert tagged.tables[0].rows == twin.tables[0].rows


def test_rows_short_of_cells_are_laid_on_the_columns_by_x(tmp_path: Path) -> None:
    # the header's empty corner cell is not tagged, the total is one TD under the last column
    head = [TCell("2024", 220, 80, tag="TH"), TCell("2025", 320, 80, tag="TH")]
    body = [[TCell("Revenue", 60, 100), TCell("275.5", 220, 100), TCell("295.6", 320, 100)],
            [TCell("EBITA", 60, 120), TCell("8.8", 220, 120), TCell("10.3", 320, 120)],
            [TCell("Net income", 60, 140), TCell("4.4", 220, 140), TCell("5.6", 320, 140)],
            [TCell("301.2", 320, 160)]]
    pdf = write_tagged_pdf(tmp_path / "short.pdf", [TTable([head, *body], head_rows=1)], [PROSE])
    (table,) = extract(pdf).tables
    assert table.extractor == "tagged"
    assert table.columns == ("", "2024", "2025")
    assert table.rows[0] == ("Revenue", "275.5", "295.6")
    assert table.rows[-1] == ("", "", "301.2")


def test_rows_tagged_out_of_order_are_refused(tmp_path: Path) -> None:
    rows = [HEAD, *_sales(0, 100, 5)]
    rows[2], rows[4] = rows[4], rows[2]  # the structure's order is not the page's
    pdf = write_tagged_pdf(tmp_path / "order.pdf", [TTable(rows, head_rows=1)], [PROSE])
    rec = extract(pdf)
    (attempt,) = _tagged_attempts(rec)
    assert not attempt.accepted and "rows not top to bottom" in attempt.reason
    (table,) = rec.tables
    assert table.extractor == "pymupdf" and [r[0] for r in table.rows] == [f"Region {i}" for i in range(5)]


def test_tagged_table_in_a_ruling_grid_takes_the_grid_as_its_region(tmp_path: Path) -> None:
    rows = [HEAD, *_sales(0, 100, 5)]
    tagged = write_tagged_pdf(tmp_path / "bare.pdf", [TTable(rows, head_rows=1)], [PROSE])
    pdf = pymupdf.open(tagged)
    xs, ys = (50, 210, 310, 400), [75 + 20 * i for i in range(7)]
    for x in xs:
        pdf[0].draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        pdf[0].draw_line((xs[0], y), (xs[-1], y))
    pdf.save(tmp_path / "ruled.pdf")
    (table,) = extract(tmp_path / "ruled.pdf").tables
    assert table.extractor == "tagged" and table.rows[0] == ("Region 0", "1,200", "2,300")
    assert [round(v) for v in table.regions[0].bbox] == [50, 75, 400, 195]


def test_tagged_table_whose_box_holds_other_text_is_refused(tmp_path: Path) -> None:
    # auto-tagging left a column of the printed table out of its Table element
    rows = [[TCell(c.text, c.x, c.top) for c in r[:2]] for r in [HEAD, *_sales(0, 100, 5)]]
    others = [TPara([r[2].text], 150, r[2].top) for r in [HEAD, *_sales(0, 100, 5)]]
    pdf = write_tagged_pdf(tmp_path / "foreign.pdf", [TTable(rows)], [PROSE, *others])
    rec = extract(pdf)
    (attempt,) = _tagged_attempts(rec)
    assert not attempt.accepted and "its region holds text outside its cells" in attempt.reason
    assert not any(t.extractor == "tagged" for t in rec.tables)


def test_layout_table_around_a_table_is_refused_and_the_inner_one_read(tmp_path: Path) -> None:
    inner = TTable([HEAD, *_sales(0, 100, 5)], head_rows=1)
    note = TCell("Figures are\nunaudited.", 420, 80)
    layout = TTable([[TCell("", 60, 80, inner=inner), note],
                     [TCell("Prepared by", 60, 230), TCell("Finance", 420, 230)]])
    pdf = write_tagged_pdf(tmp_path / "nested.pdf", [layout], [PROSE])
    rec = extract(pdf)
    (attempt,) = _tagged_attempts(rec)
    assert "tagged table 1 refused: a layout table: a table is nested in its cells" in attempt.reason
    assert [t.columns for t in rec.tables if t.extractor == "tagged"] == [("Region", "Q1", "Q2")]


# The shapes of ISO 32000 14.8.4.3.4 / PDF/UA tables that exports write (tests/tagged_pdf.py).

def _body(n: int = 4, top: float = 100.0, **kw) -> list[list[TCell]]:
    return [[TCell(f"Region {i}", 60, top + 20 * i, **kw), TCell(f"{1200 + 37 * i:,}", 220, top + 20 * i, **kw),
             TCell(f"{2300 + 41 * i:,}", 320, top + 20 * i, **kw)] for i in range(n)]


def _head(**kw) -> list[TCell]:
    return [TCell(t, x, 80, tag="TH", **kw) for t, x in (("Region", 60), ("Q1", 220), ("Q2", 320))]


def _pieces(row: list[TCell]) -> list[TCell]:
    """A body row whose cells' text is split into pieces under different kids."""
    region, q1, q2 = row
    return [TCell(region.text.replace(" ", " |"), region.x, region.top, kids=("", "Span")),
            TCell(q1.text.replace(",", ",|"), q1.x, q1.top, kids=("Link", "P")),
            TCell(q2.text.replace(",", ",|"), q2.x, q2.top, kids=("L/LI/Lbl", "L/LI/LBody"))]


SHAPES = {
    # InDesign / Word name their elements and map them to the standard ones in /RoleMap
    "role map": ([TTable([_head(), *_body()], head_rows=1)],
                 {"role_map": {"Tabelle": "Table", "Zeile": "TR", "Zelle": "TD", "Kopfzelle": "TH",
                               "Tabellenkopf": "THead", "Tabellenkörper": "TBody", "Absatz": "P"}}),
    "table inside Part > Sect > Div": ([TTable([_head(), *_body()], head_rows=1, wrap=("Part", "Sect", "Div"))], {}),
    "kids as /MCR dictionaries": ([TTable([_head(), *_body()], head_rows=1)], {"mcr": True}),
    "a P in each cell": ([TTable([_head(para=True), *_body(para=True)], head_rows=1)], {}),
    "/A as an array of owners": ([TTable([_head(), *_body()], head_rows=1)], {"attrs": "array"}),
    "a link's /OBJR in a cell": ([TTable([_head(), *[[TCell(r[0].text, 60, r[0].top, link=True), *r[1:]]
                                                      for r in _body()]], head_rows=1)], {}),
    "text drawn column by column": ([TTable([_head(), *_body()], head_rows=1)], {"by_column": True}),
    "an artifact among the cells": ([TTable([_head(), *_body(8)], head_rows=1)],
                                    {"artifacts": [TPara(["Page 3 of 9"], 400, 140)]}),
    # a cell's text in several marked-content sequences, under Span, Link, P, L > LI > Lbl /
    # LBody or Figure kids of the cell (Word, InDesign, Chrome), each drawn on its own
    "a cell's text in pieces under its kids": ([TTable([[TCell(c.text, c.x, c.top, tag="TH", kids=("Figure",)) for c in _head()],
                                                        *[_pieces(r) for r in _body()]], head_rows=1)], {}),
    # cells drawn after the rest of the page (a form filled in, a renderer's drawing order)
    "cells drawn out of reading order": ([TTable([_head(), *[[TCell(c.text, c.x, c.top, late=k != 1) for k, c in enumerate(r)]
                                                             for r in _body()]], head_rows=1)], {}),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_tagged_shapes_are_read_cell_for_cell(tmp_path: Path, shape: str) -> None:
    tables, kw = SHAPES[shape]
    rec = extract(write_tagged_pdf(tmp_path / "shape.pdf", tables, [PROSE], **kw))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert table.columns == ("Region", "Q1", "Q2")
    assert table.rows[:2] == (("Region 0", "1,200", "2,300"), ("Region 1", "1,237", "2,341"))


def test_spans_read_from_an_attribute_object_by_reference(tmp_path: Path) -> None:
    head = [[TCell("Region", 60, 80, tag="TH", row_span=2), TCell("Sales", 220, 80, tag="TH", col_span=2)],
            [TCell("Q1", 220, 100, tag="TH"), TCell("Q2", 320, 100, tag="TH")]]
    pdf = write_tagged_pdf(tmp_path / "ref.pdf", [TTable([*head, *_body(4, 120)], head_rows=2)], [PROSE], attrs="ref")
    (table,) = extract(pdf).tables
    assert table.extractor == "tagged"
    assert table.columns == ("Region", "Sales Q1", "Sales Q2")
    assert table.rows[0] == ("Region 0", "1,200", "2,300")


def test_empty_cells_with_no_kids_stay_empty_in_their_columns(tmp_path: Path) -> None:
    body = [[TCell(f"Region {i}", 60, 100 + 20 * i), TCell("" if i % 2 else "1,200", 220, 100 + 20 * i),
             TCell("" if i == 2 else "2,300", 320, 100 + 20 * i)] for i in range(4)]
    (table,) = extract(write_tagged_pdf(tmp_path / "empty.pdf", [TTable([_head(), *body], head_rows=1)], [PROSE])).tables
    assert table.extractor == "tagged"
    assert table.rows == (("Region 0", "1,200", "2,300"), ("Region 1", "", "2,300"),
                          ("Region 2", "1,200", ""), ("Region 3", "", "2,300"))


def test_a_tfoot_listed_before_the_body_is_read_last(tmp_path: Path) -> None:
    total = [TCell("Total", 60, 180), TCell("5,022", 220, 180), TCell("9,446", 320, 180)]
    table = TTable([_head(), *_body(), total], head_rows=1, foot_rows=1, foot_first=True)
    rec = extract(write_tagged_pdf(tmp_path / "tfoot.pdf", [table], [PROSE]))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (read,) = rec.tables
    assert read.extractor == "tagged"
    assert [r[0] for r in read.rows] == ["Region 0", "Region 1", "Region 2", "Region 3", "Total"]


def test_row_heads_scoped_to_their_row_are_no_header(tmp_path: Path) -> None:
    # a group label under the header: a TH alone in its row, scoped to the row (PDF/UA)
    group = [TCell("Europe", 60, 100, tag="TH", scope="Row", col_span=3)]
    body = [[TCell(f"Region {i}", 60, 120 + 20 * i, tag="TH", scope="Row"), TCell(f"{1200 + i}", 220, 120 + 20 * i),
             TCell(f"{2300 + i}", 320, 120 + 20 * i)] for i in range(4)]
    rec = extract(write_tagged_pdf(tmp_path / "scope.pdf", [TTable([_head(scope="Column"), group, *body])], [PROSE]))
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert table.columns == ("Region", "Q1", "Q2")
    assert table.rows[0][0] == "Europe" and table.rows[1] == ("Region 0", "1200", "2300")


def test_a_page_whose_marked_content_leads_to_no_element_says_so(tmp_path: Path) -> None:
    pdf_path = write_tagged_pdf(tmp_path / "broken.pdf", [TTable([_head(), *_body()], head_rows=1)], [PROSE])
    pdf = pymupdf.open(pdf_path)
    root = int(pdf.xref_get_key(pdf.pdf_catalog(), "StructTreeRoot")[1].split()[0])
    pdf.xref_set_key(root, "ParentTree", "null")  # the MCIDs lead nowhere
    pdf.save(tmp_path / "noparents.pdf")
    rec = extract(tmp_path / "noparents.pdf")
    (attempt,) = _tagged_attempts(rec)
    assert not attempt.accepted and "no text of the page tied to the structure tree" in attempt.reason
    (table,) = rec.tables
    assert table.extractor == "pymupdf" and table.rows[0] == ("Region 0", "1,200", "2,300")


def test_a_page_number_drawn_after_the_last_cell_stays_out_of_it(tmp_path: Path) -> None:
    # MuPDF ties text drawn after the last MCID (an /Artifact footer) to the last element
    table = TTable([_head(), *_body(6)], head_rows=1)
    pdf = write_tagged_pdf(tmp_path / "footer.pdf", [table], artifacts=[TPara(["Page 1 of 2"], 280, 800)])
    (read,) = extract(pdf).tables
    assert read.extractor == "tagged"
    assert read.rows[-1] == ("Region 5", "1,385", "2,505")


def test_a_header_repeated_as_an_artifact_over_the_next_page_joins_the_pages(tmp_path: Path) -> None:
    page2 = [[TCell(c.text, c.x, c.top - 70, page=1) for c in r] for r in _body(5, 110)]
    repeated = [TPara([t], x, 15, page=1) for t, x in (("Region", 60), ("Q1", 220), ("Q2", 320))]
    pdf = write_tagged_pdf(tmp_path / "repeat.pdf", [TTable([_head(), *_body(5), *page2], head_rows=1)],
                           pages=2, height=220, artifacts=repeated)
    rec = extract(pdf)
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.pages == (1, 2) and table.columns == ("Region", "Q1", "Q2")
    assert [r[0] for r in table.rows] == [f"Region {i}" for i in range(5)] * 2
    assert table.rows[-1] == ("Region 4", "1,348", "2,464")


# Auto-tagged exports (Word, Excel): title rows inside the Table, headers without THead or Scope.

def _titled(full_width: bool, head_tag: str = "TH") -> TTable:
    title = [TCell("Table 4 Quarterly sales by region", 60, 40, col_span=3 if full_width else 1)]
    note = [TCell("in thousands of euros, all offices reporting by the end of the quarter", 60, 58,
                  col_span=3 if full_width else 1)]
    head = [TCell(t, x, 80, tag=head_tag) for t, x in (("Region", 60), ("Q1", 220), ("Q2", 320))]
    return TTable([title, note, head, *_body()], head_rows=3 if head_tag == "TH" else 0)


@pytest.mark.parametrize("full_width", [True, False], ids=["colspan over the width", "one TD alone"])
def test_title_rows_inside_the_table_are_its_caption_not_its_grid(tmp_path: Path, full_width: bool) -> None:
    rec = extract(write_tagged_pdf(tmp_path / "titled.pdf", [_titled(full_width)]))
    assert [a.accepted for a in _tagged_attempts(rec)] == [True]
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert table.columns == ("Region", "Q1", "Q2")
    assert len(table.rows) == 4 and table.rows[0] == ("Region 0", "1,200", "2,300")
    assert table.caption.startswith("Table 4 Quarterly sales by region")


def test_title_rows_over_a_header_of_tds_are_dropped(tmp_path: Path) -> None:
    # Excel's export: every cell a TD, the sheet's title in the first row
    rec = extract(write_tagged_pdf(tmp_path / "tds.pdf", [_titled(True, head_tag="TD")]))
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert [r[0] for r in table.rows][-4:] == [f"Region {i}" for i in range(4)]
    assert all("Quarterly" not in " ".join(r) for r in table.rows)


def test_a_second_header_row_of_ths_without_thead_or_scope(tmp_path: Path) -> None:
    top = [TCell("Region", 60, 70, tag="TH", row_span=2), TCell("Sales", 220, 70, tag="TH", col_span=2)]
    second = [TCell("Q1", 220, 85, tag="TH"), TCell("Q2", 320, 85, tag="TH")]
    rec = extract(write_tagged_pdf(tmp_path / "two_heads.pdf", [TTable([top, second, *_body()])]))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.header_rows == 2
    assert table.columns == ("Region", "Sales Q1", "Sales Q2")
    assert len(table.rows) == 4


def test_a_group_label_alone_in_its_row_under_the_header_stays_in_the_body(tmp_path: Path) -> None:
    group = [TCell("Europe", 60, 100, tag="TH", col_span=3)]  # no /Scope: a group row, no header
    body = _body(3, 120)
    rec = extract(write_tagged_pdf(tmp_path / "group.pdf", [TTable([_head(), group, *body])], [PROSE]))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("Region", "Q1", "Q2")
    assert table.rows[0][0] == "Europe" and table.rows[1] == ("Region 0", "1,200", "2,300")


def test_headers_named_by_id_make_the_header_row(tmp_path: Path) -> None:
    # no TH, no Scope: each TD names its header cell through /Headers and its /ID; a settings
    # table (a key and a value a row) shows no header by its look
    cols = (("Setting", 60, "h-set"), ("Value", 220, "h-val"))
    items = (("Voltage", "230 V"), ("Frequency", "50 Hz"), ("Power", "2 kW"), ("Weight", "12 kg"))
    head = [TCell(t, x, 80, ident=i) for t, x, i in cols]
    body = [[TCell(v, x, 100 + 20 * k, headers=(i,)) for v, (_, x, i) in zip(item, cols, strict=True)]
            for k, item in enumerate(items)]
    rec = extract(write_tagged_pdf(tmp_path / "ids.pdf", [TTable([head, *body])], [PROSE]))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.header_rows == 1
    assert table.columns == ("Setting", "Value")
    assert len(table.rows) == 4 and table.rows[0] == ("Voltage", "230 V")

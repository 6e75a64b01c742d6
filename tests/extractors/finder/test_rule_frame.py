"""A table between a top and a bottom rule (finder/rule_frame.py): group labels centred over
its figure columns do not cut it in two, and the header band between two rules and the rows
under its last group label stay in it; a caption above the top rule and running text between
rules stay out."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.rule_frame import framed_regions, joined_rules
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

XS = (72.0, 300.0, 380.0, 460.0, 540.0)
GROUPS = {"Enrolment, in thousands": [("Actual", "49,293", "49,266", "49,373", "49,484")],
          "Projected enrolment, in thousands": [("Projection 2017", "49,644", "49,825", "50,067", "50,353"),
                                                ("Projection 2018", "49,470", "49,623", "49,788", "50,034"),
                                                ("Projection 2019", "†", "49,265", "49,312", "49,386")],
          "Difference from actual values, in percent": [("Projection 2017", "0.7", "1.1", "1.4", "1.8"),
                                                        ("Projection 2018", "0.4", "0.7", "0.8", "1.1"),
                                                        ("Projection 2019", "†", "#", "-0.1", "-0.2")],
          "Mean absolute percentage error": [("Example", "0.2", "0.5", "0.7", "1.3")]}
YEARS = ("2008", "2009", "2010", "2011")


def _rule(page: pymupdf.Page, y: float) -> None:
    """A rule across the table, drawn as word processors do, one piece per column."""
    for a, b in zip((XS[0] - 2, *XS[1:]), (*XS[1:], XS[-1] + 30), strict=True):
        page.draw_line((a, y), (b - 1 if b != XS[-1] + 30 else b, y), width=0.6)
        page.draw_line((b - 1, y), (b, y), width=0.6)


def _framed_table(path: Path) -> Path:
    """A caption, the top rule, a header band (a spanner over the years, then `Source` and the
    years) closed by a rule, the body in groups under centred group labels, the bottom rule,
    a note under it."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Table A-3. Constructing mean absolute percentage errors", 10, "bold")
    _rule(page, 88)
    put(page, 440, 100, "Year of data")
    put(page, 72, 114, "Source")
    for x, year in zip(XS[1:], YEARS, strict=True):
        put(page, x + 40, 114, year, align="right")
    _rule(page, 119)
    y = 134.0
    for label, rows in GROUPS.items():
        put(page, 330, y, label)
        y += 13
        for row in rows:
            put(page, 72, y, row[0])
            for x, v in zip(XS[1:], row[1:], strict=True):
                put(page, x + 40, y, v, align="right")
            y += 13
        y += 4
    _rule(page, y - 8)
    put(page, 72, y + 6, "† Not applicable. # Rounds to zero.", 8)
    put(page, 72, y + 16, "NOTE: Some data have been revised from previously published figures, and all", 8)
    doc.save(path)
    return path


def test_group_labels_do_not_cut_a_table_between_its_rules(tmp_path: Path) -> None:
    tables = tables_of(_framed_table(tmp_path / "framed.pdf"))
    assert len(tables) == 1
    (table,) = tables
    body = [r for r in table.rows if r[0]]
    assert [r[0] for r in body] == [row[0] for rows in GROUPS.values() for row in rows]
    assert body[-1] == ("Example", "0.2", "0.5", "0.7", "1.3")
    assert table.columns[0] == "Source" and all(y in " ".join(table.columns) for y in YEARS)
    assert not any("Table A-3" in c for r in table.rows for c in r)
    assert not any("NOTE" in c for r in table.rows for c in r)


def _line(x0: float, y0: float, x1: float, text: str) -> TextLine:
    return TextLine(page=1, bbox=(x0, y0, x1, y0 + 9), text=text)


def test_running_text_between_rules_is_no_frame() -> None:
    """Rules over and under a paragraph beside the table's run: the run stays as it is."""
    run = (72.0, 200.0, 540.0, 260.0)
    hs = [(72.0, 150.0, 540.0, 150.6), (72.0, 300.0, 540.0, 300.6)]
    lines = [_line(72, 160, 530, "A paragraph of running text set across the whole width of the"),
             _line(72, 172, 520, "column, between a rule over it and the table under it, no header."),
             _line(72, 270, 300, "Source: agency reports.")]
    assert framed_regions([run], hs, lines) == [run]


def test_rule_pieces_drawn_per_column_are_one_rule() -> None:
    hs = [(72.0, 88.0, 300.0, 88.6), (300.0, 88.0, 380.0, 88.6), (381.0, 88.0, 570.0, 88.6)]
    assert len(joined_rules(hs)) == 1 and joined_rules(hs)[0][1:] == (72.0, 570.0)


def test_the_rules_of_grids_above_and_below_frame_no_table() -> None:
    """A statistic line and the next table's caption between two ruled grids: the bottom rule of
    the one and the top rule of the other close no table around them."""
    run = (72.0, 196.0, 350.0, 234.0)
    grids = [(72.0, 60.0, 360.0, 190.0), (72.0, 240.0, 360.0, 400.0)]
    hs = [(72.0, 190.0, 360.0, 190.6), (72.0, 240.0, 360.0, 240.6)]
    lines = [_line(80, 198, 150, "χ2 = 16.9,"), _line(160, 198, 200, "v = 2,"), _line(220, 198, 290, "p < 0.0005"),
             _line(80, 210, 150, "χ2 = 4.2,"), _line(160, 210, 200, "v = 4,"), _line(220, 210, 290, "p = 0.38"),
             _line(120, 222, 300, "Frequency of symptoms")]
    assert framed_regions([run], hs, lines, grids) == [run]
    assert framed_regions([run], hs, lines) != [run]  # the grids' rules alone would frame it


def test_a_frame_round_a_ruled_grid_is_the_grids() -> None:
    """A box drawn round a chart whose plot is a ruled grid: the labels' run beside the grid
    does not grow to the box's rules (it would read the chart's title as a table row)."""
    run = (80.0, 150.0, 520.0, 330.0)
    grid = (125.0, 160.0, 500.0, 360.0)
    hs = [(78.0, 94.0, 530.0, 94.6), (78.0, 414.0, 530.0, 414.6)]
    lines = [_line(90, 150 + 20 * k, 120, f"{20 - 5 * k},000") for k in range(5)]
    assert framed_regions([run], hs, lines, [grid]) == [run]
    assert framed_regions([run], hs, lines) != [run]

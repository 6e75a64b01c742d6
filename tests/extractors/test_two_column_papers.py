"""Two-column papers end to end: one model of the page's text columns (`rowkeeper.page_columns`)
for the finder's search areas, the section paths and the text chunks (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from rowkeeper.extractors.page_model import PageModel
from tests.extractors.two_column_papers import LEFT, LEFT_WORDS, RIGHT, RIGHT_WORDS, Paper

SALES = [("Site", "Units", "Revenue"), ("Harbor", "1,204", "88,310"), ("Lakeside", "982", "71,020"),
         ("Northgate", "1,577", "102,400"), ("Riverside", "640", "45,900"), ("Westfield", "1,311", "93,150")]


def _tables(path: Path) -> list:
    result = rowkeeper.extract(str(path))
    assert result.status == "ok"
    return list(result.tables)


def test_table_in_the_left_column_keeps_the_right_columns_prose_out(tmp_path: Path) -> None:
    p = Paper(tmp_path / "left_table.pdf")
    p.text(LEFT, 60, "1. Sales by site", size=12, bold=True)
    top = p.prose(LEFT, 84, 6, LEFT_WORDS)
    top = p.table([LEFT, LEFT + 90, LEFT + 160], top + 14, SALES)
    p.prose(LEFT, top + 14, 8, LEFT_WORDS)
    p.prose(RIGHT, 60, 40, RIGHT_WORDS)  # the right column runs level with the whole table
    (table,) = _tables(p.save())
    assert list(table.columns) == list(SALES[0])
    assert [tuple(r) for r in table.rows] == SALES[1:]
    assert all("omega" not in cell for row in table.rows for cell in row)


def test_full_width_table_under_two_columns_of_prose_is_one_table(tmp_path: Path) -> None:
    p = Paper(tmp_path / "wide_table.pdf")
    p.prose(LEFT, 60, 18, LEFT_WORDS)
    p.prose(RIGHT, 60, 18, RIGHT_WORDS)
    # six columns across the page, a gap between two of them where the gutter runs above
    xs = [LEFT, LEFT + 85, LEFT + 170, RIGHT, RIGHT + 85, RIGHT + 170]
    rows = [("Region", "Q1", "Q2", "Q3", "Q4", "Total")] + [
        (name, *(f"{100 + 7 * k + j}" for j in range(4)), f"{400 + 28 * k + 6}")
        for k, name in enumerate(("North", "South", "East", "West", "Centre", "Islands"))]
    top = p.table(xs, 290, rows)
    p.prose(LEFT, top + 20, 12, LEFT_WORDS)
    p.prose(RIGHT, top + 20, 12, RIGHT_WORDS)
    (table,) = _tables(p.save())
    assert list(table.columns) == list(rows[0])
    assert [tuple(r) for r in table.rows] == rows[1:]


def test_heading_atop_the_right_column_is_the_section_of_its_table(tmp_path: Path) -> None:
    p = Paper(tmp_path / "right_heading.pdf")
    p.text(LEFT, 50, "Annual report 2026", size=16, bold=True)
    p.text(LEFT, 90, "1. Sales", size=12, bold=True)
    p.prose(LEFT, 112, 50, LEFT_WORDS)
    # the right column's heading stands higher on the page than "1. Sales" on the left
    p.text(RIGHT, 50, "2. Costs", size=12, bold=True)
    top = p.prose(RIGHT, 72, 5, RIGHT_WORDS)
    p.table([RIGHT, RIGHT + 90, RIGHT + 160], top + 14, SALES)
    (table,) = _tables(p.save())
    assert table.section_path == ("Annual report 2026", "2. Costs")
    assert [tuple(r) for r in table.rows] == SALES[1:]


def test_text_chunks_read_one_column_after_the_other(tmp_path: Path) -> None:
    p = Paper(tmp_path / "prose.pdf")
    p.text(LEFT, 50, "1. Sales", size=12, bold=True)
    p.prose(LEFT, 72, 30, LEFT_WORDS)
    p.text(RIGHT, 50, "2. Costs", size=12, bold=True)
    p.prose(RIGHT, 72, 30, RIGHT_WORDS)
    chunks = [c for c in rowkeeper.extract(str(p.save())).chunks if c.kind == "text"]
    left = [c for c in chunks if "sales" in c.text]
    right = [c for c in chunks if "omega" in c.text]
    assert left and right and not set(map(id, left)) & set(map(id, right))
    assert all(c.metadata["section_path"] == ["1. Sales"] for c in left)
    assert all(c.metadata["section_path"] == ["2. Costs"] for c in right)


def test_page_model_gives_the_column_boxes_in_reading_order(tmp_path: Path) -> None:
    p = Paper(tmp_path / "columns.pdf")
    p.text(LEFT, 40, "A title set across both columns of the whole page, as papers do", size=14, bold=True)
    p.prose(LEFT, 80, 20, LEFT_WORDS)
    p.prose(RIGHT, 80, 20, RIGHT_WORDS)
    with pymupdf.open(p.save()) as pdf:
        columns = PageModel(pdf[0], 1).columns
    assert len(columns.gutters) == 1 and LEFT + 230 < columns.gutters[0] < RIGHT
    title, left, right = columns.boxes
    assert title[3] <= left[1] and left[1] == right[1] and left[2] == right[0]


def test_table_in_the_right_column_is_read_inside_its_column(tmp_path: Path) -> None:
    """A table in the right column, the left column's prose level with its rows and a heading
    of the left column level with its caption: read inside its column box
    (`finder/column_boxes`), the prose is no column of it and the heading no header."""
    p = Paper(tmp_path / "right_table.pdf")
    p.text(LEFT, 60, "1. Regional sales", size=12, bold=True)
    p.prose(LEFT, 78, 40, LEFT_WORDS)
    p.text(RIGHT, 64, "Table 2: Headcount and budget")
    p.table([RIGHT, RIGHT + 110, RIGHT + 180], 80, SALES)
    p.prose(RIGHT, 80 + 11 * len(SALES) + 20, 3, RIGHT_WORDS)
    (table,) = _tables(p.save())
    assert list(table.columns) == list(SALES[0])
    assert [tuple(r) for r in table.rows] == SALES[1:]



def test_full_width_table_with_long_labels_stays_whole(tmp_path: Path) -> None:
    """A table across both columns of the page, its row labels long enough to read as running
    text in the left column (no sentence ends in them): one table with every column, not the
    half right of the gutter (`finder/column_boxes` reads a region again inside the columns
    only where a side holds prose)."""
    p = Paper(tmp_path / "wide_table.pdf")
    p.prose(LEFT, 60, 12, LEFT_WORDS)
    p.prose(RIGHT, 60, 12, RIGHT_WORDS)
    labels = ["Focus on and retrieve explicit", "Interpret and integrate ideas", "Examine and evaluate content",
              "Number properties and operations", "Data analysis and probability"]
    rows = [("Content domain and process", "All items", "Percent", "New items", "Percent")]
    rows += [(lab, f"{31 + i}", f"{12 + i}", f"{19 + i}", f"{40 + i}") for i, lab in enumerate(labels)]
    p.table([LEFT, LEFT + 200, LEFT + 270, LEFT + 340, LEFT + 410], 220, rows)
    p.prose(LEFT, 320, 10, LEFT_WORDS)
    p.prose(RIGHT, 320, 10, RIGHT_WORDS)
    (table,) = _tables(p.save())
    assert list(table.columns) == list(rows[0])
    assert [r[0] for r in table.rows] == labels


COSTS = [("Item", "Budget"), ("Rent", "12,400"), ("Staff", "48,900"), ("Energy", "7,310"),
         ("Travel", "2,050"), ("Licences", "5,780"), ("Training", "3,120")]
SENTENCES = "Sales rose in every region. The figures were checked by the controlling team.".split()


def test_two_tables_level_in_their_own_columns_are_two_tables(tmp_path: Path) -> None:
    """A table in each column, level with each other, the left column's prose (sentences
    ending in it) under the left one: read across the gutter they make one run, and their
    reads inside the columns stand level, but their rows do not (each its own pitch), so
    they are two tables, not the halves of one (`finder/column_boxes._level_rows`)."""
    p = Paper(tmp_path / "two_tables.pdf")
    top = p.prose(LEFT, 60, 30, LEFT_WORDS)
    p.text(LEFT, top + 10, "Table 1: Sales by site")
    end = p.table([LEFT + 4, LEFT + 90, LEFT + 160], top + 26, SALES)
    p.prose(LEFT, end + 14, 6, SENTENCES)
    right = p.prose(RIGHT, top - 50, 5, RIGHT_WORDS)
    p.text(RIGHT, right + 4, "Table 2: Costs by item")
    p.table([RIGHT + 4, RIGHT + 150], right + 22, COSTS, pitch=19.0)
    tables = _tables(p.save())
    assert [list(t.columns) for t in tables] == [list(SALES[0]), list(COSTS[0])]
    assert [tuple(r) for r in tables[0].rows] == SALES[1:]
    assert [tuple(r) for r in tables[1].rows] == COSTS[1:]
    assert [t.caption for t in tables] == ["Table 1: Sales by site", "Table 2: Costs by item"]

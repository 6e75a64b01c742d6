"""A booktabs table with group labels ("BLEU" over "EN-VI" | "JA-EN") running over a page
break, its header repeated over the last two rows on the next page: those rows are too few for
the projection to see the gaps the group labels cross (finder/projection.projection_gaps reads
them from the header's last line and the figures), and the repeated header reads each group
label once per column it spans, where the first page's header reads it once
(merge.repeated_header_rows compares the two loosely). One table, every row."""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import grids, new_page, put, width

HEAD = ("Site", "EN-VI", "JA-EN", "EN-VI", "JA-EN")
GROUPS = (("BLEU", 1), ("COMET", 3))
ROWS = [("Brookfield unit 5252", "21.9", "36.3", "73.7", "95.7"), ("Ashford store 2289", "67.1", "68.5", "48.6", "40.8"),
        ("Brookfield line 9561", "21.7", "68.1", "79.3", "97.4"), ("Lakeside office 4179", "88.7", "51.4", "62.4", "70.6"),
        ("Cedar Park office 693", "79.8", "36.1", "68.0", "49.7"), ("Harbor View store 2752", "66.0", "34.0", "62.4", "39.9"),
        ("Bay Point office 2936", "95.4", "47.4", "34.8", "66.0"), ("Harbor View depot 4790", "14.0", "87.1", "73.9", "92.9"),
        ("Millbrook depot 6671", "50.6", "51.0", "90.9", "23.7")]
RIGHTS = (0.0, 250.0, 292.5, 335.0, 377.5)  # right edges of the figure columns
PITCH = 23.7


def _table(page: pymupdf.Page, top: float, rows: list[tuple[str, ...]]) -> float:
    """Rules, the two-line header and `rows` from `top`; the bottom rule's y."""
    page.draw_line((60, top), (384, top))
    y = top + 16
    for label, col in GROUPS:
        # centred over its two columns' labels, a little right of the middle of the gap
        # between them: the first page's wider figure gaps put it over the left column, the
        # next page's (from the header's last line) over the right one
        mid = (RIGHTS[col] - 30 + RIGHTS[col + 1]) / 2 + 1.5
        put(page, mid - width(label, 11) / 2, y, label, 11)
        page.draw_line((RIGHTS[col] - 33, y + 8), (RIGHTS[col + 1] + 3, y + 8))
    y += PITCH
    for row in (HEAD, *rows):
        put(page, 66, y, row[0], 11)
        for j, text in enumerate(row[1:], start=1):
            put(page, RIGHTS[j], y, text, 11, align="right")
        if row is HEAD:
            page.draw_line((60, y + 8), (384, y + 8))
        y += PITCH
    page.draw_line((60, y - PITCH + 8), (384, y - PITCH + 8))
    return y


def _document(path: Path) -> None:
    doc = pymupdf.open()
    first = new_page(doc)
    put(first, 60, 90, "Key indicators 2020", 16, "bold")
    put(first, 60, 130, "The figures below cover the reporting period and were checked by the team.", 11)
    put(first, 60, 560, "Table 2. Quarterly figures by site", 11)
    _table(first, 568, ROWS[:7])
    second = new_page(doc)
    bottom = _table(second, 60, ROWS[7:])
    put(second, 60, bottom + 20, "All amounts are stated before tax unless a note says otherwise.", 11)
    doc.save(path)


def test_two_rows_under_group_labels_keep_every_column(tmp_path: Path) -> None:
    doc = pymupdf.open()
    bottom = _table(new_page(doc), 60, ROWS[7:])
    put(doc[0], 60, bottom + 20, "All amounts are stated before tax unless a note says otherwise.", 11)
    (grid,) = grids(doc, tmp_path / "short.pdf")
    assert [tuple(r) for r in grid[-2:]] == ROWS[7:]
    assert tuple(grid[-3]) == HEAD


def test_a_table_with_group_labels_over_a_page_break_is_one_table(tmp_path: Path) -> None:
    path = tmp_path / "spanned.pdf"
    _document(path)
    (table,) = rowkeeper.extract(path).tables
    assert table.pages == (1, 2)
    assert table.columns == ("Site", "BLEU EN-VI", "BLEU JA-EN", "COMET EN-VI", "COMET JA-EN")
    assert [tuple(r) for r in table.rows] == ROWS
    assert table.caption == "Table 2. Quarterly figures by site"

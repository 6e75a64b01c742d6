"""A table read from the text whose header is bold, with bold group label rows among its body
rows (a label in the first column, the other cells empty): the label right under the header
is the first body row, not a second header row folded into the first column's name."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

COLS = [(60, 220), (220, 320), (320, 420), (420, 520)]
HEAD = ["Site", "Revenue", "Volume", "Score"]
BODY = [["Dental", "", "", ""], ["Elm Street office", "2,876,065", "131,767", "1,010"],
        ["Pine Valley store", "9,443,213", "277,729", "529"], ["Maternity", "", "", ""],
        ["Cedar Park hub", "1,761,736", "67,827", "414"], ["Fairfield unit", "9,895,966", "632,203", "341"]]


def test_bold_group_label_under_a_bold_header_is_a_body_row(tmp_path: Path) -> None:
    doc = pymupdf.open()
    pg = Page(doc)
    top = 100.0
    pg.rule(60, top, 520, 0.8)
    for i, row in enumerate([HEAD, *BODY]):
        y = top + 15 * i + 11
        bold = i == 0 or not any(row[1:])
        for (a, b), text in zip(COLS, row, strict=True):
            pg.text(a + 4, y, text, 8, bold, "l" if a == 60 else "r", b - a - 8)
        if i == 0:
            pg.rule(60, top + 15, 520, 0.5)
    pg.rule(60, top + 15 * (len(BODY) + 1), 520, 0.8)
    (t,) = tables_of(_save(doc, tmp_path / "groups.pdf"))
    assert t.columns == tuple(HEAD)
    assert [list(r) for r in t.rows] == BODY

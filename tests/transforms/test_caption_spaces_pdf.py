"""A one-line caption's runs of spaces are collapsed, as a cell's are (issue 13, peer health,
eu-012 `Table 8.12  - Own brand shares`): a caption typed with spaces between its label and its
title (`Table: 5            Public Health Outlay`) kept them, where a wrapped one was cleaned."""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import new_page, put

ROWS = [("Assam", "1,204", "310"), ("Bihar", "2,517", "622"), ("Goa", "96", "41"), ("Kerala", "1,880", "455")]


def spaced_caption_page(path: Path, caption: str) -> Path:
    """`caption` on one line over a ruled three-column table."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, caption, 10, "bold")
    xs = (72.0, 220.0, 340.0, 460.0)
    ys = [100 + 16 * k for k in range(len(ROWS) + 2)]
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for k, row in enumerate([("State", "Revenue", "Capital"), *ROWS]):
        put(page, xs[0] + 4, ys[k] + 11, row[0], face="bold" if k == 0 else "sans")
        for x, text in zip(xs[2:], row[1:], strict=True):
            put(page, x - 4, ys[k] + 11, text, face="bold" if k == 0 else "sans", align="right")
    doc.save(path)
    return path


def test_a_one_line_captions_runs_of_spaces_are_collapsed(tmp_path: Path) -> None:
    path = spaced_caption_page(tmp_path / "t5.pdf", "Table 5            Public Health Outlay 2012-13        (Rs. in 000)")
    (table,) = rowkeeper.extract(str(path)).tables
    assert table.caption == "Table 5 Public Health Outlay 2012-13 (Rs. in 000)"
    assert table.columns == ("State", "Revenue", "Capital")
    assert [r[0] for r in table.rows] == [r[0] for r in ROWS]

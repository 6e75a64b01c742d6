"""Lines of aligned text under a ruled table (a page footer in two columns) whose run of aligned
rows starts inside the table's last rows: read on their own, and no word in two tables."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document

X = [40, 200, 330, 540]
ROWS = [("Account", "Debit", "Credit"), ("Opening balance of August", "", ""),
        ("Transfers, see the annex of it", "", ""), ("Card payments, see the annex", "", ""),
        ("04/09 5245", "2.000", "64.000")]
FOOTER = [("Postal address:", "Telex : (0805) 411504"), ("198 Main Avenue", "Swift : BFTV VNVX"),
          ("Hanoi, Vietnam", "Website: www.bank.example")]


def _page(path: Path) -> None:
    """A fully ruled table whose middle rows hold one note each, a two-column footer under it."""
    doc = pymupdf.open()
    page = doc.new_page()
    ys = [100 + 24 * i for i in range(len(ROWS) + 1)]
    for y in ys:
        page.draw_line((X[0], y), (X[-1], y))
    for x in X:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for i, row in enumerate(ROWS):
        for j, text in enumerate(row):
            page.insert_text((X[j] + 4, ys[i] + 15), text, fontsize=9)
    for i, (left, right) in enumerate(FOOTER):
        page.insert_text((X[0] + 4, ys[-1] + 14 + 11 * i), left, fontsize=8)
        page.insert_text((X[1] + 4, ys[-1] + 14 + 11 * i), right, fontsize=8)
    doc.save(path)


def test_footer_lines_under_a_ruled_table_are_read_apart_from_it(tmp_path: Path) -> None:
    path = tmp_path / "footer.pdf"
    _page(path)
    tables = process_document(load_document(str(path), path.name), load_config(None)).tables
    assert len(tables) == 2
    ruled, footer = tables
    assert list(ruled.columns) == list(ROWS[0])
    assert [list(r) for r in ruled.rows] == [list(r) for r in ROWS[1:]]
    assert [list(r) for r in footer.rows] == [list(r) for r in FOOTER]

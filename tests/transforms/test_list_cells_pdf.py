"""A ruled table whose value cells hold lists (a total, a blank line, then one item and its
share a line) keeps one row per record: the list's lines are not records run together
(finder/ruled_rows `_keyed_blocks`, transforms/spans `_one_record`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, ruled_records
from tests.transforms.pdf_docs import tables_of

HEADER = ("Group", "Butter", "Margarine", "Spreads")
XS = (60, 150, 270, 400, 540)
# each record: cells as lines; "" is the blank line after a cell's total
RECORDS = [
    (["Nordic Dairy"], ["Total: 0%"], ["Total: 47%", "", "(Alma, Brio,", "Corda, Delta)"],
     ["Total: 39%", "", "Alma (8.4%)", "Corda (10.5%)", "Brio (20.1%)"]),
    (["Westfarm"], ["Total: 18.1%", "", "Essen (4.4%)", "Fjord (13.5%)"], ["Total: 0%"],
     ["Total: 9.5%", "", "Glen (5.6%)", "Hale (3.2%)", "Essen (0.7%)"]),
    (["Own brands"], ["26.9%"], ["19.4%"], ["7%"]),
    (["Others"], ["42.2%"], ["13.3%"], ["9.7%"]),
]


def _shares(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    ruled_records(page, XS, HEADER, RECORDS, pitch=11)
    doc.save(path)
    return path


def test_list_cells_of_a_ruled_table_stay_in_their_record(tmp_path: Path) -> None:
    (t,) = tables_of(_shares(tmp_path / "shares.pdf"))
    assert t.columns == HEADER
    assert [tuple(r) for r in t.rows] == [tuple(" ".join(x for x in c if x) for c in rec) for rec in RECORDS]

"""The header row over a borderless table that prints as one long text line
(finder/header_band.py): labels set a word space apart are no prose, and stay the table's
column names; a heading or a prose line over a table does not become its header."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

HEADERS = {
    "vi": ["Hạng mục", "Nhà cung cấp", "Công suất [kW]", "Chi phí [VNĐ]", "Điểm"],
    "en": ["Item", "Supplier name", "Power output [kW]", "Unit cost [EUR]", "Score"],
}
KINDS = ["Dây chuyền", "Nhà máy", "Cửa hàng", "Văn phòng"]


def _table(path: Path, labels: list[str], above: str | None = None) -> Path:
    """A text column, a left-aligned text column, then figure columns right-aligned under
    right-aligned labels whose gaps are a little wider than a word space (bold header)."""
    rnd = random.Random(5)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "1. Overview", 14, "bold")
    if above:
        put(page, 60, 104, above, 10)
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

"""The header row over a borderless table that prints as one long text line
(finder/header_band.py): labels set a word space apart are no prose, and stay the table's
column names; a heading or a prose line over a table does not become its header."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.header_band import header_band
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

HEADERS = {
    "vi": ["Hạng mục", "Nhà cung cấp", "Công suất [kW]", "Chi phí [VNĐ]", "Điểm"],
    "en": ["Item", "Supplier name", "Power output [kW]", "Unit cost [EUR]", "Score"],
}
KINDS = ["Dây chuyền", "Nhà máy", "Cửa hàng", "Văn phòng"]


def _table(path: Path, labels: list[str], above: str | None = None, above_y: float = 104,
           above_size: float = 10, caption: str | None = None) -> Path:
    """A text column, a left-aligned text column, then figure columns right-aligned under
    right-aligned labels whose gaps are a little wider than a word space (bold header)."""
    rnd = random.Random(5)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "1. Overview", 14, "bold")
    if above:
        put(page, 60, above_y, above, above_size)
    if caption:
        put(page, 60, 113, caption, 10, "bold")
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


def test_the_last_line_of_a_paragraph_over_a_captioned_table_is_no_header(tmp_path: Path) -> None:
    """A caption then the header, right under a paragraph in larger print: the paragraph's
    last line is one phrase in its own print, and no header row of the table."""
    labels = ["Photo", "Site", "Lead time [days]", "Cost [USD]", "Revenue [USD]"]
    path = _table(tmp_path / "t.pdf", labels, above="slightly from the sum of the rows.", above_y=96,
                  above_size=12, caption="Table 1 – Headcount and budget")
    (t,) = tables_of(path)
    assert t.caption == "Table 1 – Headcount and budget"
    assert t.columns == tuple(labels)


def _words(line: list[tuple[float, str]], y: float, size: float, char: float) -> list[tuple]:
    """Word tuples of one printed line: (x, text) each, `char` points a character."""
    return [(x, y, x + char * len(t), y + size, t, 0, 0, 0) for x, t in line]


BODY = [w for i in range(4) for w in _words([(60, f"Site {i}"), (160, "412,118"), (240, "9,301")],
                                             130 + 13 * i, 7.5, 3.8)]
EDGES = [60.0, 150.0, 230.0, 270.0]


def test_header_band_takes_labels_apart_by_more_than_a_word_space() -> None:
    labels = _words([(60, "Site"), (160, "Budget"), (186.8, "[USD]"), (240, "Score")], 117, 7.5, 3.8)
    assert [w[4] for w in header_band(labels, BODY, EDGES)] == ["Site", "Budget", "[USD]", "Score"]


def test_header_band_leaves_prose_in_larger_print_and_a_line_far_up() -> None:
    # word spaces of 3.6 points in 9-point print: wider than the table's gap, one phrase all the same
    prose = _words([(60, "slightly"), (90.0, "from"), (109.2, "the"), (124.8, "sum"), (144.6, "of"),
                    (156.0, "the"), (171.6, "rows.")], 116, 9.0, 4.5)
    assert header_band(prose, BODY, EDGES) == []
    far = _words([(60, "Site"), (160, "Budget"), (240, "Score")], 90, 7.5, 3.8)
    assert header_band(far, BODY, EDGES) == []

"""Short ruled tables (finder/short_tables.py): a header and one row of values inside a frame or
between rules is a table; the same two lines with no rules, or two lines of prose in a box, are not."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

HEADER = ("Invoice no.", "Date", "Customer no.", "Due")
VALUES = ("INV-3337", "01.12.2026", "K-2231", "31.12.2026")
XS = (72, 200, 300, 420)


def _page(path: Path, rows: list[tuple[str, ...]], rules: str) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Rechnung / Invoice", 14, "bold")
    put(page, 72, 85, "Thank you for your order. The goods were delivered to the address given above.")
    for i, row in enumerate(rows):
        for x, text in zip(XS, row, strict=False):
            put(page, x, 132 + 15 * i, text)
    if rules == "frame":
        page.draw_rect(pymupdf.Rect(66, 120, 500, 152), width=0.8)
    elif rules == "between":
        for y in (120, 136, 152):
            page.draw_line((66, y), (500, y), width=0.6)
    elif rules == "rows only":  # a rule between the rows and one under them, none above
        for y in (136, 152):
            page.draw_line((66, y), (500, y), width=0.6)
    elif rules == "one between":  # a lone rule between two lines: a divider, no table
        page.draw_line((66, 136), (500, 136), width=0.6)
    elif rules == "band":  # the header row on a tinted band, the values under it on white
        page.draw_rect(pymupdf.Rect(66, 121, 500, 136), color=None, fill=(0.85, 0.88, 0.95))
    elif rules == "label bands":  # one tinted box under each label
        for x in XS:
            page.draw_rect(pymupdf.Rect(x - 3, 121, x + 95, 136), color=None, fill=(0.8, 0.8, 0.8))
    elif rules == "panel":  # both rows on one tinted panel: no header band
        page.draw_rect(pymupdf.Rect(66, 121, 500, 152), color=None, fill=(0.9, 0.9, 0.9))
    put(page, 72, 190, "Please pay the amount due within thirty days of the invoice date shown.")
    doc.save(path)
    return path


@pytest.mark.parametrize("rules", ["frame", "between", "rows only", "band", "label bands"])
def test_a_header_and_one_row_between_rules_is_a_table(tmp_path: Path, rules: str) -> None:
    (table,) = tables_of(_page(tmp_path / f"{rules}.pdf", [HEADER, VALUES], rules))
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == [VALUES]


@pytest.mark.parametrize("rules", ["none", "panel", "one between"])
def test_the_same_two_lines_with_no_rules_are_no_table(tmp_path: Path, rules: str) -> None:
    assert tables_of(_page(tmp_path / "bare.pdf", [HEADER, VALUES], rules)) == ()


def test_two_lines_of_prose_in_a_box_are_no_table(tmp_path: Path) -> None:
    prose = [("Payment is due within thirty days of the date of this invoice, without deduction.",),
             ("Goods remain our property until the invoice has been paid in full by the customer.",)]
    assert tables_of(_page(tmp_path / "note.pdf", prose, "frame")) == ()


def test_rows_ruled_one_by_one_are_no_short_tables_each() -> None:
    """Three rows with a rule between each: the pairs share a row, so they are rows of a longer
    table (the aligned-run detector's), not two short tables that hold the middle row twice."""
    from rowkeeper.extractors.finder.short_tables import short_ruled_tables
    from rowkeeper.models import TextLine

    lines = [TextLine(page=1, bbox=(x, 100 + 16 * r, x + 40, 110 + 16 * r), text=t)
             for r in range(3) for x, t in ((72, f"Label {r}"), (200, f"{r},204"), (300, f"{r},388"))]
    hs = [(66, 97 + 16 * r, 400, 97.5 + 16 * r) for r in range(4)]
    assert short_ruled_tables(lines[:6], hs[:3]) != []  # two rows alone: a short table
    assert short_ruled_tables(lines, hs) == []


def test_zebra_stripes_make_no_short_tables() -> None:
    """Six rows of three values, every other row on a full-width stripe: each striped row over
    the plain one under it is no header band over one row of values (a longer table's rows)."""
    from rowkeeper.extractors.finder.short_tables import short_ruled_tables
    from rowkeeper.models import TextLine

    lines, fills = [], []
    for r in range(6):
        y = 100 + 14 * r
        lines += [TextLine(page=1, bbox=(x, y, x + 40, y + 10), text=f"{r}.{j}") for j, x in enumerate((72, 200, 300))]
        if r % 2 == 0:
            fills.append((66.0, y - 2.0, 400.0, y + 12.0))
    assert short_ruled_tables(lines, [], fills=fills) == []
    assert short_ruled_tables(lines[:6], [], fills=fills[:1]) == [(72.0, 100.0, 340.0, 124.0)]


def _padded(path: Path) -> Path:
    """The header and its row in a small face (5.5 pt) set with wide cell padding, their
    baselines 18 pt apart (near three line heights), in a frame with a rule between them."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Rechnung / Invoice", 14, "bold")
    for i, row in enumerate([HEADER, VALUES]):
        for x, text in zip(XS, row, strict=True):
            put(page, x, 135 + 18 * i, text, 5.5, "bold" if i == 0 else "sans")
    page.draw_rect(pymupdf.Rect(66, 121, 500, 163), width=0.8)
    page.draw_line((66, 142), (500, 142), width=0.6)
    put(page, 72, 200, "Please pay the amount due within thirty days of the invoice date shown.")
    doc.save(path)
    return path


def test_a_padded_header_and_row_framed_with_a_rule_between_is_a_table(tmp_path: Path) -> None:
    """A small face with wide padding sets the two rows further apart than two rows' pitch
    (form-135-en of zoo dev8: `Phone` over `683-2212` in a box): ruled above, between and
    under, they are a table all the same (issue 13)."""
    (table,) = tables_of(_padded(tmp_path / "padded.pdf"))
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == [VALUES]


"""The key column left of the rows of figures (projection.projection_gaps): where the rows of
figures start right of the first column, its gaps come from every line, and a number inside a
key (`North Ridge store 7877`) is the key's word, never a figure run over from the next column:
another key's number under the word space before it (`Millbrook office 1890`) does not cut it,
since no column starts at that word space's end (a key's number run up to a column that does
start there, the longest key a word space from its description, still opens it:
test_wrapped_records). Set in a monospaced face, whose word space is as wide as the narrowest
column gap. A key on a line of its own keeps its number where the rows of figures leave a gap
under it (`projection._off_words`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page
from tests.transforms.pdf_docs import tables_of

MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
HEADER = ("Item", "Section", "Detail", "Volume", "Date")
DETAILS = [("diagnostics", "$86,123", "2022-11-12"), ("consultation", "$392,761", "2020-10-27"),
           ("medication", "$640,375", "2021-08-11"), ("physiotherapy", "$225,174", "2021-05-10"),
           ("ambulance", "$124,781", "2025-10-26"), ("prenatal care", "$396,643", "2025-05-25"),
           ("postnatal care", "$272,332", "2022-09-18"), ("delivery", "$975,120", "2021-11-05")]
KEYS = [("North Ridge store 7877", 0, 6, 2), ("Millbrook office 1890", 6, 8, 6)]
"""Merged keys: text, first row, end row, the row it is printed on (level with that row's figures)."""
SECTIONS = [("Outpatient care", 0, 4, 1.5), ("Hospitalisation", 4, 6, 4), ("Maternity", 6, 8, 6)]
XS, PITCH, TOP = (45.0, 157.0, 235.0, 347.0, 401.0), 15.0, 175.0
CELLS = [(42, 153), (155, 231), (233, 305), (307, 349), (351, 404)]


def _page(doc: pymupdf.Document) -> tuple[pymupdf.Page, pymupdf.Font]:
    page = new_page(doc)
    page.insert_font(fontname="mono", fontfile=MONO)
    return page, pymupdf.Font(fontfile=MONO)


def _put(page: pymupdf.Page, face: pymupdf.Font, x: float, y: float, text: str, right: bool = False) -> None:
    page.insert_text((x - face.text_length(text, fontsize=8) if right else x, y), text, fontsize=8, fontname="mono")


def _merged_keys(path: Path, ruled: bool) -> Path:
    """A cost table whose item and section cells are merged down over their detail rows, each
    printed once, level with one of its rows (the key beside that row's figures); ruled between
    rows (a rule per column, left out under a merged cell) or borderless."""
    doc = pymupdf.open()
    page, face = _page(doc)
    page.insert_text((42, 100), "Operating costs", fontsize=14, fontname="bold")
    _put(page, face, 42, 130, "The figures below cover the reporting period and were checked.")
    for k, (x, h) in enumerate(zip(XS, HEADER, strict=True)):
        _put(page, face, x, TOP, h, right=k >= 3)
    for i, row in enumerate(DETAILS):
        for x, text, right in zip(XS[2:], row, (False, True, True), strict=True):
            _put(page, face, x, TOP + PITCH * (i + 1), text, right)
    for col, spans in ((0, KEYS), (1, SECTIONS)):
        for text, _, _, at in spans:
            _put(page, face, XS[col], TOP + PITCH * (at + 1), text)
    if ruled:
        for k in range(len(DETAILS) + 1):  # the rule under the header, then under each row
            y = TOP + PITCH * k + 5.7
            for col, spans in ((0, KEYS), (1, SECTIONS), (2, []), (3, []), (4, [])):
                if k == 0 or not any(a < k < b for _, a, b, _ in spans):
                    page.draw_line((CELLS[col][0], y), (CELLS[col][1], y), width=0.5)
    _put(page, face, 42, TOP + PITCH * 10, "Table 1 Operating costs per region")
    doc.save(path)
    return path


def test_a_merged_key_with_a_number_beside_its_figures_is_not_cut(tmp_path: Path) -> None:
    (table,) = tables_of(_merged_keys(tmp_path / "ruled.pdf", ruled=True))
    assert list(table.columns) == list(HEADER)
    assert [r[0] for r in table.rows] == [k for k, a, b, _ in KEYS for _ in range(a, b)]
    assert [tuple(r[2:]) for r in table.rows] == DETAILS


def test_a_borderless_table_keeps_its_key_column_apart_from_the_next(tmp_path: Path) -> None:
    # no rules: only the lines that hold the keys (no row of figures starts left of the details)
    # part the item column from the section column
    (table,) = tables_of(_merged_keys(tmp_path / "borderless.pdf", ruled=False))
    assert list(table.columns) == list(HEADER)
    assert {r[0] for r in table.rows} >= {k for k, *_ in KEYS}


RECORDS = [("North Ridge store 7877", ["Delivery of the water", "softener, with disposal", "of old parts"],
            ("223,687", "27.6%")),
           ("Elm Street 1820", ["Annual inspection of", "the water softener"], ("880,296", "34.7%")),
           ("Millbrook office 1890", ["Monthly maintenance of", "office chairs, as agreed"], ("920,527", "14.9%")),
           ("Ashford 1494", ["Replacement of the", "cooling system"], ("39,392", "51.2%")),
           ("Riverside 7651", ["Cleaning of the main", "switchboard, all sites"], ("784,632", "4.8%"))]
SITES = ("Site", "Scope of service", "Volume", "Share")


def _wrapped(path: Path, valign: str) -> Path:
    """A price list: each key on the first line of its record, its description wrapped beside
    it, the amounts on the record's last line or its first; a rule under each record, broken
    at the column gaps."""
    doc = pymupdf.open()
    page, face = _page(doc)
    page.insert_text((42, 80), "Maintenance costs", fontsize=14, fontname="bold")
    _put(page, face, 42, 104, "All amounts are stated before tax.")
    xs = (45.0, 170.0, 390.0, 450.0)
    y = 140.0
    for k, (x, h) in enumerate(zip(xs, SITES, strict=True)):
        _put(page, face, x, y, h, right=k >= 2)
    cells = [(42, 165), (167, 330), (332, 395), (397, 455)]
    for a, b in cells:
        page.draw_line((a, y + 4), (b, y + 4), width=0.5)
    y += 20
    for key, lines, amounts in RECORDS:
        _put(page, face, xs[0], y, key)
        for k, line in enumerate(lines):
            _put(page, face, xs[1], y + 10 * k, line)
        at = y + (10 * (len(lines) - 1) if valign == "bottom" else 0)
        for x, a in zip(xs[2:], amounts, strict=True):
            _put(page, face, x, at, a, right=True)
        y += 10 * len(lines) + 8
        for a, b in cells:
            page.draw_line((a, y - 6), (b, y - 6), width=0.5)
    _put(page, face, 42, y + 20, "Sites opened during the year are included from their first month.")
    doc.save(path)
    return path


@pytest.mark.parametrize("valign", ["bottom", "top"])
def test_a_wrapped_records_key_column_is_found_and_its_numbers_stay_in_the_key(tmp_path: Path, valign: str) -> None:
    # the amounts on the record's last line (the rows of figures start at the description: the
    # key column comes from the key lines) or on its first (the key shares its line with them)
    (table,) = tables_of(_wrapped(tmp_path / f"wrapped-{valign}.pdf", valign))
    assert list(table.columns) == list(SITES)
    assert [tuple(r) for r in table.rows] == [(k, " ".join(lines), *a) for k, lines, a in RECORDS]



ROWS = [("maternity care", "300,015", "13,584", "5,317", "2025-11-15"),
        ("postnatal care", "736,818", "28,019", "17,827", "2023-06-20"),
        ("delivery", "694,648", "97,728", "94,120", "2022-02-26"),
        ("physiotherapy", "487,664", "52,499", "85,465", "2021-01-08"),
        ("toner", "190,227", "44,048", "32,163", "2020-02-07"),
        ("labels", "44,048", "63,210", "8,432", "2020-03-18")]
OWN_LINE = [("Northgate depot yard 8291", 0, 4, 1.5), ("Elm unit 1989", 4, 6, 4)]
"""Merged keys: text, first row, end row, the row it is printed level with (1.5: on a line of
its own between rows 1 and 2)."""
GROUPS = [("Maternity", 0, 3, 1), ("Outpatient", 3, 4, 3), ("Office supplies", 4, 6, 4)]
OWN_HEADER = ("Item", "Group", "Detail", "Amount", "Budget", "Count", "Date")


def _key_on_its_own_line(path: Path) -> Path:
    """A borderless cost table whose keys are merged down over their rows and printed once, the
    longest on a line of its own between two rows, its number ending a little more than a word
    space before the group column; the shorter key level with a row of figures."""
    doc = pymupdf.open()
    page = new_page(doc)
    face = pymupdf.Font("helv")
    top, pitch = 170.0, 15.0
    xs = (60.0, 60.0 + face.text_length(OWN_LINE[0][0], fontsize=8) + 6.0, 230.0, 330.0, 380.0, 430.0, 450.0)

    def put(x: float, y: float, text: str, right: bool) -> None:
        page.insert_text((x - (face.text_length(text, fontsize=8) if right else 0), y), text, fontsize=8,
                         fontname="helv")

    page.insert_text((60, 100), "Operating costs", fontsize=14, fontname="helv")
    for k, (x, h) in enumerate(zip(xs, OWN_HEADER, strict=True)):
        put(x, top, h, 3 <= k <= 5)
    for i, row in enumerate(ROWS):
        for k, (x, text) in enumerate(zip(xs[2:], row, strict=True)):
            put(x, top + pitch * (i + 1), text, 1 <= k <= 3)
    for col, spans in ((0, OWN_LINE), (1, GROUPS)):
        for text, _, _, at in spans:
            put(xs[col], top + pitch * (at + 1), text, False)
    doc.save(path)
    return path


def test_a_key_on_a_line_of_its_own_keeps_its_number(tmp_path: Path) -> None:
    # the rows of figures hold the short key only: the gap they leave before the group column
    # runs under the long key's number, and a boundary in its middle cut `8291` off the key
    (table,) = tables_of(_key_on_its_own_line(tmp_path / "own-line.pdf"))
    assert list(table.columns) == list(OWN_HEADER)
    assert {r[0] for r in table.rows} - {""} == {k for k, *_ in OWN_LINE}
    assert [tuple(r[2:]) for r in table.rows] == ROWS

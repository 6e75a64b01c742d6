"""Field blocks (finder/field_blocks.py): keys set close to their values print as one text line
with them, so the block shows no aligned segments; the values' shared left edge still makes it
a table, in a frame or not. A framed note, a framed list, an address block are no table."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.field_blocks import field_separators, value_columns
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

FIELDS = [("Customer", "Millbrook Estates"), ("Telephone", "555-0142"), ("Address", "Oak Hill 12")]
PAIRS = [("Quote no.", "Q-2231", "Valid until", "31.12.2026"),
         ("Reference", "Oak Hill 126", "Telephone", "555-0199"),
         ("Customer", "206-2454", "Order no.", "Elm St 4")]


def _page(path: Path, draw) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Quotation 2026", 14, "bold")
    draw(page)
    put(page, 72, 300, "The prices above are valid for thirty days from the date of this quotation.")
    doc.save(path)
    return path


def _framed_fields(page: pymupdf.Page, gap: float = 1.5) -> None:
    # the value column starts just right of the longest key: it prints as one line with it
    x = 78 + width("Telephone", face="bold") + gap
    for i, (key, value) in enumerate(FIELDS):
        put(page, 78, 110 + 16 * i, key, face="bold")
        put(page, x, 110 + 16 * i, value)
    page.draw_rect(pymupdf.Rect(72, 98, 260, 148), width=0.8)


def _bare_pairs(page: pymupdf.Page) -> None:
    # each value column two spaces right of its longest key: keys and values print as one line
    # (and the second key as close to the longest value, so a row prints as one line)
    v1 = 75 + width("Reference") + 6
    k2 = v1 + width("Oak Hill 126") + 5.5
    xs = (75, v1, k2, k2 + width("Telephone") + 6)
    for i, row in enumerate(PAIRS):
        for x, text in zip(xs, row, strict=True):
            put(page, x, 120 + 18 * i, text)


def test_a_framed_block_of_fields_with_a_key_run_up_to_its_value_is_a_table(tmp_path: Path) -> None:
    (table,) = tables_of(_page(tmp_path / "framed.pdf", _framed_fields))
    assert table.columns == ("", "")
    assert [tuple(r) for r in table.rows] == FIELDS


def test_bare_rows_of_two_fields_each_are_a_table(tmp_path: Path) -> None:
    """Read as one table of four columns or as the two blocks of fields side by side: every
    key beside its value, in a row of its own, none a column name."""
    tables = tables_of(_page(tmp_path / "bare.pdf", _bare_pairs))
    pairs = {(r[k], r[k + 1]) for t in tables for r in t.rows for k in range(0, len(r), 2)}
    assert pairs == {(row[k], row[k + 1]) for row in PAIRS for k in (0, 2)}
    assert all(set(t.columns) == {""} for t in tables)


def _framed_list(page: pymupdf.Page) -> None:
    for i, item in enumerate(("Delivery within ten days", "Installation on site", "Two years of service")):
        put(page, 78, 110 + 14 * i, "•")
        put(page, 88, 110 + 14 * i, item)
    page.draw_rect(pymupdf.Rect(72, 98, 300, 144), width=0.8)


def _framed_note(page: pymupdf.Page) -> None:
    put(page, 78, 110, "Note: prices exclude VAT and delivery")
    put(page, 78, 124, "Note: valid for thirty days after issue")
    page.draw_rect(pymupdf.Rect(72, 98, 300, 130), width=0.8)


def _address(page: pymupdf.Page) -> None:
    for i, text in enumerate(("Millbrook Estates Ltd", "Oak Hill 12", "Springfield 4410")):
        put(page, 75, 120 + 12 * i, text)


@pytest.mark.parametrize("draw", [_framed_list, _framed_note, _address], ids=["list", "note", "address"])
def test_framed_lists_notes_and_address_blocks_are_no_table(tmp_path: Path, draw) -> None:
    assert tables_of(_page(tmp_path / "none.pdf", draw)) == ()


def test_a_value_run_into_by_one_long_key_keeps_its_column() -> None:
    """Three rows, values at x=358; the middle key overruns it, glued to its value: the column
    holds in two rows of three. A currency sign after values of one width is no column."""
    rows = [[(310, 0, 339, 7, "Valid"), (358, 0, 384, 7, "660.757"), (386, 0, 390, 7, "₫")],
            [(310, 12, 346, 19, "Contact"), (348.7, 12, 384, 19, "person604.082"), (386, 12, 390, 19, "₫")],
            [(310, 24, 348, 31, "Quote"), (358, 24, 394, 31, "07/01/2026")]]
    assert value_columns(rows, 2) == [358]
    assert value_columns(rows, 3) == []


def test_a_frame_around_a_found_block_gives_it_the_rows_it_left_out(tmp_path: Path) -> None:
    """Five fields in a frame, the last key run up to its value: the rows above read as an
    aligned run already; the frame's block takes the last row in too."""
    fields = [("Project", "$792,893"), ("Valid", "Kingsway"), ("Address", "Lakeside"),
              ("Customer", "699-1743"), ("Quote no.", "2020-09-22")]

    def draw(page: pymupdf.Page) -> None:
        x = 78 + width("Quote no.") + 2.5
        for i, (key, value) in enumerate(fields):
            put(page, 78, 110 + 16 * i, key)
            put(page, x, 110 + 16 * i, value)
        page.draw_rect(pymupdf.Rect(72, 98, 200, 184), width=0.8)

    (table,) = tables_of(_page(tmp_path / "frame.pdf", draw))
    assert [tuple(r) for r in table.rows] == fields



def test_two_columns_of_bullet_points_start_no_fields(tmp_path: Path) -> None:
    """Bullets and list items in two columns: the second column's bullets and the items' text
    after them are no columns of fields (their lines are list items, not keys and values)."""
    left = ("The share of people with", "Adults aged 15 to 64 years", "Most of them lived in")
    right = ("At 10.8 percent, the rate", "Children under 15 years", "The rate rose in 2010")
    doc = pymupdf.open()
    page = new_page(doc)
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        for x, text in ((75, a), (225, b)):
            put(page, x, 120 + 12 * i, "•")
            put(page, x + 9, 120 + 12 * i, text)
    words = page.get_text("words")
    assert field_separators(words) == []


LEFT = [("Project", "$791,281"), ("Quote no.", "2026-11-27"), ("Contact", "273-4630")]
SIDE = [("Phone", "Redwood"), ("Date", "496-4365")]


def _blocks_at_two_pitches(path: Path, blocks: list[list[tuple[str, str]]]) -> Path:
    """A title, then a block of three fields and one of two beside it, rows not level."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 70, "Operating costs per region 2025", 19, "bold")
    for (x, top, pitch), block in zip(((54, 96, 15.5), (334, 98, 19)), blocks, strict=False):
        for i, (key, value) in enumerate(block):
            put(page, x, top + pitch * i, key, 10, "bold")
            put(page, x + 63 if x == 54 else x + 43, top + pitch * i, value, 10)
    put(page, 50, 300, "All amounts are stated before tax unless a note says otherwise.", 10)
    doc.save(path)
    return path


def test_blocks_of_fields_side_by_side_at_two_pitches_are_two_tables(tmp_path: Path) -> None:
    tables = tables_of(_blocks_at_two_pitches(tmp_path / "sides.pdf", [LEFT, SIDE]))
    assert sorted([tuple(r) for r in t.rows] for t in tables) == sorted([LEFT, SIDE])
    assert all(set(t.columns) == {""} for t in tables)


def test_a_lone_block_of_bold_keys_is_a_table_however_its_lines_print(tmp_path: Path) -> None:
    """Bold keys beside regular values: three rows whose keys and values print as two lines
    each were a table; with one key a padding from its value, printed as one line with it,
    the block was none (`finder/bold_keys`: the change of print parts that line too)."""
    (table,) = tables_of(_blocks_at_two_pitches(tmp_path / "bold.pdf", [LEFT]))
    assert [tuple(r) for r in table.rows] == LEFT

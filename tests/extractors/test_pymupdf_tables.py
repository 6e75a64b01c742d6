"""find_tables inside `reading()`: same cells, no external-header search, chars read once."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from rowkeeper.extractors.pymupdf_tables import find, reading
from tests.extractors.helpers import doc_for, draw_grid

ROWS = [("Item", "Price", "Stock"), ("Desk lamp", "24.90", "12"), ("Chair", "89.00", "3"),
        ("Shelf", "120.50", "7")]


def _ruled(path: Path) -> None:
    """A bold title line right above a 3-column ruled grid (PyMuPDF's header search reads it)."""
    doc = pymupdf.open()
    page = doc.new_page()
    x = [72, 200, 300, 400]
    y = [150 + 22 * i for i in range(len(ROWS) + 1)]
    page.insert_text((72, 140), "Price list", fontsize=11, fontname="hebo")
    draw_grid(page, x, y, ROWS, baseline=15)
    doc.save(path)


def test_reading_gives_pymupdfs_cells_without_its_header_search(tmp_path: Path) -> None:
    path = tmp_path / "ruled.pdf"
    _ruled(path)
    doc = doc_for(path)
    with pymupdf.open(path) as pdf:
        page = pdf[0]
        plain = page.find_tables().tables
        with reading():
            ours = find(doc, page, 1, {})
            again = find(doc, page, 1, {})  # same clip: the chars come from the first read
        assert [t.extract() for t in ours] == [t.extract() for t in plain] == [t.extract() for t in again]
        assert ours[0].extract()[1] == ["Desk lamp", "24.90", "12"]
        assert ours[0].header is None and again[0].header is None
        assert plain[0].header is not None  # outside reading(): PyMuPDF's own behaviour
        assert plain[0].header.names  # it named the columns itself
        after = page.find_tables().tables  # the block left nothing behind
        assert after[0].header is not None and after[0].extract() == plain[0].extract()


def test_chars_are_read_once_per_clip_inside_reading_only(tmp_path: Path) -> None:
    path = tmp_path / "ruled.pdf"
    _ruled(path)
    doc = doc_for(path)
    with pymupdf.open(path) as pdf:
        page = pdf[0]
        clip = pymupdf.Rect(60, 140, 420, 260)
        with reading():
            first = find(doc, page, 1, {"clip": clip})
            second = find(doc, page, 1, {"clip": clip, "vertical_strategy": "text"})
            other = find(doc, page, 1, {"clip": pymupdf.Rect(60, 140, 420, 220)})
        outside = [find(doc, page, 1, {"clip": clip}) for _ in range(2)]
        # one text read served both calls on that clip; another clip, or no block, reads anew
        assert first[0].textpage is second[0].textpage
        assert other[0].textpage is not first[0].textpage
        assert outside[0][0].textpage is not outside[1][0].textpage
        assert first[0].extract() == outside[0][0].extract()
        assert first[0].extract()[2] == ["Chair", "89.00", "3"]
        text = find(doc, page, 1, {"clip": clip, "vertical_strategy": "text"})
        assert [t.extract() for t in second] == [t.extract() for t in text]


def test_extractor_reads_the_grid_with_its_cells(tmp_path: Path) -> None:
    path = tmp_path / "ruled.pdf"
    _ruled(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert len(tables) == 1
    texts = {(c.row, c.col): c.text for c in tables[0].cells}
    assert (tables[0].n_rows, tables[0].n_cols) == (4, 3)
    assert texts[(0, 1)] == "Price" and texts[(3, 0)] == "Shelf" and texts[(3, 2)] == "7"


@pytest.mark.parametrize("turn", ["crop", "rotate"])
def test_chars_match_pymupdfs_own_on_turned_or_cropped_pages(tmp_path: Path, turn: str) -> None:
    """The char dicts read inside `reading()` are PyMuPDF's, sideways text included, on a page
    cropped off its origin and on a /Rotate'd one (the page transform is no identity there)."""
    path = tmp_path / "ruled.pdf"
    _ruled(path)
    doc = pymupdf.open(path)
    page = doc[0]
    page.insert_text((450, 300), "Sideways note", fontsize=9, rotate=90)
    page.insert_text((72, 400), "Bold total 1,234.50", fontsize=12, fontname="hebo")
    if turn == "crop":
        page.set_cropbox(pymupdf.Rect(20, 30, 580, 800))
    else:
        page.set_rotation(90)
    doc.save(tmp_path / "turned.pdf")
    # (PyMuPDF's first find_tables on a page both cropped and turned reads other chars than its
    # later calls: its de-rotation changes the page's boxes; each such page is read alike here)
    for first in ("ours", "plain"):
        with pymupdf.open(tmp_path / "turned.pdf") as pdf:
            page = pdf[0]
            if first == "plain":
                plain = page.find_tables().tables
            with reading():
                ours = find(doc_for(tmp_path / "turned.pdf"), page, 1, {})
            if first == "ours":
                plain = page.find_tables().tables
            assert plain and [t._chars for t in ours] == [t._chars for t in plain]
            assert any(not c["upright"] for c in ours[0]._chars)  # the sideways note is in it
            assert ours[0].extract() == plain[0].extract()
            assert "Desk lamp" in {c for row in ours[0].extract() for c in row}  # (turned: by column)


@pytest.mark.parametrize("font", ["helv", "tiro", "cour"])
def test_a_low_line_stays_inside_its_word(tmp_path: Path, font: str) -> None:
    """A cell holding `2012_2`: the low line's exact glyph box lies under the digits', and
    find_tables' line clustering put it on a line of its own (`2012 2` / `_`). Inside the
    extractor it keeps its place in the word; commas and descenders keep theirs too."""
    rows = [("Cycle", "Distance", "Note"), ("2012_2", "1.3", "by_pass, gy"), ("4171_1", "173.9", "n_a")]
    doc = pymupdf.open()
    page = doc.new_page()
    draw_grid(page, [72, 200, 300, 420], [100 + 22 * i for i in range(len(rows) + 1)], rows, baseline=15,
              fontname=font)
    doc.save(tmp_path / "codes.pdf")
    tables = PyMuPDFExtractor().extract(doc_for(tmp_path / "codes.pdf"), [1]).tables
    assert len(tables) == 1
    texts = {(c.row, c.col): c.text for c in tables[0].cells}
    assert texts[(1, 0)] == "2012_2" and texts[(2, 0)] == "4171_1"
    assert texts[(1, 2)] == "by_pass, gy" and texts[(2, 2)] == "n_a"
    assert texts[(2, 1)] == "173.9"

"""find_tables inside `reading()`: same cells, no external-header search, chars read once."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from rowkeeper.extractors.pymupdf_tables import find, reading
from tests.extractors.helpers import doc_for

ROWS = [("Item", "Price", "Stock"), ("Desk lamp", "24.90", "12"), ("Chair", "89.00", "3"),
        ("Shelf", "120.50", "7")]


def _ruled(path: Path) -> None:
    """A bold title line right above a 3-column ruled grid (PyMuPDF's header search reads it)."""
    doc = pymupdf.open()
    page = doc.new_page()
    x = [72, 200, 300, 400]
    y = [150 + 22 * i for i in range(len(ROWS) + 1)]
    page.insert_text((72, 140), "Price list", fontsize=11, fontname="hebo")
    for xi in x:
        page.draw_line((xi, y[0]), (xi, y[-1]))
    for yi in y:
        page.draw_line((x[0], yi), (x[-1], yi))
    for i, row in enumerate(ROWS):
        for j, text in enumerate(row):
            page.insert_text((x[j] + 4, y[i] + 15), text, fontsize=10)
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

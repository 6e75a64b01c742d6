"""Borderless tables read from aligned columns: the first column and titles above them."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.projection import projection_gaps as _projection_gaps
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for

ROWS = [("Region", "Units", "Revenue", "Margin"), ("North", "120", "4,300", "12.5"),
        ("South", "95", "3,150", "9.8"), ("East", "240", "8,020", "14.1"), ("West", "61", "1,990", "7.7")]


def test_first_column_kept_when_labels_start_with_blanks(tmp_path: Path) -> None:
    """Leading blanks widen the text line (the aligned region) beyond the first word; the
    outer rule sits on the words, so the first column is not lost."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 180), "Table 21 Sales by region, units and revenue in the year", fontsize=10)
    for i, row in enumerate(ROWS):
        for j, text in enumerate(row):
            page.insert_text((72 + 110 * j, 200 + 14 * i), "  " + text if j == 0 else text, fontsize=10)
    path = tmp_path / "blanks.pdf"
    doc.save(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [[tuple(r) for r in t.grid()] for t in tables] == [ROWS]


def test_title_with_a_number_does_not_close_the_column_gaps() -> None:
    """'Table 21 ...' above the body holds a digit but is no numeric row: gaps come from the body."""
    title = "Table 21 Current use of contraception by background".split()
    words = [(84 + 40 * i, 90, 120 + 40 * i, 100, w) for i, w in enumerate(title)]
    for k, y in enumerate((110, 120, 130)):
        words += [(84, y, 150, y + 8, f"Label{k}"), (204, y, 220, y + 8, "74.8"), (300, y, 316, y + 8, "1.2")]
    assert len(_projection_gaps(words)) == 2


def test_page_number_level_with_a_row_is_no_column() -> None:
    from rowkeeper.extractors.finder.region_trims import drop_margin_numbers as _drop_margin_numbers

    words = [(39, 111, 48, 119, "54")]
    for k, y in enumerate((90, 100, 110, 120, 130)):
        words += [(84, y, 150, y + 8, f"Label{k}"), (204, y, 220, y + 8, "74.8"), (300, y, 316, y + 8, "1.2")]
    kept, seps = _drop_margin_numbers(words, _projection_gaps(words))
    assert "54" not in [w[4] for w in kept] and len(seps) == 2



def test_long_labels_beside_figures_keep_their_rows_numeric() -> None:
    """'Knowledge and awareness of different cultures 0,2885 0,3974 0,3904': five label words and
    three figures is a numeric row (one label phrase, three numbers), so a group header spanning
    the figure columns does not close their gaps."""
    words = [(200, 80, 330, 90, "Involvement"), (334, 80, 350, 90, "of"), (354, 80, 400, 90, "pupils")]
    label = "Knowledge and awareness of different cultures".split()
    for k, y in enumerate((100, 112, 124)):
        x = 72.0
        for w in label:
            words.append((x, y, x + 6 * len(w), y + 9, w))
            x += 6 * len(w) + 3
        words += [(x + 10, y, x + 40, y + 9, f"0,{2885 + k}"), (x + 60, y, x + 90, y + 9, "0,3974"),
                  (x + 110, y, x + 140, y + 9, "0,3904")]
    assert len(_projection_gaps(words)) == 3


def test_negatives_in_parentheses_stay_aligned_with_their_column() -> None:
    """Peer camelot/edge_tol: '(0.21)' hangs its ')' right of the right-aligned figures; the
    rows still line up in two columns, so the block is a table candidate."""
    from rowkeeper.extractors.finder.text_runs import aligned_regions
    from tests.transforms.builders import line

    rows = [("Direct result", "-"), ("Revaluation", "3.99"), ("Costs", "(0.21)"), ("Total", "3.78")]
    lines = []
    for i, (label, value) in enumerate(rows):
        right = 530 + (4.0 if value.endswith(")") else 0.0)  # the ')' beyond the column's edge
        lines += [line(label, 1, 545 + 11 * i, x0=71), line(value, 1, 545 + 11 * i, x0=right - 6 * len(value))]
    regions, _, _ = aligned_regions(lines)
    assert len(regions) == 1

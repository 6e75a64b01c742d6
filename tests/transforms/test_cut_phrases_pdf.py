"""A monospaced borderless table whose one long row label reaches past the header word centred
over the labels: the column edge placed in the gap the other rows leave falls at a word space
of that label. The label stays whole and no empty column is made (transforms/cut_phrases)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.transforms.pdf_docs import tables_of

ROWS = [("Total", "39695", "100.0", "100.0"), ("Not reached", "5701", "14.4", "18.2"),
        ("Reached, but not measured", "2683", "6.8", "7.5"), ("Site measured", "30818", "77.6", "73.4"),
        ("Home measured", "493", "1.2", "0.8")]
RIGHTS = (327.0, 390.0, 490.0)


def _width(text: str) -> float:
    return pymupdf.get_text_length(text, fontname="cour", fontsize=12)


def _status_table(path: Path, note: str = "") -> Path:
    """Courier 12: labels from x=74, `Status` centred over them, figures right-aligned; `note`,
    when given, is printed in a column of its own at the right of the third row."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)

    def put(x: float, y: float, text: str) -> None:
        page.insert_text((x, y), text, fontsize=12, fontname="cour")

    put(74, 90, "Table 4: Response by status, 2019")
    put(145, 124, "Status")
    for x, head in zip(RIGHTS, ("Sample", "Percent", "Weighted"), strict=True):
        put(x - _width(head), 124, head)
    put(RIGHTS[0] - _width("size"), 137, "size")
    put(RIGHTS[2] - _width("Percent"), 137, "Percent")
    for i, row in enumerate(ROWS):
        y = 152 + 15.4 * i
        put(74, y, row[0])
        for x, text in zip(RIGHTS, row[1:], strict=True):
            put(x - _width(text), y, text)
        if note and i == 2:
            put(520, y, note)
    put(74, 260, "The rates are weighted by the inverse of the probability of selection.")
    doc.save(path)
    return path


def test_a_label_cut_at_a_word_space_by_a_column_edge_stays_whole(tmp_path: Path) -> None:
    (t,) = tables_of(_status_table(tmp_path / "status.pdf"))
    assert t.columns == ("Status", "Sample size", "Percent", "Weighted Percent")
    assert [tuple(r) for r in t.rows] == ROWS


def test_a_sparse_column_printed_apart_stays_a_column(tmp_path: Path) -> None:
    (t,) = tables_of(_status_table(tmp_path / "status_note.pdf", note="(a)"))
    assert [r[0] for r in t.rows] == [r[0] for r in ROWS]
    assert [r[-1] for r in t.rows] == ["", "", "(a)", "", ""]

"""A header label with its number (`Day 1`), centred over two figure columns, that the finder's
column edge cuts between the words: the number alone in a header cell read as data and no
header was found. The label is one cell over both columns (transforms/cut_phrases)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of

ROWS = [("0", "39", "5.8", "100"), ("250", "30", "5.9", "102"), ("500", "33", "6.0", "103"),
        ("1,000", "31", "5.8", "100"), ("2,000", "38", "5.8", "100"), ("4,000", "27", "5.3", "91"),
        ("8,000", "23", "5.4", "93"), ("10,000", "34", "5.6", "104"), ("12,000", "32", "5.4", "98"),
        ("16,000", "40", "5.5", "102"), ("20,000", "49", "5.3", "97"), ("25,000", "31", "5.0", "93")]
RIGHTS = (110.0, 160.0, 215.0, 265.0)


def _put_right(page: pymupdf.Page, right: float, y: float, text: str, font: str = "helv") -> None:
    page.insert_text((right - pymupdf.get_text_length(text, fontname=font, fontsize=9), y), text,
                     fontsize=9, fontname=font)


def _weights(path: Path, label: str) -> Path:
    """Dose, count, then `label` centred over a weight and a relative-weight column."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Table 6 Mean body weights of pups", fontsize=10, fontname="hebo")
    centre = (RIGHTS[1] + RIGHTS[3]) / 2 + 5
    width = pymupdf.get_text_length(label, fontname="hebo", fontsize=9)
    page.insert_text((centre - width / 2, 110), label, fontsize=9, fontname="hebo")
    for right, head in zip(RIGHTS, ("Dose", "No.", "Weight", "Relative"), strict=True):
        _put_right(page, right, 124, head, "hebo")
    for i, row in enumerate(ROWS):
        for right, text in zip(RIGHTS, row, strict=True):
            _put_right(page, right, 140 + 12 * i, text)
    doc.save(path)
    return path


@pytest.mark.parametrize("label", ["Postnatal Day 1"])
def test_a_labels_number_cut_off_by_a_column_edge_stays_in_the_label(tmp_path: Path, label: str) -> None:
    (table,) = tables_of(_weights(tmp_path / "weights.pdf", label))
    assert table.header_rows >= 1
    assert table.rows[0] == ("0", "39", "5.8", "100")
    assert table.columns[:2] == ("Dose", "No.")
    assert label in table.columns[2] and label in table.columns[3]


STACKS = (("Dose", "(ppm)"), ("No.",), ("Body", "Weight", "(g)"), ("Weight", "Relative", "to", "Controls", "(%)"))
"""Column labels set a word a line, bottom-aligned over their columns."""


def _stacked(path: Path) -> Path:
    """`Postnatal Day 1` centred over two columns whose labels stand a word a line (bold over
    a regular body): five lines of labels under the group label."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Table 6 Mean body weights of pups", fontsize=10, fontname="hebo")
    centre = (RIGHTS[1] + RIGHTS[3]) / 2 + 5
    label = "Postnatal Day 1"
    page.insert_text((centre - pymupdf.get_text_length(label, fontname="hebo", fontsize=9) / 2, 100),
                     label, fontsize=9, fontname="hebo")
    for right, stack in zip(RIGHTS, STACKS, strict=True):
        for k, word in enumerate(stack):
            _put_right(page, right, 112 + 10 * (5 - len(stack) + k), word, "hebo")
    for i, row in enumerate(ROWS):
        for right, text in zip(RIGHTS, row, strict=True):
            _put_right(page, right, 170 + 12 * i, text)
    doc.save(path)
    return path


def test_labels_set_a_word_a_line_under_a_cut_group_label_name_their_own_columns(tmp_path: Path) -> None:
    (table,) = tables_of(_stacked(tmp_path / "stacked.pdf"))
    assert table.rows[0] == ("0", "39", "5.8", "100")
    assert table.columns == ("Dose (ppm)", "No.", "Postnatal Day 1 Body Weight (g)",
                             "Postnatal Day 1 Weight Relative to Controls (%)")


def _deep(fifth: tuple[str, ...]) -> list[list[str]]:
    head = [["", "Total", ""], ["", "Under 18", "18 years"], ["Offense", "", "and"], ["charged", "years", "over"]]
    body = [[f"Offense {k}", f"{10 * k}.5", f"{7 * k}.1"] for k in range(1, 15)]
    return head + [list(fifth)] + body


def test_a_bold_row_past_four_header_rows_is_header_only_when_it_holds_labels() -> None:
    from rowkeeper.transforms.headers import detect_header_rows
    bold = [True] * 5 + [False] * 14
    assert detect_header_rows(_deep(("(arrests)", "(number)", "(number)")), (), bold) == 5
    assert detect_header_rows(_deep(("Total . . . .", "11,062. 6", "9,522. 6")), (), bold) == 4

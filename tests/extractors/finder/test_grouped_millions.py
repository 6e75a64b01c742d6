"""A column of space-grouped amounts ("1 715 727") where only some rows reach the millions:
the leading groups ("1", "7") are right-aligned on an edge of their own, and a negative amount
("-450 977", "(450 977)") starts on that edge when signs and group spaces are a figure wide
(U+2007), yet they are parts of one figure, not a column
(finder/figure_parts.join_figure_parts). A currency sign in letters set at the column's left
("Ft", "kr", "EUR") on the first and the total row only does not make those rows labels: they
stay rows of figures, whose gaps part the columns (finder/figure_words.mostly_numbers), and the
sign reaches its amount ("Ft 1 715 727")."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.api import extract
from tests.extractors.finder.layout import grids, new_page

LABELS = ["Nettó árbevétel", "Értékesítés költsége", "Bruttó eredmény", "Értékesítési költségek",
          "Igazgatási költségek", "Egyéb bevételek", "Üzemi eredmény", "Pénzügyi ráfordítás", "Összesen"]
THIS = ["1 758 898", "1 750 581", "1 674 923", "897 387", "1 565 228", "1 367 182", "160 168", "1 400 566",
        "11 375 476"]
LAST = ["1 715 727", "722 984", "655 676", "1 761 836", "1 608 423", "1 127 653", "{neg}", "608 993", "7 878 226"]


def _amount(page: pymupdf.Page, right: float, y: float, text: str) -> None:
    """`text` set as a typesetter sets tabular figures: group by group from the `right` edge,
    every digit, a sign (-, () and the space between groups a figure wide (U+2007): a minus
    starts where the millions' leading digit ends."""
    digit = space = pymupdf.get_text_length("0", fontname="helv", fontsize=9.5)
    x = right
    for group in reversed(text.split(" ")):
        x -= len(group) * digit
        page.insert_text((x, y), group, fontsize=9.5, fontname="helv")
        x -= space


def _put(page: pymupdf.Page, x: float, y: float, text: str) -> None:
    page.insert_text((x, y), text, fontsize=9.5, fontname="helv")


def _statement(path: Path, negative: str, sign: str) -> list[list[list[str]]]:
    """The PyMuPDF layer's grids of `_write`'s statement."""
    return grids(_write(negative, sign), path)


def _write(negative: str, sign: str) -> pymupdf.Document:
    """An accounting-style statement: labels, two right-aligned amount columns under years,
    the currency `sign` at each amount column's left on the first and the total row."""
    doc = pymupdf.open()
    page = new_page(doc)
    _amount(page, 301.4, 175, "2020")
    _amount(page, 393.25, 175, "2019")
    for i, (label, this, last) in enumerate(zip(LABELS, THIS, LAST, strict=True)):
        y = 197 + 21.875 * i
        _put(page, 64 if i % 3 == 2 else 78, y, label)
        _amount(page, 301.4, y, this)
        _amount(page, 393.25, y, last.format(neg=negative))
        if i in (0, len(LABELS) - 1):
            _put(page, 211.8, y, sign)
            _put(page, 309.4, y, sign)
    return doc


@pytest.mark.parametrize("negative", ["-450 977", "(450 977)"])
@pytest.mark.parametrize("sign", ["Ft", "kr", "EUR"])
def test_leading_groups_of_millions_stay_with_their_amount(tmp_path: Path, negative: str, sign: str) -> None:
    [grid] = _statement(tmp_path / "statement.pdf", negative, sign)
    body = [[c for c in row if c] for row in grid if row[0] in LABELS]
    assert [row[0] for row in body] == LABELS
    assert [row[-1] for row in body] == [t.format(neg=negative) for t in LAST]
    assert not [c for row in body for c in row if re.fullmatch(r"\d{1,3}", c)]  # no lone leading group


@pytest.mark.parametrize("sign", ["Ft", "kr", "EUR"])
def test_sign_in_letters_on_first_and_total_rows_reaches_its_amount(tmp_path: Path, sign: str) -> None:
    path = tmp_path / "statement.pdf"
    _write("(450 977)", sign).save(path)
    [table] = extract(path).tables
    assert table.columns == ("", "2020", "2019")
    assert [r[0] for r in table.rows] == LABELS
    assert table.rows[0] == ("Nettó árbevétel", f"{sign} 1 758 898", f"{sign} 1 715 727")
    assert table.rows[-1] == ("Összesen", f"{sign} 11 375 476", f"{sign} 7 878 226")
    assert table.rows[6][2] == "(450 977)"

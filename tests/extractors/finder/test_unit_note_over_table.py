"""A unit note right-aligned with the paragraphs over a statement (`in Tausend` at the text
block's right margin, a few points past the last column's figures) is no line of the table's
header (finder/run_heads.py, OVERHANG): the columns keep their own labels (issue 13, zoo dev7
financial-112-de, dev15 financial-260-hu)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

ROWS = [["Umsatzerlöse", "583.655", "(152.232)"], ["Herstellungskosten", "699.699", "1.326.815"],
        ["Bruttoergebnis", "1.956.414", "870.557"], ["Vertriebskosten", "369.872", "1.024.479"],
        ["Verwaltungskosten", "971.504", "1.822.536"], ["Summe", "6.487.388", "5.708.780"]]
LEFT, RIGHT = 42.0, 553.0
COLUMNS = (400.0, 550.0)
"""Where the figure columns end: the last 3 points inside the text block's right margin."""


def statement(path: Path, unit: str) -> Path:
    """A paragraph, a unit note at the right margin, years over two figure columns, a rule
    under each row, the caption under the table."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "1. Personal", 15, True)
    pg.text(LEFT, 90, "Die folgenden Zahlen betreffen den Berichtszeitraum und wurden geprüft.", 11)
    pg.text(LEFT, 110, unit, 10, False, "r", RIGHT - LEFT)
    y = 128.0
    for k, row in enumerate([["", "2024", "2023"], *ROWS]):
        pg.text(LEFT + 3, y, row[0], 11, k == 0)
        for x, t in zip(COLUMNS, row[1:], strict=True):
            pg.text(x - 100, y, t, 11, k == 0, "r", 100)
        pg.rule(LEFT, y + 5, RIGHT)
        y += 19
    pg.text(LEFT, y + 10, "Tabelle 1 Lieferantenübersicht", 11)
    pg.text(LEFT, y + 40, "Im Laufe des Jahres eröffnete Standorte sind ab dem ersten vollen Monat enthalten.", 11)
    return _save(doc, path)


@pytest.mark.parametrize("unit", ["in Tausend", "ezer egységben"])
def test_a_unit_note_at_the_right_margin_names_no_column(tmp_path: Path, unit: str) -> None:
    (t,) = tables_of(statement(tmp_path / "statement.pdf", unit))
    assert t.columns == ("", "2024", "2023")
    assert [list(r) for r in t.rows] == ROWS


PAY = [["Weekly", "$ 71.15"], ["Biweekly", "142.31"], ["Semimonthly", "154.17"], ["Monthly", "308.33"],
       ["Quarterly", "925.00"], ["Annually", "3,700.00"]]


def test_a_label_line_flush_left_with_its_column_stays_however_far_it_reaches(tmp_path: Path) -> None:
    """A column's two-line label set flush left (`One Withholding` over `Allowance`, peer
    tabula_us-007) reaches past the figures under it: still that column's label's first line."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "The withholding allowance amounts by payroll period have changed. For 2011, they are:", 10)
    pg.text(300, 90, "One Withholding", 9)
    pg.text(LEFT + 100, 101, "Payroll Period", 9)
    pg.text(300, 101, "Allowance", 9)
    y = 118.0
    for key, value in PAY:
        pg.text(LEFT + 100, y, key, 9)
        pg.text(300, y, value, 9, False, "r", 55)
        y += 16
    pg.text(LEFT, y + 20, "Social security and Medicare tax for 2011 are set out in the next section.", 10)
    (t,) = tables_of(_save(doc, tmp_path / "allowance.pdf"))
    assert t.columns == ("Payroll Period", "One Withholding Allowance")
    assert [list(r) for r in t.rows] == PAY

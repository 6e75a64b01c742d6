"""An income statement whose negatives in parentheses end flush with the other figures of their
column (the `)` does not hang past them), rules above its subtotals, its group totals in bold:
half of a column's rows end one character left of the other half if the `)` is taken to hang,
and no edge was shared by enough rows for the run of rows to be a table at all
(finder/text_runs: a parenthesised negative offers both right edges)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

ROWS = [  # label, indented, note, this year, last year
    ("Revenue", True, "12", "366,499", "(528,368)"),
    ("Cost of sales", True, "25", "(27,619)", "2,045,549"),
    ("Gross profit", False, "", "(322,169)", "1,812,294"),
    ("Operating expenses", False, "", "", ""),
    ("Selling expenses", True, "21", "(865,965)", "(537,052)"),
    ("Administrative expenses", True, "", "(713,015)", "2,468,282"),
    ("Other income", False, "", "152,404", "2,422,491"),
    ("Operating result", True, "13", "1,535,953", "(494,133)"),
    ("Finance costs", True, "", "1,487,214", "(854,030)"),
    ("Income tax", False, "14", "(299,211)", "2,032,717"),
    ("Total", False, "", "1,314,091", "8,367,750"),
]
NOTE, THIS, LAST = 288.0, 445.0, 566.0


def statement(path: Path) -> Path:
    """A titled statement: a header of a notes column and two years, items indented under
    their bold totals, a group label in bold with no figures, a rule over each bold total,
    figures and parentheses right-aligned on one edge per column."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 46, 80, "2. Income statement", 14, "bold")
    put(page, 46, 110, "The figures below cover the reporting period.", 10.5)
    put(page, 46, 140, "Table 1 Statement of income", 10.5, "bold")
    put(page, NOTE, 172, "Note", 10.5, "bold", "right")
    put(page, THIS, 172, "2023", 10.5, "bold", "right")
    put(page, LAST, 172, "2022", 10.5, "bold", "right")
    for i, (label, indented, note, this, last) in enumerate(ROWS):
        y = 192 + 20 * i
        face = "sans" if indented else "bold"
        if not indented and this:
            page.draw_line((46, y - 12.5), (LAST + 4, y - 12.5), width=0.6)
        put(page, 56 if indented else 46, y, label, 10.5, face)
        if note:
            put(page, NOTE, y, note, 10.5, face, "right")
        if this:  # a group label has no figures
            put(page, THIS, y, this, 10.5, face, "right")
            put(page, LAST, y, last, 10.5, face, "right")
    put(page, 46, 430, "Sites opened during the year are included from their first full month.", 10.5)
    doc.save(path)
    return path


def test_a_statement_with_flush_negatives_and_rules_over_its_totals_is_read(tmp_path: Path) -> None:
    (t,) = tables_of(statement(tmp_path / "statement.pdf"))
    assert t.columns == ("", "Note", "2023", "2022")
    assert len(t.rows) == len(ROWS)
    assert [r[0] for r in t.rows] == [label for label, *_ in ROWS]
    assert t.rows[1] == ("Cost of sales", "25", "(27,619)", "2,045,549")
    assert t.rows[-1] == ("Total", "", "1,314,091", "8,367,750")
    assert t.rows[3] == ("Operating expenses", "", "", "")
    assert t.caption == "Table 1 Statement of income"

"""Two bullet lists side by side, one line per item, are lists, not a table; a table whose
first column numbers its rows stays a table (finder/bullet_lists.py through the pipeline)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.extractors.finder.bullet_lists import is_bullet_list
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put

LISTS = {
    "en": (["Faster invoice approval", "Fewer manual corrections", "One archive for all contracts",
            "Audit trail for every change", "Exports to the ERP"],
           ["Training for new staff", "Monthly usage reports", "Single sign-on",
            "Support in four languages", "Data kept in the EU"]),
    "de": (["Schnellere Freigabe von Rechnungen", "Weniger manuelle Korrekturen", "Ein Archiv für alle Verträge",
            "Protokoll jeder Änderung", "Export in das ERP"],
           ["Schulung neuer Mitarbeiter", "Monatliche Berichte", "Einmalige Anmeldung",
            "Support in vier Sprachen", "Daten bleiben in der EU"]),
}


def _tables(path: Path) -> list:
    return process_document(load_document(str(path), path.name), load_config(None)).tables


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("marker", ["•", "–", "1."])
def test_two_lists_side_by_side_are_no_table(tmp_path: Path, lang: str, marker: str) -> None:
    left, right = LISTS[lang]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Project overview", 12, "bold")
    put(page, 72, 100, "The project replaces the old workflow in three steps over the next two quarters.")
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        y = 125 + 14 * i
        m = f"{i + 1}." if marker == "1." else marker
        put(page, 80, y, m)
        put(page, 92, y, a)
        put(page, 300, y, m)
        put(page, 312, y, b)
    put(page, 72, 125 + 14 * 6, "Each step ends with a review by the steering group before the next one starts.")
    doc.save(tmp_path / "lists.pdf")
    assert _tables(tmp_path / "lists.pdf") == ()


def test_a_table_numbering_its_rows_stays_a_table(tmp_path: Path) -> None:
    rows = [("No.", "Item", "Amount")] + [(str(i + 1), name, f"{(i + 2) * 125:,}.00")
                                           for i, name in enumerate(LISTS["en"][0])]
    doc = pymupdf.open()
    page = new_page(doc)
    for i, row in enumerate(rows):
        for x, text in zip((72, 100, 330), row, strict=True):
            put(page, x, 120 + 14 * i, text, face="bold" if i == 0 else "sans")
    doc.save(tmp_path / "numbered.pdf")
    (table,) = _tables(tmp_path / "numbered.pdf")
    assert table.columns == ("No.", "Item", "Amount") and len(table.rows) == 5


def test_marker_columns_must_hold_a_marker_in_every_row() -> None:
    assert is_bullet_list([["•", "a"], ["•", "b"], ["a)", "c"]])
    assert not is_bullet_list([["1", "a"], ["2", "b"]])  # row numbers
    assert not is_bullet_list([["•", "a"], ["Total", "b"]])

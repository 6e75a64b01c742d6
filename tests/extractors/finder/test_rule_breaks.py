"""Row rules broken at a table's column gaps: the aligned region reaches over every record they
part, though the first records' text lines up too loosely for an aligned run to take them."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.rule_breaks import broken_rules
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

ROWS = [("8288 Csúcs iroda", "8 654 374 Ft", "6 566 079 Ft", "2024. 04. 17."),
        ("3251 Nyugati kapu iroda", "5 309 076 Ft", "7 146 308 Ft", "2021. 09. 17."),
        ("6082 Vörösfenyő üzem", "3 914 423 Ft", "6 671 982 Ft", "2025. 12. 03."),
        ("6645 Tölgyes raktár", "7 161 583 Ft", "4 766 209 Ft", "2022. 01. 05."),
        ("4389 Erdőszél egység", "7 842 100 Ft", "4 568 098 Ft", "2019. 01. 23."),
        ("2690 Északi telep bolt", "1 584 043 Ft", "5 022 887 Ft", "2024. 03. 11.")]
SEGMENTS = [(72.0, 214.4), (218.4, 292.5), (296.5, 370.6), (374.6, 454.1)]


def test_a_table_ruled_in_segments_keeps_its_first_records_header_and_caption(tmp_path: Path) -> None:
    """Figures with spaces for thousands separators set 8 points from the next column, rules
    under the header and every record drawn one segment per column: the first two records,
    the header and the caption over them belong to the table (issue 13, zoo dev7
    row_rules-116-hu)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 100, "Karbantartási terv 2022", 16, "bold")
    put(page, 72, 130, "A költségek tartalmazzák a karbantartást és az energiát.", 11)
    put(page, 72, 160, "1. táblázat – Szállítói áttekintés", 11, "bold")
    y = 182.0
    for j, head in enumerate(("Tétel", "Egységár", "Árbevétel", "Dátum")):
        put(page, (76, 290.5, 368.6, 450.1)[j], y, head, 11, "bold", "left" if j == 0 else "right")
    for row in [None, *ROWS]:
        for j, text in enumerate(row or ()):
            put(page, (76, 220.4, 298.5, 376.6)[j], y, text, 11)
        for a, b in SEGMENTS:
            page.draw_line((a, y + 6.5), (b, y + 6.5), width=0.5)
        y += 23.75
    put(page, 72, y + 20, "Az adatok a beszámolási időszakra vonatkoznak.", 11)
    path = tmp_path / "segments.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("Tétel", "Egységár", "Árbevétel", "Dátum")
    assert t.caption == "1. táblázat – Szállítói áttekintés"
    assert [tuple(r) for r in t.rows] == ROWS


def test_whole_rules_and_rules_broken_at_one_height_are_no_broken_rules() -> None:
    """Rules across the whole width, or a group's underline broken at one height only (a
    spanner's rules), say nothing about the columns."""
    whole = [(72.0, y, 454.1, y) for y in (200.0, 220.0, 240.0)]
    spanner = [(72.0, 90.0, 200.0, 90.0), (210.0, 90.0, 454.1, 90.0)]
    assert broken_rules(whole + spanner) == []
    broken = [(a, y, b, y) for y in (100.0, 120.0, 140.0) for a, b in SEGMENTS]
    assert broken_rules(broken + whole) == [(72.0, 454.1, [100.0, 120.0, 140.0])]

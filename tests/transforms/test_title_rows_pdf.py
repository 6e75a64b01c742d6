"""Text set right above a borderless table and read into its first rows (transforms/titles.py):
a lead-in sentence and a caption whose lines cross the table's columns are taken back out;
a table whose rows are each one printed line keeps its header."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save

LEADS = {
    "en": ("The figures below cover the reporting period and were checked by the team.",
           "Table 1. Maintenance schedule", ["Site", "Cost", "Output"]),
    "de": ("Die folgenden Zahlen betreffen den Berichtszeitraum und wurden geprüft.",
           "Tabelle 1. Wartungsplan", ["Standort", "Kosten", "Leistung"]),
    "ja": ("次の表は今年度の拠点別の費用と出力を示しており、管理部門が確認したものである。",
           "表1 保守計画", ["拠点", "費用", "出力"]),
}


def _body(rnd: random.Random, n: int) -> list[list[str]]:
    return [[f"Harbour depot {i + 1}", f"{rnd.randint(1000, 99999):,}", f"{rnd.randint(10, 999)}.{i}"]
            for i in range(n)]


def lead_in_table(path: Path, lang: str, gap: float, lead: bool = True) -> Path:
    """A heading, a lead-in sentence wider than the table, a caption over its first two
    columns, then a borderless table `gap` points under the caption."""
    sentence, caption, header = LEADS[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "1. Regional sales", 12, True)
    y = 84.0
    if lead:
        pg.text(LEFT, y, sentence, 9)
        y += 12
    pg.text(LEFT, y, caption, 9, True)
    y += gap
    for j, row in enumerate([header, *_body(random.Random(3), 8)]):
        for i, t in enumerate(row):
            pg.text(LEFT + (0, 90, 160)[i], y, t, 9, j == 0, "l" if i == 0 else "r", (80, 60, 60)[i])
        y += 13
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
@pytest.mark.parametrize("gap", [10.0, 12.0, 14.0])
def test_lead_in_sentence_and_caption_leave_the_header(tmp_path: Path, lang: str, gap: float) -> None:
    sentence, caption, header = LEADS[lang]
    (t,) = tables_of(lead_in_table(tmp_path / "lead.pdf", lang, gap))
    assert t.columns == tuple(header)
    assert t.caption == caption
    assert len(t.rows) == 8 and t.rows[0][0] == "Harbour depot 1"


def test_caption_alone_over_the_columns_leaves_the_header(tmp_path: Path) -> None:
    (t,) = tables_of(lead_in_table(tmp_path / "cap.pdf", "en", 12.0, lead=False))
    assert t.columns == ("Site", "Cost", "Output") and t.caption == "Table 1. Maintenance schedule"


def printed_report(path: Path) -> Path:
    """A table printed line by line in a monospace font: each row, its header too, is one text
    line whose words the finder cuts into columns."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    rows = [["Description of the site", "Annual cost", "Output"]] + [
        [f"Northern harbour depot {i + 1}", f"{1200 + 37 * i:,}", f"{40 + i}.5"] for i in range(8)]
    for j, row in enumerate(rows):
        text = f"{row[0]:<28}{row[1]:>12}{row[2]:>10}"
        page.insert_text((LEFT, 100 + 13 * j), text, fontsize=9, fontname="cour")
    return _save(doc, path)


def test_a_report_printed_line_by_line_keeps_its_header(tmp_path: Path) -> None:
    # every line is cut into columns, the header's as well: it stays the header, not a
    # sentence above the table (how its words split into columns is the finder's matter)
    (t,) = tables_of(printed_report(tmp_path / "report.pdf"))
    assert t.columns[0].startswith("Description") and t.columns[-1] == "Output"
    assert len(t.rows) == 8 and t.rows[0][0].startswith("Northern")


def joined_header_table(path: Path) -> Path:
    """A caption, then a borderless table whose labels over the figures are printed as one
    line ("Share [%]   Cost [USD]   Margin [%]"), each right-aligned over its column."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 84, "Table 1. Supplier overview", 9, True)
    pg.text(LEFT, 100, "Site", 9)
    pg.page.insert_text((LEFT + 96, 100), "Share of total [%]   Cost [USD]   Margin [%]", fontsize=9, fontname="F0")
    rnd = random.Random(5)
    for j in range(8):
        y = 113 + 13 * j
        row = [f"Harbour depot {j + 1}", f"{rnd.uniform(10, 90):.1f}%", f"{rnd.randint(1000, 99999):,}",
               f"{rnd.uniform(10, 90):.1f}%"]
        for i, t in enumerate(row):
            pg.text(LEFT + (0, 118, 172, 236)[i], y, t, 9, False, "l" if i == 0 else "r", (100, 40, 52, 50)[i])
    return _save(doc, path)


def test_header_labels_printed_as_one_line_stay_the_header(tmp_path: Path) -> None:
    (t,) = tables_of(joined_header_table(tmp_path / "joined.pdf"))
    assert t.caption == "Table 1. Supplier overview"
    assert t.columns[0] == "Site" and len(t.rows) == 8 and t.rows[0][0] == "Harbour depot 1"


def test_a_key_printed_as_one_line_with_a_date_ending_in_a_period_stays_a_field(tmp_path: Path) -> None:
    """A block of fields whose longest key stands a word space from its value, a Hungarian date
    (`Kapcsolattartó 2022. 06. 25.`): the text layer prints the row as one line that crosses the
    block's columns and ends in a period, but a date is no sentence's end: the row is the
    block's first field (issue 13, zoo dev11 form-183-hu)."""
    rows = [("Kapcsolattartó", "2022. 06. 25."), ("Dátum", "2021. 02. 23."), ("Ajánlatszám", "Hársfa 40")]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 68, "Működési költségek régiónként 2021", 16, "bold")
    for i, (key, value) in enumerate(rows):
        put(page, 53, 88 + 13 * i, key, 8, "bold")
        put(page, 53 + width("Kapcsolattartó", 8, "bold") + 3, 88 + 13 * i, value, 8)
        page.draw_line((50, 92 + 13 * i), (182, 92 + 13 * i), width=0.5)
    put(page, 50, 150, "Ez a fejezet összefoglalja a fő eredményeket, és összeveti őket az előző évvel.", 9)
    path = tmp_path / "fields.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert [tuple(r) for r in table.rows] == rows
    assert table.columns == ("", "")

"""A caption whose label stands apart from its title (transforms/captions.py): the title set
beside the label at a tab stop, its wrapped lines hung under the title, or set on the line under
a label alone in a type of its own. The whole caption goes to the table, and a wrapped line of
the title is no row of it."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save, ruled_grid

LABELS = {"en": ("Table 19.", "Actual and projected numbers for current expenditures and current expenditures",
                 "per pupil in average daily attendance: School years 1996–97 through 2021–22"),
          "de": ("Tabelle 4:", "Tatsächliche und erwartete laufende Ausgaben je Schüler nach Schuljahr und",
                 "Schulart, in Euro zu Preisen von 2020, ohne Investitionen"),
          "hu": ("4. táblázat", "Tényleges és várható folyó kiadások tanulónként tanévenként és",
                 "iskolatípusonként, forintban, beruházások nélkül"),
          "vi": ("Bảng 4.", "Chi tiêu thường xuyên thực tế và dự kiến cho mỗi học sinh theo năm học và",
                 "loại trường, tính bằng đồng, không kể đầu tư")}
YEARS = ["1996–97", "1997–98", "1998–99", "1999–2000", "2000–01", "2001–02", "2002–03", "2003–04"]


def hung_caption_doc(path: Path, lang: str) -> Path:
    """A bold caption label, its title at a tab stop on the same line and wrapped under the
    title (not under the label), then a borderless table right under it: a rule, two-line
    labels, year rows of figures."""
    label, first, second = LABELS[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    tab = LEFT + 60
    pg.text(LEFT, 60, label, 9, True)
    pg.text(tab, 60, first, 9, True)
    pg.text(tab, 70.8, second, 9, True)
    pg.rule(LEFT, 75.5, 545)
    cols = [(LEFT, "l", 120), (190, "r", 90), (300, "r", 90), (410, "r", 90)]
    heads = [("", "School year"), ("Attendance", "(in thousands)"), ("Total", "(in billions)"),
             ("Per pupil", "(in dollars)")]
    for (x, align, w), (top, bottom) in zip(cols, heads, strict=True):
        pg.text(x, 100, top, 9, align=align, width=w)
        pg.text(x, 110, bottom, 9, align=align, width=w)
    pg.rule(LEFT, 114, 545)
    for i, year in enumerate(YEARS):
        y = 126 + 11 * i
        vals = [year, f"{42262 + 517 * i:,}", f"{375.9 + 14.3 * i:.1f}", f"{8895 + 231 * i:,}"]
        for (x, align, w), v in zip(cols, vals, strict=True):
            pg.text(x, y, v, 9, align=align, width=w)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "de", "hu", "vi"])
def test_a_title_beside_its_label_is_the_caption(tmp_path: Path, lang: str) -> None:
    label, first, second = LABELS[lang]
    (table,) = tables_of(hung_caption_doc(tmp_path / "hung.pdf", lang))
    assert table.caption == f"{label} {first} {second}"
    assert table.columns == ("School year", "Attendance (in thousands)", "Total (in billions)",
                             "Per pupil (in dollars)")
    assert [r[0] for r in table.rows] == YEARS


def label_over_title_doc(path: Path) -> Path:
    """`Table 1.` alone on a line in body type, the title under it in bold and larger, then a
    ruled table."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Table 1.", 9)
    pg.text(LEFT, 72, "Prevalence of Disability for Selected Age Groups: 2005 and 2010", 10, True)
    rows = [["Age group", "2005", "2010"]] + [[f"{15 * i} to {15 * i + 14} years", f"{3.1 * i:.1f}",
                                                f"{3.4 * i:.1f}"] for i in range(1, 5)]
    ruled_grid(pg, 84, rows, [150, 110, 110], bold_first=True)
    return _save(doc, path)


def test_a_label_alone_takes_the_title_under_it_in_another_type(tmp_path: Path) -> None:
    (table,) = tables_of(label_over_title_doc(tmp_path / "label.pdf"))
    assert table.caption == "Table 1. Prevalence of Disability for Selected Age Groups: 2005 and 2010"
    assert table.columns == ("Age group", "2005", "2010") and len(table.rows) == 4


def test_a_label_with_its_title_on_its_line_takes_no_line_beside() -> None:
    """Only a label alone looks beside itself for its title."""
    from rowkeeper.caption_text import is_caption_label

    assert is_caption_label("Table 18.") and is_caption_label("Tabelle 2:") and is_caption_label("4. táblázat")
    assert not is_caption_label("Table 18. Actual and projected numbers")
    assert is_caption_label("Exhibit 20") and not is_caption_label("Exhibits of the fair")


FRAMED = {"en": ("Table 4", "Percentage of Schools Identified and Not Identified for Improvement, by",
                 "Accountability Designations Under State or District Initiatives, 2006–07",
                 ("Designation", "Schools identified", "Schools not identified")),
          "de": ("Tabelle 4", "Anteil der Schulen mit und ohne Förderbedarf nach Einstufung durch",
                 "Land oder Bezirk, Schuljahr 2006–07, in Prozent aller befragten Schulen",
                 ("Einstufung", "Mit Förderbedarf", "Ohne Förderbedarf")),
          "exhibit": ("Exhibit 19", "Percentage of Schools Identified and Not Identified for Improvement, by",
                      "Accountability Designations Under State or District Initiatives, 2006–07",
                      ("Designation", "Schools identified", "Schools not identified"))}
FRAMED_ROWS = [("Low-performing", "34%", "3%"), ("No special designation", "11%", "33%"),
               ("High-performing", "2%", "18%"), ("Other/not sure", "14%", "9%")]


def framed_caption_doc(path: Path, lang: str) -> Path:
    """A table in a frame that holds its caption: the label centred on a line of its own, the
    title centred under it on two wider lines, then the header and rows parted by rules."""
    label, first, second, header = FRAMED[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    x0, x1 = 60.0, 535.0
    pg.box(x0, 80, x1, 300)
    for y, text in ((96, label), (109, first), (122, second)):
        pg.text(x0, y, text, 10, True, align="c", width=x1 - x0)
    cols = [(x0 + 4, "l", 250), (320, "c", 100), (425, "c", 105)]
    for (x, align, w), text in zip(cols, header, strict=True):
        pg.text(x, 148, text, 9, True, align=align, width=w)
    pg.rule(x0, 154, x1)
    for i, row in enumerate(FRAMED_ROWS):
        y = 170 + 20 * i
        for (x, align, w), text in zip(cols, row, strict=True):
            pg.text(x, y, text, 9, align=align, width=w)
        pg.rule(x0, y + 6, x1)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "de", "exhibit"])
def test_a_centred_caption_inside_the_frame_is_no_row(tmp_path: Path, lang: str) -> None:
    label, first, second, header = FRAMED[lang]
    (table,) = tables_of(framed_caption_doc(tmp_path / "framed.pdf", lang))
    assert table.caption == f"{label} {first} {second}"
    assert table.columns == header
    assert [r[0] for r in table.rows] == [r[0] for r in FRAMED_ROWS]


def banded_caption_doc(path: Path) -> Path:
    """`Table: 5`, the title and the unit printed as one line on a tinted band atop a ruled
    table, the band's line running across the table's columns."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.page.draw_rect(pymupdf.Rect(LEFT, 70, 530, 88), color=None, fill=(0.75, 0.85, 0.95))
    pg.text(LEFT + 4, 83, "Table: 5" + " " * 12 + "Public Health Outlay 2012-13" + " " * 10 + "(Rs. in 000)", 12, True)
    rows = [["State", "Revenue", "Capital", "Total"]] + [[f"State {k}", f"{47824 + 991 * k:,}", f"{1275 + 37 * k:,}",
                                                         f"{49099 + 1028 * k:,}"] for k in range(1, 6)]
    ruled_grid(pg, 88, rows, [150, 110, 110, 110], bold_first=True)
    return _save(doc, path)


def test_a_caption_band_read_across_the_columns_is_no_row(tmp_path: Path) -> None:
    """`Table: 5` reads as a caption (a colon between label and number), so its line, cut
    into the table's cells, is taken back out and the header under it is read."""
    (table,) = tables_of(banded_caption_doc(tmp_path / "band.pdf"))
    assert table.caption is not None and table.caption.startswith("Table: 5")
    assert table.columns == ("State", "Revenue", "Capital", "Total") and len(table.rows) == 5

"""A header in a monospaced face whose labels, right-aligned over right-aligned figures, stand
about a word space apart: the text layer prints three of them as one line ("Árbevétel [Ft]
Pontszám Szállítási idő [nap]"), long enough to read as a sentence. The header row keeps its
place (finder/run_heads.caption_row: a caption's sentence runs to its row's end, the header
line has "Dátum" after it) and each label goes whole to its column (finder/aligned_columns
.one_string: the words of one string stand the line's own word space apart, labels placed
apart a padding off), and the picture column before them keeps its header (zoo dev8
picture_column, Hungarian)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.page_model import PageModel
from tests.transforms.pdf_docs import tables_of

MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
HEADER = ("Kép", "Tétel", "Árbevétel [Ft]", "Pontszám", "Szállítási idő [nap]", "Dátum")
BODY = [("Szőlőhegy egység 9426", "863 859", "677 883", "925 606", "2026. 01. 15."),
        ("Tópart raktár 9586", "869 323", "776 624", "215 572", "2025. 01. 23."),
        ("Kőhíd sor 8007", "666 036", "650 131", "692 317", "2021. 10. 19."),
        ("Királyút raktár 6737", "89 337", "216 044", "770 698", "2020. 01. 18.")]
RIGHTS = (None, None, 284.1, 331.0, 439.4, 512.0)  # right edges of the right-aligned columns
LEFTS = (76.0, 99.0)


def _put(page: pymupdf.Page, x: float, y: float, text: str, bold: bool, right: bool = False) -> None:
    name = "mb" if bold else "mr"
    if right:
        x -= pymupdf.Font(fontfile=MONO_BOLD if bold else MONO).text_length(text, fontsize=8.5)
    page.insert_text((x, y), text, fontsize=8.5, fontname=name)


def test_a_monospaced_header_printed_as_one_line_keeps_its_labels(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="mr", fontfile=MONO)
    page.insert_font(fontname="mb", fontfile=MONO_BOLD)
    page.insert_text((72, 150), "A költségek tartalmazzák a karbantartást és az energiát.", fontsize=10, fontname="mr")
    page.insert_text((72, 185), "1. táblázat: Létszám és keret", fontsize=10, fontname="mb")
    # labels set one by one: "Pontszám" a padding (6 pt) after "[Ft]", wider than the 5.1 pt space
    _put(page, 76.0, 203, HEADER[0], True)
    _put(page, 99.0, 203, HEADER[1], True)
    for label, right in zip(HEADER[2:], RIGHTS[2:], strict=True):
        _put(page, right, 203, label, True, right=True)
    page.draw_line((72, 207), (515, 207))
    for i, row in enumerate(BODY):
        y = 218 + 23 * i
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 24, 24), False)
        pix.clear_with(120 + 30 * i)
        page.insert_image(pymupdf.Rect(75, y - 7, 93, y + 11), pixmap=pix)
        _put(page, 99.0, y, row[0], False)
        for text, right in zip(row[1:], RIGHTS[2:], strict=True):
            _put(page, right, y, text, False, right=True)
        page.draw_line((72, y + 13), (515, y + 13))
    page.insert_text((72, 330), "Az értékek kerekítettek; az összesen sor kissé eltérhet.", fontsize=10, fontname="mr")
    path = tmp_path / "mono.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:  # the text layer reads three labels as one line
        assert any(ln.text == "Árbevétel [Ft] Pontszám Szállítási idő [nap]" for ln in PageModel(pdf[0], 1).lines)
    (table,) = tables_of(path)
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == [("", *r) for r in BODY]

"""A borderless table in a monospaced face whose first column holds a code and a name (`9774
Cedar Park plant`), with a column of tick boxes or thumbnails (finder/projection.projection_gaps):
in a monospaced face a word space is a character wide, and most codes are four digits, so the
names start level in most rows, one word space after their codes. The rows of figures name the
table's column gaps; a tick box or a picture in a row is no phrase of words, and must not keep
that row out of them, or the rows left (those whose names start level) open a column between
the codes and the names that no header heads (issue 13, zoo dev22 form-384-en t3)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page
from tests.transforms.pdf_docs import tables_of

MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
EN = (("Site", "Included", "Revenue [USD]", "Quantity [units]"),
      [("9774 Cedar Park plant", "83,739", "971,827"), ("5837 Riverside hub", "78,161", "314,071"),
       ("1482 Summit plant", "618,540", "409,033"), ("893 Pine Valley office", "743,767", "558,826"),
       ("5996 Millbrook plant", "44,110", "63,486")])
DE = (("Standort", "Bild", "Umsatz [EUR]", "Personal [Anz.]"),
      [("3015 Hafen Lager Nord", "612.004", "41"), ("7220 Westring Werk", "98.310", "7"),
       ("451 Südpark Büro Mitte", "1.250.870", "112"), ("6088 Seeblick Filiale", "330.512", "26"),
       ("2741 Am Markt Laden", "74.118", "9")])


def _page(path: Path, table, size: float, marks: str, ruled: bool) -> Path:
    """A heading, the table in DejaVu Sans Mono (header in the same face), a tick box or a
    thumbnail per row under the second header (`marks` "ticks", "pictures"), rules between the
    rows when `ruled`, and a line of prose under it."""
    header, rows = table
    doc = pymupdf.open()
    page = new_page(doc)
    page.insert_font(fontname="mono", fontfile=MONO)
    font = pymupdf.Font(fontfile=MONO)
    char = font.text_length("0", size)
    left = 46.0
    xs = (left, left + 30 * char, left + 56 * char, left + 76 * char)
    page.insert_text((left, 90), "Key indicators 2026", fontsize=14, fontname="mono")
    y, pitch = 130.0, 1.9 * size
    for x, label, k in zip(xs, header, range(4), strict=True):
        at = x - font.text_length(label, size) if k >= 2 else x
        page.insert_text((at, y), label, fontsize=size, fontname="mono")
    for key, *figures in rows:
        if ruled:
            page.draw_line((left - 4, y + 0.45 * size), (xs[3] + 4, y + 0.45 * size), width=0.5)
        y += pitch
        page.insert_text((left, y), key, fontsize=size, fontname="mono")
        box = pymupdf.Rect(xs[1] + 2 * char, y - 0.6 * size, xs[1] + 2 * char + 0.8 * size, y + 0.2 * size)
        if marks == "ticks":
            page.draw_rect(box, width=0.5)
            page.draw_rect(box + (1.5, 1.5, -1.5, -1.5), color=None, fill=(0.15, 0.15, 0.15))
        else:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 24, 24), False)
            pix.clear_with(170)
            page.insert_image(box, pixmap=pix)
        for x, f in zip(xs[2:], figures, strict=True):
            page.insert_text((x - font.text_length(f, size), y), f, fontsize=size, fontname="mono")
    page.insert_text((left, y + 3 * size), "Values are rounded; totals may differ slightly.", fontsize=9,
                     fontname="mono")
    doc.save(path)
    return path


@pytest.mark.parametrize(("table", "size"), [(EN, 11.0), (DE, 9.5)], ids=["en", "de"])
@pytest.mark.parametrize("marks", ["ticks", "pictures"])
@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "plain"])
def test_a_code_stays_with_its_name_beside_a_column_of_marks(tmp_path: Path, table, size: float,
                                                            marks: str, ruled: bool) -> None:
    """Four columns: the code and the name one cell, the marks' column empty cells."""
    header, rows = table
    (t,) = tables_of(_page(tmp_path / "coded.pdf", table, size, marks, ruled))
    assert t.columns == header
    assert [tuple(r) for r in t.rows] == [(key, "", *figures) for key, *figures in rows]

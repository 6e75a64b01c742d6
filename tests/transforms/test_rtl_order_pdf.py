"""Hebrew and Arabic cells drawn glyph by glyph from the left (visual order) read back in
logical order (transforms/rtl_order.py); text already in logical order is left as it is."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.transforms.rtl_order import logical_line, order_evidence
from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

ROWS = {
    "he": (["סך הכל", "סך הכל - לנפש", "הסקטור העסקי", "תעשייה (ללא יהלומים)", "שימושים במקורות"],
           ["שנה", "2013", "2014"]),
    "ar": (["قائمة من أجل تحقيق سلطة الشعب", "قائمة حزب آفاق تونس", "قائمة الاتحاد الوطني الحر",
            "المجموع العام", "قائمة حركة نداء تونس"],
           ["القائمة", "2013", "2014"]),
}
MIRROR = str.maketrans("()", ")(")


def ruled_table(path: Path, labels: list[str], header: list[str], visual: bool) -> Path:
    """A ruled 3-column table, a label column of RTL text and two columns of figures; with
    `visual` each label is drawn as its glyphs stand from the left (as older producers do)."""
    doc = pymupdf.open()
    pg = Page(doc)
    xs, y0, h = (60.0, 260.0, 360.0, 460.0), 100.0, 18.0
    rows = [header] + [[lab, f"{2.5 + i:.1f}", f"{10 * i + 3}"] for i, lab in enumerate(labels)]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            pg.box(xs[c], y0 + r * h, xs[c + 1], y0 + (r + 1) * h)
            shown = text[::-1].translate(MIRROR) if visual and c == 0 else text
            pg.text(xs[c] + 4, y0 + r * h + 13, shown, 9, r == 0)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["he", "ar"])
def test_rtl_cells_drawn_in_visual_order_read_in_logical_order(tmp_path: Path, lang: str) -> None:
    labels, header = ROWS[lang]
    (t,) = tables_of(ruled_table(tmp_path / "rtl.pdf", labels, header, visual=True))
    assert [r[0] for r in t.rows] == labels
    assert [r[1] for r in t.rows] == [f"{2.5 + i:.1f}" for i in range(len(labels))]


@pytest.mark.parametrize("lang", ["he", "ar"])
def test_rtl_cells_in_logical_order_stay(tmp_path: Path, lang: str) -> None:
    labels, header = ROWS[lang]
    (t,) = tables_of(ruled_table(tmp_path / "rtl.pdf", labels, header, visual=False))
    assert [r[0] for r in t.rows] == labels


def test_visual_line_with_figures_and_latin() -> None:
    # figures and Latin keep their order; the line's runs are reversed around them
    assert logical_line("GDP לכה ךס 2.5%") == "2.5% סך הכל GDP"
    assert logical_line("-4.3 ךס") == "סך -4.3"
    assert logical_line("Total -4.3") == "Total -4.3"
    assert order_evidence("סך הכל") < 0 < order_evidence("לכה ךס")

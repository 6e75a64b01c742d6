"""Text a reader cannot see is not read (issue 13, peer us-002): white on the page's white.

A report typesets a caption's hanging indent by printing its label again, in white, before each
wrapped line (`Table 4.—` three times, only the first one visible): read as text, every line
looked like a caption of its own and the caption became `Table 4.—characteristics: 2003`, its
last line. White text on a dark band (a header row printed white on navy) is seen, and read.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import new_page, put, width

WHITE = (1, 1, 1)
CAPTION = ["Among bachelor’s degree recipients with graduate enrollment, percentage who borrowed",
           "for graduate education and average amount borrowed, by student and institutional",
           "characteristics: 2003"]
ROWS = [("Total", "40.2", "31,700"), ("Male", "38.5", "33,900"), ("Female", "41.6", "30,200"),
        ("Under 30", "37.9", "29,400"), ("30 or older", "44.8", "35,100")]


def _text(page: pymupdf.Page, x: float, y: float, text: str, color: tuple[float, ...] = (0, 0, 0),
          face: str = "sans", size: float = 9) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname=face, color=color)


def _table(page: pymupdf.Page, top: float, band: bool = False) -> None:
    """A ruled three-column table: a header row (white on a navy band when `band`), five rows."""
    xs = (72.0, 250.0, 380.0, 500.0)
    ys = [top + 16 * k for k in range(len(ROWS) + 2)]
    if band:
        page.draw_rect(pymupdf.Rect(xs[0], ys[0], xs[-1], ys[1]), color=None, fill=(0.1, 0.15, 0.4))
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x, head in zip(xs, ("Characteristic", "Percent who borrowed", "Average amount"), strict=False):
        _text(page, x + 4, ys[0] + 11, head, WHITE if band else (0, 0, 0), "bold")
    for k, row in enumerate(ROWS):
        put(page, xs[0] + 4, ys[k + 1] + 11, row[0])
        for x, text in zip(xs[2:], row[1:], strict=True):
            put(page, x - 4, ys[k + 1] + 11, text, align="right")


def caption_page(path: Path, band: bool = False) -> Path:
    """A caption with a hanging indent printed as white label copies, over a ruled table."""
    doc = pymupdf.open()
    page = new_page(doc)
    label = "Table 4.—"
    indent = 72 + width(label, 9, "bold")
    for k, line in enumerate(CAPTION):
        # the label in black on the first line only; in white before every other one
        _text(page, 72, 80 + 12 * k, label, (0, 0, 0) if k == 0 else WHITE, "bold")
        _text(page, indent, 80 + 12 * k, line, face="bold")
    _table(page, 130, band)
    doc.save(path)
    return path


def test_white_label_copies_on_white_are_not_read_into_the_caption(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(caption_page(tmp_path / "t4.pdf"))).tables
    assert table.caption == "Table 4.—" + " ".join(CAPTION)
    assert table.columns == ("Characteristic", "Percent who borrowed", "Average amount")
    assert len(table.rows) == len(ROWS)


def test_white_text_on_a_dark_band_is_read(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(caption_page(tmp_path / "band.pdf", band=True))).tables
    assert table.columns == ("Characteristic", "Percent who borrowed", "Average amount")
    assert table.caption == "Table 4.—" + " ".join(CAPTION)

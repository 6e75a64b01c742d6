"""Tables found on scans whatever their rows hold: pictures in a column, rows set apart wider
than a line (extractors/scan_pictures.py, ocr_tables.aligned_tables)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_tables import aligned_tables
from rowkeeper.extractors.scan_paragraphs import side_paragraphs
from rowkeeper.extractors.scan_pictures import picture_boxes
from samples.pdfgen import scanned_twin

SITES = [("North depot", "1.250", "310"), ("Harbour office", "2.340", "415"), ("East plant", "880", "190"),
         ("Airport store", "4.105", "77"), ("Old town", "615", "1.020"), ("River works", "3.310", "264")]


def _picture_table(shades: list[float]) -> bytes:
    """A borderless table whose first column holds a picture per row (a disc or a square in a
    light box, 28 pt, the row's text at its top), rows a picture's height apart."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 70), "Sites and budgets", fontsize=16, fontname="hebo")
    page.insert_text((60, 100), "The figures below come from the signed delivery notes.", fontsize=10)
    y = 140.0
    heads = [("Photo", 60), ("Site", 120), ("Budget", 330), ("Staff", 430)]
    for text, x in heads:
        page.insert_text((x, y), text, fontsize=10, fontname="hebo")
    y += 22
    for (site, budget, staff), shade in zip(SITES, shades, strict=False):
        page.draw_rect(pymupdf.Rect(58, y - 10, 92, y + 24), color=None, fill=(0.88, 0.88, 0.88))
        inner = pymupdf.Rect(63, y - 5, 87, y + 19)
        if shades.index(shade) % 2:
            page.draw_oval(inner, color=None, fill=(shade, shade, shade))
        else:
            page.draw_rect(inner, color=None, fill=(shade, shade, shade))
        page.insert_text((120, y), site, fontsize=10)
        page.insert_text((380 - pymupdf.get_text_length(budget, fontsize=10), y), budget, fontsize=10)
        page.insert_text((470 - pymupdf.get_text_length(staff, fontsize=10), y), staff, fontsize=10)
        y += 44
    page.insert_text((60, y + 10), "Sites opened during the year count from their first full month.", fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_picture_column_on_a_scan_is_a_column_of_empty_cells(tmp_path: Path) -> None:
    """Scanned at 200 dpi and tilted: one table, the pictures' column named and empty, every
    site and figure in its own column (on the base the pictures cut the rows apart: no table)."""
    pytest.importorskip("rapidocr")
    from rowkeeper.config import load_config
    from rowkeeper.flows.pipeline import load_document, process_document

    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(_picture_table([0.2, 0.3, 0.45, 0.25, 0.35, 0.5]), dpi=200, rotate_deg=0.4, seed=3))
    result = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out")))
    assert len(result.tables) == 1
    table = result.tables[0]
    assert table.columns == ("Photo", "Site", "Budget", "Staff")
    assert [list(r) for r in table.rows] == [["", s, b, n] for s, b, n in SITES]


def test_solid_blots_are_pictures_and_bold_letters_are_not() -> None:
    """A disc and a square a line tall are pictures; a bold letter as tall, a dark band with
    white letters in it, and a solid glyph a letter space from its neighbours are not."""
    ink = np.zeros((300, 600), dtype=np.uint8)
    for k in range(40):  # body text: glyphs 14-18 px tall
        ink[250:264 + k % 5, 10 + 14 * k:18 + 14 * k] = 255
    yy, xx = np.mgrid[0:300, 0:600]
    ink[((yy - 40) ** 2 + (xx - 40) ** 2) <= 20 ** 2] = 255  # a disc, 41 px
    ink[20:52, 100:132] = 255  # a square, 32 px
    ink[20:56, 200:236] = 255  # a bold "H": two 12 px stems and a bar
    ink[20:56, 212:224] = 0
    ink[34:42, 212:224] = 255
    ink[120:200, 300:560] = 255  # a dark box with five white letters
    for k in range(5):
        ink[140:180, 320 + 45 * k:340 + 45 * k] = 0
    ink[220:242, 100:122] = 255  # a bold kanji the blur filled in, its neighbours 3 px away
    ink[220:242, 75:97] = 255
    ink[220:242, 81:91] = 0
    ink[220:242, 125:147] = 255
    ink[226:236, 125:147] = 0
    found = picture_boxes(ink)
    assert found == [(20.0, 20.0, 61.0, 61.0), (100.0, 20.0, 132.0, 52.0)]


def test_rows_a_pitch_apart_beyond_a_line_gap_stay_one_table() -> None:
    """The first body row's picture was not found (a light one): its gap to the next row is
    three line heights, but the next row starts one pitch on, at the same columns."""
    boxes = [OcrBox("Site", (120, 0, 180, 20), 0.99), OcrBox("Budget", (330, 0, 400, 20), 0.99)]
    for r, (site, budget, _) in enumerate(SITES):
        y = 40 + 100 * r
        boxes += [OcrBox(site, (120, y, 260, y + 20), 0.98), OcrBox(budget, (350, y, 400, y + 20), 0.98)]
        if r:
            boxes.append(OcrBox("", (40, y + 10, 90, y + 60), 1.0))
    found = aligned_tables(boxes)
    assert len(found) == 1
    assert found[0][0].n_rows == 7


def _row(texts_at: list[tuple[str, float, float]], y: float) -> list[OcrBox]:
    """Runs as the engines give them: the detector's box padded 4 px past the run's ink each side."""
    return [OcrBox(t, (x0, y, x1, y + 40), 0.99, ((t, x0 + 4, x1 - 4),)) for t, x0, x1 in texts_at]


def test_two_stacked_tables_with_a_heading_and_a_caption_between_are_two() -> None:
    """RapidOCR's tall boxes put a heading and a caption within a line gap of both tables: the
    second table's columns do not line up with the first's, so they are two tables, and the
    caption is left to the text lines."""
    boxes: list[OcrBox] = []
    first = [("Site", 144, 212), ("Headcount", 552, 697), ("Margin", 782, 879), ("Date", 1346, 1415)]
    boxes += _row(first, 433)
    for r in range(5):
        boxes += _row([("North hub", 148, 367), ("284,882", 593, 695), ("79.0%", 796, 882),
                       ("2020-11-02", 1344, 1483)], 476 + 44 * r)
    boxes += _row([("Appendix", 128, 307)], 700)
    boxes += _row([("Table 2 - Key indicators", 127, 480)], 745)
    boxes += _row([("Item", 140, 221), ("Region", 545, 660), ("Volume", 807, 1004), ("Cost", 1390, 1559)], 790)
    for r in range(4):
        boxes += _row([("Pine Valley store", 140, 436), ("Unit", 545, 614), ("31,081.86", 864, 1004),
                       ("99,610.39", 1413, 1559)], 834 + 44 * r)
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(6, 4), (5, 4)]
    used = set().union(*(ids for _, ids in found))
    assert [b.text for j, b in enumerate(boxes) if j not in used] == ["Appendix", "Table 2 - Key indicators"]


def test_a_group_label_between_rows_of_one_set_of_columns_keeps_one_table() -> None:
    boxes = _row([("Site", 144, 212), ("Budget", 600, 697), ("Staff", 800, 880)], 0)
    for r in range(7):
        y = 44 + 44 * r
        boxes += (_row([("East region", 144, 330)], y) if r == 3 else
                  _row([("North hub", 144, 300), ("284,882", 593, 697), ("79", 850, 880)], y))
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(8, 3)]


def test_stacked_tables_sharing_the_margin_and_one_edge_are_two() -> None:
    """Two tables under each other share the page's left margin and, by chance, one column's
    right edge; a heading stands between them. Two edges in common do not make the second
    table's rows the first one's (on the base the two were read as one table)."""
    boxes = _row([("Site", 162, 292), ("Quantity", 445, 645), ("Lead time", 700, 871), ("Staff", 920, 1033)], 400)
    for r in range(6):
        boxes += _row([("Kirchberg office", 162, 420), ("205,470", 539, 645), ("687,147", 763, 871),
                       ("361,892", 920, 1033)], 444 + 44 * r)
    boxes += _row([("Appendix", 157, 290)], 714)
    boxes += _row([("Site", 170, 301), ("Staff", 483, 645), ("Margin (%)", 652, 802)], 760)
    for r in range(5):
        boxes += _row([("6435 Auwald branch", 170, 413), ("353,581", 532, 640), ("6.8 %", 723, 804)], 804 + 44 * r)
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(7, 4), (6, 3)]


def _framed_table() -> bytes:
    """A table in a frame with one rule under its header and no rules between columns or rows."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 80), "Operating costs by region", fontsize=14, fontname="hebo")
    top, y = 100.0, 116.0
    for text, x in [("Site", 66), ("Budget", 300), ("Staff", 420)]:
        page.insert_text((x, y), text, fontsize=10, fontname="hebo")
    page.draw_line((60, y + 6), (480, y + 6), width=0.8)
    y += 24
    for site, budget, staff in SITES:
        page.insert_text((66, y), site, fontsize=10)
        page.insert_text((346 - pymupdf.get_text_length(budget, fontsize=10), y), budget, fontsize=10)
        page.insert_text((460 - pymupdf.get_text_length(staff, fontsize=10), y), staff, fontsize=10)
        y += 20
    page.draw_rect(pymupdf.Rect(60, top, 480, y - 8), width=0.8)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_frame_ruled_only_under_its_header_reads_its_columns_from_the_text(tmp_path: Path) -> None:
    """The frame's rules part no columns: its words go to the borderless finder (on the base the
    frame was a one-column grid, dropped, and its words with it)."""
    pytest.importorskip("rapidocr")
    from rowkeeper.config import load_config
    from rowkeeper.flows.pipeline import load_document, process_document

    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(_framed_table(), dpi=200, rotate_deg=0.3, seed=5))
    result = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out")))
    assert len(result.tables) == 1
    assert result.tables[0].columns == ("Site", "Budget", "Staff")
    assert [list(r) for r in result.tables[0].rows] == [list(r) for r in SITES]


def test_a_paragraph_beside_a_table_is_no_column_of_it() -> None:
    """Prose lines at a 32 px leading left of a table whose rows stand 56 px apart: the table
    has the four columns of its own runs, and the prose is left to the text lines."""
    boxes = [OcrBox(f"prose line {k} of the paragraph beside the table", (140, 407 + 32 * k, 630, 432 + 32 * k), 0.96)
             for k in range(8)]
    for r in range(9):
        y = 420 + 56 * r
        boxes += [OcrBox(f"Site {r} depot", (700, y, 950, y + 24), 0.96), OcrBox("421.833", (1083, y, 1165, y + 20), 0.96),
                  OcrBox("20.197,1", (1255, y, 1343, y + 20), 0.96), OcrBox("28/10/2024", (1367, y, 1481, y + 20), 0.96)]
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(9, 4)]
    assert not any(b.text.startswith("prose") for j, b in enumerate(boxes) if j in found[0][1])


def test_a_column_of_wrapped_cells_stays_in_its_table() -> None:
    """Descriptions wrapped over three lines (30 px leading, rows 100 px apart), each row's first
    line level with the row's other cells: the descriptions are the table's second column."""
    boxes: list[OcrBox] = []
    for r in range(5):
        y = 400 + 100 * r
        boxes += [OcrBox(f"K-{r}", (140, y, 220, y + 24), 0.96), OcrBox("1.250", (1100, y, 1165, y + 22), 0.96)]
        boxes += [OcrBox(f"description line {k} of item {r}", (300, y + 30 * k, 640, y + 24 + 30 * k), 0.96)
                  for k in range(3)]
    assert side_paragraphs(boxes, 24.0) == set()
    found = aligned_tables(boxes)
    assert len(found) == 1 and found[0][0].n_cols == 3
    assert {b.text for j, b in enumerate(boxes) if j in found[0][1]} >= {f"description line 0 of item {r}" for r in range(5)}


def test_a_second_table_right_under_the_first_with_its_own_columns_is_a_second_table() -> None:
    """No caption between: the second table's header and rows stand at other edges than the
    first table's rows (which line up with each other), so the run is cut before its header."""
    boxes = _row([("Item", 148, 231), ("Score", 486, 586), ("Weight", 630, 754), ("Quantity", 778, 919)], 492)
    for r in range(4):
        boxes += _row([("Elm Street hub", 150, 439), ("860,436", 457, 586), ("24,117.83", 595, 754),
                       ("95,996.4", 785, 919)], 538 + 46 * r)
    boxes += _row([("Site", 148, 219), ("Region", 595, 711), ("Quantity (units)", 975, 1210),
                   ("Volume (m3)", 1355, 1549)], 749)
    for r in range(4):
        boxes += _row([("Westgate unit", 150, 410), ("Store", 595, 681), ("59,825.53", 1071, 1215),
                       ("18,781.0", 1425, 1551)], 801 + 51 * r)
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(5, 4), (5, 4)]
    assert [c.text for c in found[1][0].cells if c.row == 0] == ["Site", "Region", "Quantity (units)", "Volume (m3)"]


def test_two_rows_after_other_edges_with_min_rows_two_are_read_not_an_error() -> None:
    """A side-by-side block's fields are read with min_rows 2: two rows at one set of edges
    right under two at another left the second-table test three rows short (IndexError, and
    the whole scanned document failed); every row stays in a table."""
    boxes = _row([("Name", 148, 260), ("Kovács Anna", 400, 600)], 400)
    boxes += _row([("Telefon", 148, 280), ("+36 1 234 5678", 400, 640)], 446)
    boxes += _row([("Összeg", 148, 270), ("12.500 Ft", 700, 860)], 492)
    boxes += _row([("Határidő", 148, 300), ("2024.03.31", 700, 880)], 538)
    found = aligned_tables(boxes, min_rows=2)
    assert sum(t.n_rows for t, _ in found) == 4
    assert set().union(*(ids for _, ids in found)) == set(range(len(boxes)))

"""Rules on page images (extractors/grid_lines.py): what is erased as a rule before OCR."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.grid_lines import binarize, find_grids

HEADING = "Quarterly highlights to the board"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
SERIF_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"
PLACES = ["Lindenhof Büro", "Marktgasse Halle", "Buchenweg Werk", "Hafenkai Linie", "Eichenau Halle",
          "Weidenallee Lager", "Rosenhain Linie", "Hafenkai Lager", "Rosenau Büro", "Eichenhof Werk"]


def _slide(dpi: int = 200) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A slide-sized page: a 40 pt bold heading (stems 70+ px tall at 200 dpi), two short thin
    rules (30 pt, 1 pt thick) apart from it; the page image and the heading's box in pixels."""
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_text((40, 80), HEADING, fontsize=40, fontname="hebo")
    width = pymupdf.get_text_length(HEADING, fontname="hebo", fontsize=40)
    page.draw_line((40, 200), (70, 200), width=1)
    page.draw_line((120, 200), (120, 230), width=1)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    k = dpi / 72
    return gray, (int(40 * k), int(40 * k), int((40 + width) * k), int(92 * k))


def test_a_large_headings_stems_are_no_rules_and_short_rules_still_are() -> None:
    """The letters' stems (l, h, t, b, d) stand longer than a short rule; their ink is thick across,
    so they stay on the page for OCR (on the base they were erased as rules). Two 30 pt rules,
    1 pt thick, are erased."""
    gray, (x0, y0, x1, y1) = _slide()
    _, rules = find_grids(binarize(gray, despeckle=False), 200 / 72)
    assert not rules[y0:y1, x0:x1].any()
    k = 200 / 72
    assert rules[int(200 * k) - 2:int(200 * k) + 3, int(45 * k):int(65 * k)].any()
    assert rules[int(205 * k):int(225 * k), int(120 * k) - 2:int(120 * k) + 3].any()


def test_a_large_heading_on_a_scan_is_read_whole() -> None:
    """Read by OCR, the heading keeps its letters (on the base: `Guar er y ni 1 i ηs 0 ne ooarc`)."""
    pytest.importorskip("rapidocr")
    from rowkeeper.extractors.ocr_extractor import OcrExtractor

    gray, _ = _slide()
    _, lines, _ = OcrExtractor().read_image(gray)
    assert any(HEADING.replace(" ", "") == text.replace(" ", "") for text, _, _ in lines), [t for t, _, _ in lines]


def _framed_serif() -> bytes:
    """A table in a frame ruled under its header only, set in DejaVu Serif 8 pt: a stub of place
    names (serif letters whose tops join over a word) and three right-aligned figure columns."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_font(fontname="se", fontfile=SERIF)
    page.insert_font(fontname="sb", fontfile=SERIF_BOLD)
    regular, bold = pymupdf.Font(fontfile=SERIF), pymupdf.Font(fontfile=SERIF_BOLD)
    rights, top = [None, 250, 310, 358], 170
    page.draw_rect((68, top, 366, top + 196), width=0.8)
    page.draw_line((68, top + 19), (366, top + 19), width=0.8)
    for k, label in enumerate(["Standort", "Lieferzeit", "Leistung", "Volumen"]):
        x = 72 if k == 0 else rights[k] - bold.text_length(label, 8)
        page.insert_text((x, top + 13), label, fontname="sb", fontsize=8)
    for r, place in enumerate(PLACES):
        cells = [f"{place} {1000 + 373 * r}", f"{r * 7919 % 900 + 100}.{r * 331 % 900 + 100}",
                 f"{r * 6007 % 900 + 100}.{r * 173 % 900 + 100}", f"{r * 97 % 90 + 10},{r}"]
        for k, text in enumerate(cells):
            x = 72 if k == 0 else rights[k] - regular.text_length(text, 8)
            page.insert_text((x, top + 34 + 17 * r), text, fontname="se", fontsize=8)
    return doc.tobytes()


@pytest.mark.skipif(not Path(SERIF).exists(), reason="DejaVu fonts missing")
@pytest.mark.parametrize("tilt", [-0.8, 0.5, 1.0])
def test_serif_letters_joined_over_a_word_are_no_rule(tilt: float) -> None:
    """Serif letters' tops (or feet) join over a word into a thin stroke as long as a short rule;
    it has letters along one side, a rule has none. The frame's rows are its three real rules
    (on the base the strokes under "Lindenhof", "Weidenallee" ... cut it into rows through the words)."""
    from rowkeeper.extractors.grid_lines import rotate, skew_angle
    from samples.pdfgen import scanned_twin

    scan = pymupdf.open(stream=scanned_twin(_framed_serif(), dpi=200, rotate_deg=tilt, seed=1), filetype="pdf")
    pix = scan[0].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    gray = rotate(gray, skew_angle(binarize(gray)))
    grids, _ = find_grids(binarize(gray, despeckle=False), 200 / 72)
    assert [len(g.ys) for g in grids] == [3], [g.ys for g in grids]


@pytest.mark.skipif(not Path(SERIF).exists(), reason="DejaVu fonts missing")
def test_a_framed_serif_table_on_a_scan_reads_row_by_row() -> None:
    """Read by OCR, the framed table keeps its rows (on the base: one row holding every body line,
    the header's letters cut by an erased stroke)."""
    pytest.importorskip("rapidocr")
    from tests.extractors.ocr_fixtures import scanned_rows

    tables = scanned_rows(_framed_serif(), rotate_deg=-0.8, seed=1)
    assert len(tables) == 1
    rows = tables[0]
    assert rows[0] == ["Standort", "Lieferzeit", "Leistung", "Volumen"]
    assert len(rows) == 11
    assert [r[3] for r in rows[1:4]] == ["10,0", "17,1", "24,2"]
    assert rows[5][:2] == ["Eichenau Halle 2492", "276.524"]

"""Section paths on scanned pages: headings told by the print's ink (extractors/line_print.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rowkeeper.config import load_config
from rowkeeper.extractors.line_print import (
    bold_lines,
    print_size,
    snapped_lines,
    without_twice_read,
)
from rowkeeper.models import TextLine
from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf, scanned_twin

pytest.importorskip("rapidocr")

PROSE = ("The figures below are taken from the signed delivery notes and exclude tax. "
         "Sites opened during the year are counted from their first full month.")


def test_a_scanned_tables_section_path_has_the_title_and_both_heading_levels(tmp_path: Path) -> None:
    """Title, a numbered bold heading and an unnumbered bold sub-heading (12 pt over 10 pt
    prose, on a 150 dpi tilted scan): the table's path holds all three, in order."""
    spec = DocSpec(title="Quarterly report", blocks=[
        Heading("1. Costs"), Paragraph(PROSE), Heading("Regional offices", level=2), Paragraph(PROSE),
        TableSpec(caption="Table 1 Office costs", header=[["Office", "Rent", "Energy"]],
                  rows=[["North", "1,200", "310"], ["South", "2,340", "415"], ["East", "880", "190"]])])
    tables = _tables_of_scan(tmp_path, spec)
    assert [t.section_path for t in tables] == [("Quarterly report", "1. Costs", "Regional offices")]
    assert tables[0].caption == "Table 1 Office costs"


def test_a_scanned_slides_title_over_a_table_and_no_prose_is_its_section_path(tmp_path: Path) -> None:
    """A slide: a title and a table, no running text. The body size comes from the table's own
    words (as the text layer's lines give them), so the title is a heading, not the body."""
    spec = DocSpec(title="Supplier overview", page_size=(842.0, 595.0), blocks=[
        TableSpec(header=[["Category", "Owner", "Due"]],
                  rows=[["Methods", "Rosenau", "25.04.2025"], ["Outlook", "Eichenau", "16.12.2022"],
                        ["Staff", "Ostring", "11.10.2021"]])])
    tables = _tables_of_scan(tmp_path, spec)
    assert [t.section_path for t in tables] == [("Supplier overview",)]
    assert [t.columns for t in tables] == [("Category", "Owner", "Due")]


def _tables_of_scan(tmp_path: Path, spec: DocSpec) -> list:
    """The tables the pipeline reads from `spec`'s scanned twin (150 dpi, tilted half a degree)."""
    from rowkeeper.flows.pipeline import load_document, process_document

    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(build_pdf(spec), dpi=150, noise=0.02, rotate_deg=0.5, seed=4))
    return process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out"))).tables


def _line(stroke: int, x_height: int, ascender: int = 0) -> np.ndarray:
    """A drawn line of 12 letters: stems `stroke` px wide, `x_height` px tall, the first one
    taller by `ascender` px."""
    ink = np.zeros((40, 12 * 20), dtype=np.uint8)
    for k in range(12):
        top = 30 - x_height - (ascender if k == 0 else 0)
        ink[top:30, k * 20:k * 20 + stroke] = 255
        ink[top:30, k * 20 + 10:k * 20 + 10 + stroke] = 255
    return ink


def test_stems_half_as_wide_again_as_the_pages_text_are_bold() -> None:
    page = np.vstack([_line(3, 10), _line(3, 10), _line(3, 10), _line(6, 10)])
    boxes = [(0.0, 40.0 * i, 240.0, 40.0 * (i + 1)) for i in range(4)]
    assert bold_lines(page, boxes) == [False, False, False, True]


def test_a_tables_thin_words_do_not_make_the_text_around_it_bold() -> None:
    """The OCR layer hands a table's words back as page text too (a slide's body size). Their
    thin small print would lower the page's stroke width: a caption's first line, a shade
    heavier than the prose, read as bold and its second line not (zoo dev22 stacked-394-en
    twin: the second line became a heading of the section path). The text around the tables
    sets plain print; on a slide, a title alone over its table, the cells do."""
    around = [_line(3, 10)] * 3 + [_line(4, 10)]
    cells = [_line(2, 10)] * 8
    boxes = [(0.0, 40.0 * i, 240.0, 40.0 * (i + 1)) for i in range(12)]
    page = np.vstack(around + cells)
    assert bold_lines(page, boxes)[3]  # measured on all lines, the caption's line reads bold
    assert bold_lines(page, boxes, aside=set(range(4, 12)))[:4] == [False] * 4
    slide = np.vstack([_line(4, 10)] + cells)
    assert bold_lines(slide, boxes[:9], aside=set(range(1, 9)))[0]  # a title alone: the cells tell


def test_plain_print_is_the_print_of_the_lines_that_read_plain() -> None:
    """A page of a title, a heading, a bold caption, one line of prose and a bold sub-heading
    at body size (zoo dev12 row_rules-212-hu's twin: the sub-heading '1.1 Kilátások' was
    lost from the section path). The mean stroke over every line is pulled up by the heavy
    lines; measured on the lines that read plain against it, again until none changes side,
    the sub-heading and the caption read bold, the prose not."""
    prose = np.hstack([_line(3, 10)] * 4)
    width = prose.shape[1]

    def padded(line: np.ndarray) -> np.ndarray:
        return np.pad(line, ((0, 0), (0, width - line.shape[1])))

    page = np.vstack([padded(_line(8, 20)), padded(_line(6, 14)), padded(_line(5, 10)), prose, padded(_line(6, 10))])
    boxes = [(0.0, 40.0 * i, float(width), 40.0 * (i + 1)) for i in range(5)]
    assert bold_lines(page, boxes) == [True, True, True, False, True]


def test_a_tables_words_are_sized_apart_from_the_text_around_it() -> None:
    """Sizes a pixel apart are made one (`snapped_lines`); a table's words, set aside, do not
    pull the lines around it to their size."""
    lines = [TextLine(page=1, bbox=(0, 20 * i, 200, 20 * i + 9), text="Operating costs", font_size=size)
             for i, size in enumerate((11.5, 11.6, 11.5, 10.9, 10.8, 10.9, 10.8, 10.9, 10.8))]
    aside = set(range(3, 9))
    sizes = [ln.font_size for ln in snapped_lines(lines, 150, aside)]
    assert len(set(sizes[:3])) == 1 and sizes[0] >= 11.5
    assert len(set(sizes[3:])) == 1 and sizes[3] < 11.5


def test_the_size_comes_from_the_x_height_band_not_from_ascenders() -> None:
    box = (0.0, 0.0, 240.0, 40.0)
    plain, tall = print_size(_line(3, 10), box, "lamp", 1.0), print_size(_line(3, 10, ascender=8), box, "lamp", 1.0)
    assert plain == tall == 20.0
    assert print_size(_line(3, 14), box, "2025", 1.0) is None  # no lowercase, no x-height: the detector's


def test_a_neighbour_lines_ink_inside_a_tall_box_does_not_size_the_line() -> None:
    """Prose set tight: the detector's box reaches two blank rows past the line into the next
    line's x-height band (a 9 pt prose line measured 29 pt and headed a table's path)."""
    ink = np.zeros((60, 240), dtype=np.uint8)
    ink[:40] = _line(3, 10)
    ink[42:52] = _line(3, 10)[20:30]  # the next line's letters, under two blank rows
    assert print_size(ink, (0.0, 0.0, 240.0, 52.0), "lamp", 1.0) == 20.0
    assert print_size(ink, (0.0, 14.0, 240.0, 60.0), "lamp", 1.0) == 20.0  # the box nearer the next line


def test_a_word_read_again_over_a_headings_ink_is_no_line_of_its_own() -> None:
    """Tesseract read a large bold heading's tone marks as a word over it (ink boxes in points
    as read on a 200 dpi Vietnamese twin): the path took 'Bề' for a heading of its own."""
    title = TextLine(page=1, bbox=(49.0, 43.0, 346.0, 63.0), text="Số liệu quý theo địa điểm 2019", font_size=18.7)
    ghost = TextLine(page=1, bbox=(75.0, 81.0, 84.0, 90.0), text="Bề", font_size=14.4, bold=True)
    heading = TextLine(page=1, bbox=(48.0, 81.0, 143.0, 96.0), text="1. Tổng quan", font_size=14.4, bold=True)
    prose = TextLine(page=1, bbox=(47.0, 105.0, 326.0, 114.0), text="Phần này tóm tắt các kết quả chính.")
    assert [ln.text for ln in without_twice_read([title, ghost, heading, prose])] == [
        title.text, heading.text, prose.text]


JA_PROSE = ("以下の数値は報告期間を対象とし、管理部門が確認したものである。 "
            "費用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。 "
            "数値は四捨五入しているため、合計が各行の和と一致しない場合がある。")


def test_a_scanned_japanese_tables_section_path_has_the_title_and_both_heading_levels(tmp_path: Path) -> None:
    """Japanese has no bold face here and no x-height: a 16 pt title, 14 pt and 12 pt headings
    over 10 pt prose differ by the height of their glyph rows alone (150 dpi, tilted scan)."""
    spec = DocSpec(title="エネルギー消費量の年次報告書", blocks=[
        Heading("運営費"), Paragraph(JA_PROSE), Heading("地域別の内訳", level=2), Paragraph(JA_PROSE),
        TableSpec(caption="表1 事業所別費用", header=[["事業所", "賃料", "電力"]],
                  rows=[["北", "1,200", "310"], ["南", "2,340", "415"], ["東", "880", "190"]])])
    tables = _tables_of_scan(tmp_path, spec)
    assert [t.section_path for t in tables] == [("エネルギー消費量の年次報告書", "運営費", "地域別の内訳")]


def _cjk_row(size: int) -> np.ndarray:
    """A drawn row of 8 square glyphs `size` px tall, each a frame with a bar across."""
    ink = np.zeros((size + 20, 8 * (size + 10)), dtype=np.uint8)
    for k in range(8):
        x = k * (size + 10)
        ink[10:10 + size, x:x + size] = 255
        ink[12:8 + size, x + 2:x + size - 2] = 0
        ink[10 + size // 2, x:x + size] = 255
    return ink


def test_a_cjk_lines_size_comes_from_its_glyph_row() -> None:
    box = (0.0, 0.0, float(_cjk_row(26).shape[1]), 46.0)
    assert print_size(_cjk_row(26), box, "運営費の内訳", 1.0) == round(26 / 0.86, 1)
    assert print_size(_cjk_row(17), box, "運営費の内訳", 1.0) == round(17 / 0.86, 1)


def test_a_box_on_a_page_scanned_a_degree_askew_maps_to_points_at_its_own_size(tmp_path: Path) -> None:
    """A deskewed page's boxes map back to points by their centre and size: the hull of a
    page-wide table's tilted corners is 4 pt taller at top and bottom, and reached over a
    caption set close under it (a zoo twin's spanner table, caption 2 pt under its rule)."""
    import pymupdf

    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions
    from rowkeeper.models import DocumentInput

    spec = DocSpec(title="Quarterly report", blocks=[Paragraph(PROSE), Paragraph(PROSE)])
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(build_pdf(spec), dpi=200, noise=0.02, rotate_deg=1.0, seed=4))
    doc = DocumentInput(path=str(path), source=str(path), doc_id="x")
    ocr = OcrExtractor(OcrOptions(dpi=200))
    _, frame, angle = ocr._render(doc, pymupdf.open(path)[0], 1)  # noqa: SLF001
    assert abs(angle) >= 0.8
    x0, top, x1, bottom = frame.to_points((140.0, 600.0, 1540.0, 640.0))
    assert bottom - top == pytest.approx(40 / (200 / 72), abs=0.1)
    assert x1 - x0 == pytest.approx(1400 / (200 / 72), abs=0.1)

"""Columns on scanned pages: a paper's two text columns are not a table's, and a table's
columns stay apart where they are set close (ocr_text.phrases, ocr_tables.by_page_column)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions
from rowkeeper.extractors.ocr_tables import cut_at_columns, footprints
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput
from samples.pdfgen import scanned_twin

pytest.importorskip("rapidocr")

PROSE = ("以下の数値は報告期間を対象とし、管理部門が確認したものである。期中に開設した施設は、"
         "最初の満月から集計に含めている。費用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。")
HEADER = ["施設", "利益率(%)", "日付"]
ROWS = [["札幌支店", "24.0%", "2021年2月25日"], ["広島倉庫", "96.3%", "2024年8月13日"],
        ["神戸工場", "17.1%", "2026年3月26日"], ["京都事務所", "60.7%", "2021年8月11日"],
        ["高松支店", "33.5%", "2022年11月4日"]]
COLUMN_W, GUTTER, LEFT, SIZE = 225.0, 22.0, 60.0, 9.5


def _prose_lines(page: pymupdf.Page, x: float, y: float, n: int) -> float:
    """`n` lines of justified-looking Japanese prose, a column wide, from (x, y); the y after."""
    per_line = int(COLUMN_W // SIZE)
    text = PROSE * 4
    for k in range(n):
        page.insert_text((x, y), text[k * per_line:(k + 1) * per_line], fontname="CJ", fontsize=SIZE)
        y += SIZE * 1.6
    return y


def _two_column_page(path: Path) -> DocumentInput:
    """A page set in two columns of prose, a borderless table inside the right one whose
    percentage and date columns stand a little more than a word space apart."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="CJ", fontbuffer=pymupdf.Font("cjk").buffer)
    right = LEFT + COLUMN_W + GUTTER
    _prose_lines(page, LEFT, 80, 30)
    y = _prose_lines(page, right, 80, 8) + 10
    font = pymupdf.Font("cjk")
    for row in [HEADER, *ROWS]:
        # the percentages end ~1 em before the dates start, the header label 1.5 em before
        ends = right + 90 + font.text_length(HEADER[1], SIZE) if row is HEADER else right + 138
        xs = (right, ends - font.text_length(row[1], SIZE), right + 148)
        for x, cell in zip(xs, row, strict=True):
            page.insert_text((x, y), cell, fontname="CJ", fontsize=SIZE)
        y += 17
    _prose_lines(page, right, y + 14, 10)
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.3, seed=5))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def test_a_table_in_one_column_of_a_paper_reads_alone_with_its_close_columns(tmp_path: Path) -> None:
    """The two columns of prose make no table; the table in the right column is read with
    its three columns (the percentage and the date apart) and every row."""
    tables = OcrExtractor(OcrOptions()).extract(_two_column_page(tmp_path / "paper.pdf"), [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    grid = tables[0].grid()
    assert grid[0] == HEADER
    assert len(grid) == 1 + len(ROWS)
    assert [r[1] for r in grid[1:]] == [r[1] for r in ROWS]
    assert [r[2] for r in grid[1:]] == [r[2] for r in ROWS]


TIGHT_HEADER = ["Standort", "Lieferzeit", "Leistung", "Volumen"]
TIGHT_ROWS = [["Weidenhof Büro 3630", "5.642.367", "2.116.330", "11.800,96"],
              ["Marktplatz Halle 8494", "7.781.025", "9.333.986", "33.018,9"],
              ["Buchenallee Werk 9162", "2.916.458", "5.914.761", "21.410,8"],
              ["Hafenkai Linie 6211", "917.093", "8.312.569", "89.598,5"],
              ["Rosenau Büro 42", "8.819.628", "22.485", "51.745,9"],
              ["Eichenau Halle 1674", "6.452.962", "5.937.658", "19.892,49"]]


def _tight_table(path: Path, gap: float) -> DocumentInput:
    """A borderless table whose figure columns stand `gap` points apart (right-aligned; the
    widest figures of two neighbouring columns a little wider apart than a word space)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 80), "Betriebskosten je Region", fontname="helv", fontsize=12)
    size, font = 9.0, pymupdf.Font("helv")
    widths = [max(font.text_length(r[c], size) for r in [TIGHT_HEADER, *TIGHT_ROWS]) for c in range(4)]
    rights = [60 + widths[0] + 3 * gap]
    for c in (1, 2, 3):
        rights.append(rights[-1] + gap + widths[c]) if c > 1 else rights.append(rights[0] + widths[1])
    y = 110.0
    for row in [TIGHT_HEADER, *TIGHT_ROWS]:
        page.insert_text((60, y), row[0], fontname="helv", fontsize=size)
        for c in (1, 2, 3):
            page.insert_text((rights[c] - font.text_length(row[c], size), y), row[c], fontname="helv", fontsize=size)
        y += 15
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.4, seed=7))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def test_figure_columns_set_little_more_than_a_word_space_apart_stay_apart(tmp_path: Path) -> None:
    """The detector reads "5.642.367  2.116.330" as one run; the body's words leave the
    column gap white on every row, so the run is cut there and each figure keeps its column."""
    tables = OcrExtractor(OcrOptions()).extract(_tight_table(tmp_path / "tight.pdf", 7.0), [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    grid = tables[0].grid()
    assert grid[0] == TIGHT_HEADER
    assert [r[1:] for r in grid[1:]] == [r[1:] for r in TIGHT_ROWS]
    assert [r[0] for r in grid[1:]] == [r[0] for r in TIGHT_ROWS]


LEFT_FIELDS = [["Datum", "12.03.2024"], ["Gültig bis", "30.04.2024"], ["Kunde", "Weidenhof GmbH"]]
RIGHT_FIELDS = [["Angebot", "A-2291"], ["Telefon", "0351 44 18"]]


def _field_blocks(path: Path) -> DocumentInput:
    """An estimate's head: a block of three fields on the left and one of two on the right,
    no rules, the values a little more than a word space from the longest key on the right."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 70), "Angebot Büroausstattung", fontname="helv", fontsize=14)
    for x, values_x, fields in ((60, 130, LEFT_FIELDS), (330, 378, RIGHT_FIELDS)):
        for k, (key, value) in enumerate(fields):
            page.insert_text((x, 110 + 16 * k), key, fontname="helv", fontsize=9)
            page.insert_text((values_x, 110 + 16 * k), value, fontname="helv", fontsize=9)
    page.insert_text((60, 200), "Alle Preise verstehen sich zuzüglich der gesetzlichen Mehrwertsteuer.",
                     fontname="helv", fontsize=9)
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.3, seed=11))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def test_two_blocks_of_fields_side_by_side_are_two_tables(tmp_path: Path) -> None:
    """Two blocks of key-value fields set side by side read as two tables of keys and values,
    not one four-column table; the right block's rows as printed, a key read in one run with
    its value parted from it."""
    tables = OcrExtractor(OcrOptions()).extract(_field_blocks(tmp_path / "fields.pdf"), [1]).tables
    assert [t.grid() for t in sorted(tables, key=lambda t: t.bbox[0])] == [LEFT_FIELDS, RIGHT_FIELDS]


def _run(text: str, words: list[tuple[str, float, float]], y: float) -> OcrBox:
    return OcrBox(text, (words[0][1] - 4, y, words[-1][2] + 4, y + 40), 0.9, tuple(words))


def test_a_word_read_across_a_column_gap_leaves_the_columns_standing() -> None:
    """Seven rows of a label and a figure column 40 px apart; one row's figures read as one
    word over both (and a label's last word alone past the other rows' ends): two columns."""
    rows = [_run("Nord 1.200 310", [("Nord", 100, 180), ("1.200", 400, 480), ("310", 520, 580)], 50.0 * k)
            for k in range(6)]
    rows.append(_run("Nyugati kapu 6 1.20031,5", [("Nyugati", 100, 190), ("kapu", 198, 250), ("6", 258, 270),
                                                   ("1.20031,5", 400, 580)], 300.0))
    cols = footprints(rows, tol=14.0, crossing=1)
    assert [(round(a), round(b)) for a, b in cols] == [(100, 270), (400, 480), (520, 580)]


STATEMENT = [["", "Note", "2023", "2022"], ["Net sales", "9", "2,213,511", "2,349,749"],
             ["Cost of sales", "23", "-269,936", "-765"], ["Gross profit", "27", "1,744,114", "-496,050"],
             ["Other operating income", "", "2,125,652", "2,365,106"], ["Operating result", "16", "235,571", "1,662,145"],
             ["Financial expenses", "", "736,190", "1,594,264"], ["Total", "", "8,633,481", "9,058,822"]]


def _statement(path: Path) -> DocumentInput:
    """An income statement without rules: a stub column with no header, a note column with
    blanks, two year columns of right-aligned figures."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 70), "Income statement", fontname="helv", fontsize=14)
    font = pymupdf.Font("helv")
    for k, row in enumerate(STATEMENT):
        y = 110 + 18 * k
        page.insert_text((60, y), row[0], fontname="helv", fontsize=10)
        for right, cell in zip((300, 400, 500), row[1:], strict=True):
            page.insert_text((right - font.text_length(cell, 10), y), cell, fontname="helv", fontsize=10)
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.3, seed=3))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def test_blank_cells_of_a_borderless_table_keep_its_columns(tmp_path: Path) -> None:
    """Blank note cells and the stub's blank header are empty cells of full rows: the table is
    read as printed, not handed to the structure model as a table of uneven rows."""
    tables = OcrExtractor(OcrOptions()).extract(_statement(tmp_path / "statement.pdf"), [1]).tables
    assert [t.grid() for t in tables] == [STATEMENT]


def test_a_header_label_starting_left_of_its_figures_stays_whole() -> None:
    """A two-word label whose first word stands over the white left of its column's narrow
    right-aligned figures ("Số lượng" over "39", "101") is not parted: the first word goes
    with the second, which stands on the column."""
    cols = [(875.0, 1002.0), (1136.0, 1182.0), (1321.0, 1502.0)]
    label = _run("Số lượng", [("Số", 1027, 1060), ("lượng", 1071, 1147)], 170.0)
    pieces = cut_at_columns(label, cols)
    assert [p.text for p in pieces] == ["Số lượng"]
    fused = _run("300.000 39", [("300.000", 901, 1002), ("39", 1153, 1182)], 220.0)
    assert [p.text for p in cut_at_columns(fused, cols)] == ["300.000", "39"]

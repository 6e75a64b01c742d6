"""Header labels wider than their column's figures keep their words (issue 13 item 3).

Right-aligned labels over right-aligned figures: a label longer than the figures under it
reaches into the column on its left, where a finder cutting the header at the body's column
boundaries put its first word; two labels set close together print as one text line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import TransformConfig
from rowkeeper.models import Cell, PageInfo, RawTable, TextLine
from rowkeeper.transforms.assemble import assemble_tables
from rowkeeper.transforms.header_labels import cut_line
from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save

WIDE = {
    "en": ["Site", "Budget (USD)", "Volume (m3)", "Lead time (days)", "Score"],
    "vi": ["Hạng mục", "Loại", "Khối lượng [kg]", "Ngân sách [VNĐ]", "Điểm"],
    "de": ["Standort", "Leistung", "Volumen", "Budget", "Bewertung"],
}


def wide_label_table(path: Path, lang: str, step: float) -> Path:
    """Rules between rows; a text column then numeric columns `step` points apart, figures and
    labels right-aligned on the same edge, labels longer than the figures (gaps of 8 points and
    more between labels; the first word of a label lies nearer the figures on its left)."""
    names = WIDE[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "1. Overview", 14, True)
    pg.text(LEFT, 84, "Table 1 Key figures", 10, True)
    rnd = random.Random(7)
    rows = [names] + [[f"Riverside {i}"] + [f"{rnd.randint(10, 99)},{rnd.randint(100, 999)}.{rnd.randint(0, 9)}"
                                                      for _ in names[1:]]
                      for i in range(1, 7)]
    y = 104.0
    right = LEFT + 170
    pg.rule(LEFT, y - 12, right + step * (len(names) - 1), 0.8)
    for j, row in enumerate(rows):
        pg.text(LEFT, y, row[0], 9, j == 0)
        for i, t in enumerate(row[1:]):
            pg.text(right + step * i - 100, y, t, 9, j == 0, "r", 100)
        pg.rule(LEFT, y + 4, right + step * (len(names) - 1), 0.3)
        y += 16
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "vi", "de"])
@pytest.mark.parametrize("step", [94.0, 104.0])
def test_wide_right_aligned_labels_keep_their_words(tmp_path: Path, lang: str, step: float) -> None:
    (t,) = tables_of(wide_label_table(tmp_path / "w.pdf", lang, step))
    assert t.columns == tuple(WIDE[lang])
    assert t.rows[0][0] == "Riverside 1" and len(t.rows) == 6
    assert t.caption == "Table 1 Key figures"


def _line(text: str, x0: float, x1: float) -> TextLine:
    return TextLine(page=1, bbox=(x0, 100.0, x1, 110.0), text=text)


def test_cjk_labels_set_with_no_space_are_cut_between_characters() -> None:
    """A CJK character sets two half-widths: "納期" over the figures ending at 240, "利益率(%)"
    over those from 267; a cut never falls inside the bracket."""
    assert cut_line(_line("納期利益率(%)", 223, 284.2), [(197, 240), (267.2, 284.2)]) == ["納期", "利益率(%)"]
    assert cut_line(_line("単価(円)評点", 145, 229), [(140, 184), (205, 229)]) == ["単価(円)", "評点"]


def test_a_line_of_two_labels_is_cut_after_the_unit() -> None:
    assert cut_line(_line("Khối lượng [kg] Ngân sách [VNĐ]", 290, 470), [(330, 373), (430, 470)]) == \
        ["Khối lượng [kg]", "Ngân sách [VNĐ]"]
    assert cut_line(_line("Volume (m3)Lead time (days)", 235, 380), [(286, 300), (366, 380)]) == \
        ["Volume (m3)", "Lead time (days)"]


def test_a_line_of_three_labels_is_cut_at_the_unit_and_the_ink_edge() -> None:
    line = _line("Loại Khối lượng [kg]Ngân sách [VNĐ]", 199, 380)
    assert cut_line(line, [(206, 220), (286, 300), (366, 380)]) == ["Loại", "Khối lượng [kg]", "Ngân sách [VNĐ]"]


def test_a_line_of_two_labels_without_units_is_cut_at_the_ink_edge() -> None:
    assert cut_line(_line("Budget Bewertung", 300, 400), [(300, 335), (350, 400)]) == ["Budget", "Bewertung"]
    assert cut_line(_line("Total", 300, 330), [(300, 310), (320, 330)]) is None


def test_a_unit_bracket_starts_no_label() -> None:
    """The geometry of a landscape page's header line over six columns of figures (labels
    right-aligned): the space nearest the fifth column's ink is the one before "[days]",
    but a bracketed unit closes the label it follows."""
    line = _line("Share [%] Margin [%] Headcount Lead time [days] Volume [m3] Unit price [USD]", 149, 513)
    inks = [(167, 191), (221, 245), (266, 297), (344, 376), (406, 437), (461, 514)]
    assert cut_line(line, inks) == ["Share [%]", "Margin [%]", "Headcount", "Lead time [days]",
                                    "Volume [m3]", "Unit price [USD]"]


def test_cjk_labels_with_too_few_spaces_are_cut_between_characters() -> None:
    """One space for two cuts ("費用数量(個) 納期(日)" over three columns): the CJK character
    boundaries are tried too, never inside the bracket."""
    line = _line("費用数量( 個) 納期( 日)", 407, 543)
    assert cut_line(line, [(382, 428), (453, 485), (504, 543)]) == ["費用", "数量(個)", "納期(日)"]


# The geometry a finder handed over on a generated page (rules between rows, right-aligned
# labels and figures): column boundaries from the body cut the header's labels.
BOUNDS = [(46, 203), (203, 272), (272, 358), (358, 438), (438, 487), (487, 549)]
CUT_HEADER = ["Item", "Budget (USD)", "Volume (m3) Lead", "time (days)", "Score", "Date"]
LABELS = [("Item", 46, 69), ("Budget (USD)", 193, 261), ("Volume (m3)", 270, 333),
          ("Lead time (days)", 342, 434), ("Score", 454, 483), ("Date", 526, 549)]
BODY = [[("Stone Bridge office 2600", 46, 184), ("764,579", 221, 261), ("53,496.22", 282, 333),
         ("24,564.6", 388, 434), ("671,272", 443, 483), ("2019-04-28", 492, 549)],
        [("Bay Point office 5094", 46, 167), ("410,214", 221, 261), ("59,571.8", 288, 333),
         ("40,760.03", 382, 434), ("15,076", 449, 483), ("2025-03-05", 492, 549)]]


def _finder_piece(header: list[str], labels: list[tuple[str, float, float]]) -> tuple[RawTable, list[TextLine]]:
    rows = [header] + [[t for t, _, _ in r] for r in BODY]
    cells, lines = [], []
    for r, row in enumerate(rows):
        top = 175.0 + 18 * r
        for c, text in enumerate(row):
            cells.append(Cell(row=r, col=c, text=text, is_header=r == 0, bold=r == 0, page=1,
                              bbox=(BOUNDS[c][0], top, BOUNDS[c][1], top + 18)))
        for text, x0, x1 in labels if r == 0 else BODY[r - 1]:
            lines.append(TextLine(page=1, bbox=(x0, top + 1, x1, top + 11), text=text, font_size=9.5,
                                  bold=r == 0))
    piece = RawTable(piece_id="p1.1", doc_id="d" * 64, page=1, bbox=(46, 175, 549, 175 + 18 * len(rows)),
                     n_rows=len(rows), n_cols=6, cells=tuple(cells), extractor="test", extractor_version="0")
    return piece, lines


def _columns(piece: RawTable, lines: list[TextLine]) -> tuple[str, ...]:
    (t,) = assemble_tables("d" * 64, "x.pdf", [piece], lines, [PageInfo(page=1, kind="text", chars=900, image_coverage=0.0,
                                                                        width=595, height=842)],
                           TransformConfig())
    return t.columns


def test_a_label_cut_by_the_body_columns_gets_its_first_word_back() -> None:
    piece, lines = _finder_piece(CUT_HEADER, LABELS)
    assert _columns(piece, lines) == ("Item", "Budget (USD)", "Volume (m3)", "Lead time (days)", "Score", "Date")


def test_two_labels_printed_as_one_line_in_one_cell_go_to_their_columns() -> None:
    header = ["Item", "Budget (USD)", "Volume (m3) Lead time (days)", "", "Score", "Date"]
    labels = [*LABELS[:2], ("Volume (m3) Lead time (days)", 270, 434), *LABELS[4:]]
    piece, lines = _finder_piece(header, labels)
    assert _columns(piece, lines) == ("Item", "Budget (USD)", "Volume (m3)", "Lead time (days)", "Score", "Date")


def test_labels_already_in_their_cells_stay() -> None:
    header = [t for t, _, _ in LABELS]
    piece, lines = _finder_piece(header, LABELS)
    assert _columns(piece, lines) == tuple(header)


def test_cjk_labels_over_flush_right_figures_end_where_the_figures_end() -> None:
    """"納期構成比": "納期" ends at 173.5 with the figures under it, "構成比" starts a
    character further; a cut by the nearest ink edge either side is a tie a character apart."""
    line = _line("納期構成比", 154.5, 208.0)
    inks = [(140.25, 173.5), (184.25, 208.0)]
    assert cut_line(line, inks, [True]) == ["納期", "構成比"]


def cjk_adjacent_labels_table(path: Path) -> Path:
    """A borderless table of figures all of one width, right-aligned, under CJK labels set
    with no gap between them ("納期" + "構成比" print as one line): "納期" ends 2.5 points
    past its figures, "構成比" starts half a point from the next column's figures."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 84, "表1 人員と予算", 10)
    pg.text(LEFT, 104, "施設", 9.5)
    pg.text(LEFT + 88.5, 104, "納期構成比", 11)
    rnd = random.Random(9)
    for i in range(9):
        y = 121 + 17 * i
        pg.text(LEFT, y, f"工場 {rnd.randint(10, 99)}", 9.5)
        pg.text(LEFT + 60, y, f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}", 9.5, False, "r", 48)
        pg.text(LEFT + 110, y, f"{rnd.uniform(1, 9.9):.1f}%", 9.5, False, "r", 34.5)
    return _save(doc, path)


def test_cjk_labels_with_no_gap_over_flush_right_figures(tmp_path: Path) -> None:
    (t,) = tables_of(cjk_adjacent_labels_table(tmp_path / "cjk.pdf"))
    assert t.columns == ("施設", "納期", "構成比") and len(t.rows) == 9

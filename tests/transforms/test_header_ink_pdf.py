"""Header labels stay over their own columns when a line of the body tells no column's ink
(issue 13, the zoo's ja and booktabs names).

`header_labels` places each label line over the column whose body text it stands over. Two
readings moved labels that were already right: a source note under the table, read into one
cell of its last row, counted as that column's ink from the table's left edge (`品目` was cut
`品` | `目...`); and CJK labels set tight, reaching a point over the next column's figures,
were taken for a line over two columns and cut between characters (`数量(個)利益` | `率(%)`);
and CJK labels the finder parted right but the text layer printed as one line with no space
between them (`重量容積[m3]`) were cut again by ink alone (`重量容` | `積[m3]`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.header_labels import relabel_header
from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save

LABELS = ["品目", "単価[円]", "出力[kW]", "重量", "構成比[%]"]


def noted_table(path: Path) -> Path:
    """Rules over and under the header and under the body (booktabs); a text column, then
    columns of figures right-aligned under right-aligned labels; a source note in smaller print
    right under the bottom rule, running across the first two columns; the caption under it."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "1. 概要", 14)
    rights = [LEFT + 150 + 80 * i for i in range(len(LABELS) - 1)]
    rnd = random.Random(5)
    pg.rule(LEFT, 92, rights[-1], 1.2)
    pg.text(LEFT + 4, 104, LABELS[0], 8)
    for x, label in zip(rights, LABELS[1:], strict=True):
        pg.text(x - 100, 104, label, 8, False, "r", 100)
    pg.rule(LEFT, 109, rights[-1], 0.5)
    y = 122.0
    for _ in range(8):
        pg.text(LEFT + 4, y, f"高松センター {rnd.randint(100, 999)}", 8)
        for x in rights:
            pg.text(x - 100, y, f"{rnd.randint(10, 999)},{rnd.randint(100, 999)}", 8, False, "r", 100)
        y += 14
    pg.rule(LEFT, y - 8, rights[-1], 1.2)
    pg.text(LEFT, y - 1, "出所：期中に開設した施設は、最初の月から集計に含めている。", 6.5)
    pg.text(LEFT, y + 10, "表1：人員と予算", 8.5)
    return _save(doc, path)


def test_a_note_under_the_body_moves_no_label(tmp_path: Path) -> None:
    (t,) = tables_of(noted_table(tmp_path / "noted.pdf"))
    assert t.columns == tuple(LABELS)
    assert t.rows[0][0].startswith("高松センター")


TIGHT = ["施設", "数量(個)", "利益率(%)", "日付"]


def tight_labels_table(path: Path) -> Path:
    """A borderless table: a text column, two columns of figures right-aligned, a date column;
    the second label starts a point and a half before the first figure column's right edge
    (labels set tight over wide figures)."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "表2 施設別の数量", 10)
    pg.text(LEFT, 84, TIGHT[0], 10)
    pg.text(LEFT + 190, 84, TIGHT[1], 10)
    pg.text(318.5, 84, TIGHT[2], 10)
    pg.text(430, 84, TIGHT[3], 10)
    rnd = random.Random(3)
    for i in range(8):
        y = 102 + 15 * i
        pg.text(LEFT, y, f"工場 {rnd.randint(10, 99)}", 9)
        pg.text(220, y, f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}.{rnd.randint(10, 99)}", 9, False, "r", 100)
        pg.text(288, y, f"{rnd.uniform(1, 99):.1f}%", 9, False, "r", 100)
        pg.text(430, y, f"2024-0{rnd.randint(1, 9)}-1{rnd.randint(0, 9)}", 9)
    return _save(doc, path)


def test_tight_labels_keep_their_characters(tmp_path: Path) -> None:
    (t,) = tables_of(tight_labels_table(tmp_path / "tight.pdf"))
    assert t.columns == tuple(TIGHT) and len(t.rows) == 8


# The geometry the finder handed over on a generated page (borderless, letter-spaced CJK
# labels): its cells part the labels right, while the text layer printed three of them as one
# line with no space between the first two.
COLS = [(241.0, 325.0), (325.0, 392.0), (392.0, 433.0), (433.0, 480.0), (480.0, 556.0)]
HEAD = ["品目", "重量", "容積[m3]", "単価[円]", "日付"]
HEAD_LINES = [("品目", 245.1, 264.1), ("重量容積[m3] 単価[円] 日付", 366.5, 502.3)]
BODY_ROWS = [[("工場 4417", 245.1, 290.0), ("1,525", 362.0, 385.5), ("58.1", 413.0, 430.9),
              ("9,035", 455.0, 477.8), ("2024-07-15", 481.8, 551.7)],
             [("倉庫 873", 245.1, 319.1), ("72,416", 331.3, 385.5), ("6.9", 398.4, 430.9),
              ("12,560", 436.4, 477.8), ("2023-11-02", 481.8, 551.7)]]


def test_labels_printed_as_one_tight_line_keep_the_finders_cut() -> None:
    rows = [HEAD] + [[t for t, _, _ in r] for r in BODY_ROWS]
    cells, lines = [], []
    for r, row in enumerate(rows):
        top = 150.0 + 17 * r
        cells += [Cell(row=r, col=c, text=text, is_header=r == 0, page=1,
                       bbox=(COLS[c][0], top, COLS[c][1], top + 17)) for c, text in enumerate(row)]
        lines += [TextLine(page=1, bbox=(x0, top + 3, x1, top + 13), text=text, font_size=8.5)
                  for text, x0, x1 in (HEAD_LINES if r == 0 else BODY_ROWS[r - 1])]
    piece = RawTable(piece_id="p1.1", doc_id="d" * 64, page=1, bbox=(241, 150, 556, 150 + 17 * len(rows)),
                     n_rows=len(rows), n_cols=5, cells=tuple(cells), extractor="test", extractor_version="0")
    out = relabel_header(piece, lines, 1)
    assert [c.text for c in sorted(out.cells, key=lambda c: c.col) if c.row == 0] == HEAD


CLOSE = ["Địa điểm", "Ngân sách (VNĐ)", "Đơn giá", "Biên lợi nhuận (%)"]


def close_figures_table(path: Path) -> Path:
    """Rules between rows; a text column, two columns of figures set 5 pt apart (the text layer
    prints each row's two figures as one line), and a last column of short percentages under a
    label three times as wide, right-aligned: the label starts left of the white between the
    columns' figures, so the boundary the body's gap gives runs through its first word."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "1.1 Nhân sự", 12, True)
    budget, price, margin = LEFT + 195, LEFT + 245, LEFT + 332
    pg.rule(LEFT, 82, margin + 4, 0.8)
    pg.text(LEFT + 3, 95, CLOSE[0], 7.5)
    for x, label in zip((budget, price, margin), CLOSE[1:], strict=True):
        pg.text(x - 150, 95, label, 7.5, False, "r", 150)
    rnd = random.Random(11)
    y = 116.0
    for _ in range(8):
        pg.rule(LEFT, y - 11, margin + 4, 0.4)
        pg.text(LEFT + 3, y, f"Hải Phòng kho {rnd.randint(1000, 9999)}", 7.5)
        pg.text(budget - 100, y, f"{rnd.randint(100, 999)}.{rnd.randint(100, 999)}", 7.5, False, "r", 100)
        pg.text(price - 100, y, f"{rnd.randint(1, 9)}.{rnd.randint(100, 999)}.{rnd.randint(100, 999)} ₫", 7.5, False, "r", 100)
        pg.text(margin - 100, y, f"{rnd.randint(10, 99)},{rnd.randint(0, 9)} %", 7.5, False, "r", 100)
        y += 20
    pg.rule(LEFT, y - 11, margin + 4, 0.8)
    pg.text(LEFT, y + 2, "Bảng 1 Tổng quan nhà cung cấp", 8, True)
    return _save(doc, path)


def test_a_label_wider_than_its_figures_stays_whole_beside_figures_printed_as_one_line(tmp_path: Path) -> None:
    (t,) = tables_of(close_figures_table(tmp_path / "close.pdf"))
    assert t.columns == tuple(CLOSE)
    assert t.rows[0][3].endswith("%") and t.rows[0][2].endswith("₫")

"""A price list of records wrapped over several lines that runs over a page break is one table
(issue 13, zoo dev18 wrapped_body-306-ja, -314-en, -318-en), with or without its header printed
again over the rest:

- a record whose long key runs up to its description prints as one line (`North Ridge plant
  1796 Repair of all fire doors,`), a record's height from the rows it could be cut by; it is
  cut where the descriptions start (`field_lines._past_wrapped`), and the table goes on;
- the last wrapped line of the page's last record, under the line holding its amounts, is the
  table's (`text_runs._record_cells`), so the table ends its page;
- one record alone on the next page (too few rows for a finder) is read back with its wrapped
  lines joined (`orphan_rows._wraps_on`), under a header printed with a space the header cell
  reads without (`merge._in_header`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.orphan_rows import record_white
from tests.transforms.pdf_docs import tables_of

_FONTS = {"Mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
          "MonoB": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
          "IPA": "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"}
HEADER = ("Item", "Description", "Score", "Budget [USD]", "Revenue [USD]")
RECORDS = [
    ("Ashford line 6783", ["Replacement of all fire", "doors"], ("52,673", "133,051", "2,735.41")),
    ("Cedar Park hub 4726", ["Delivery of the cooling", "system, with a written test", "report, with disposal of old",
                             "parts"], ("162,590", "41,463", "67,303.1")),
    ("North Ridge plant 1796", ["Repair of all fire doors,", "within five working days,", "outside opening hours"],
     ("491,489", "77,822", "41,138.88")),
    ("Oak Hill line 5454", ["Calibration of emergency", "lighting"], ("73,957", "360,548", "51,517.5")),
    ("Riverside office 8372", ["Annual inspection of the", "water softener, as agreed in", "the framework contract"],
     ("293,189", "331,605", "49,964.8")),
    ("Westgate unit 8365", ["Maintenance of LED ceiling", "lights"], ("691,315", "723,766", "81,322.25")),
    ("Ashford depot 1407", ["Installation of the elevator", "and its doors"], ("249,138", "305,359", "25,169.96")),
]
JA_HEADER = ("品目", "摘要", "売上高(千円)", "数量")
JA_PRINTED = ("品目", "摘要", "売上高( 千円)", "数量")
JA_RECORDS = [
    ("仙台センター 2640", ["主配電盤の清掃（基本", "契約に基づく）、営業", "時間外に実施"], ("561,426", "¥8,599,820")),
    ("名古屋店舗 1603", ["主配電盤の年次点検（", "高所作業車は別途）、", "全3拠点"], ("291,234", "¥3,896,281")),
    ("熊本事務所 9886", ["LED天井照明の月次保", "守（撤去品の処分を含", "む）"], ("346,860", "¥1,184,771")),
    ("岡山倉庫 3969", ["荷捌き場シャッターの", "月次保守"], ("721,437", "¥2,282,322")),
    ("那覇店舗 4197", ["乗用エレベーターの校", "正（部品代及び作業費", "を含む）"], ("975,781", "¥2,151,317")),
    ("盛岡事務所 2995", ["事務用椅子の配送（全", "3拠点）、撤去品の処", "分を含む"], ("608,272", "¥3,155,179")),
]
PAGE = (595.0, 842.0)


def _text(c: canvas.Canvas, x: float, top: float, s: str, size: float, face: str, right: bool = False) -> None:
    c.setFont(face, size)
    (c.drawRightString if right else c.drawString)(x, PAGE[1] - top - 0.759 * size, s)


def _rule(c: canvas.Canvas, x0: float, x1: float, y: float) -> None:
    c.setLineWidth(0.6)
    c.line(x0, PAGE[1] - y, x1, PAGE[1] - y)


def _price_list(path: Path, lang: str, on_next: int, repeat: bool, ruled: bool = False) -> Path:
    """A heading, a paragraph and a booktabs price list in 9-point print (8 in Japanese): each
    record's description wrapped over its lines at 11 points' leading, its amounts on its last
    line (in Japanese on its middle one), records 18 points apart; the page breaks before the last `on_next` records, over which
    the header is printed again when `repeat`, with a rule under each record when `ruled`; a
    sentence under the table."""
    for name, file in _FONTS.items():
        pdfmetrics.registerFont(TTFont(name, file))
    ja = lang == "ja"
    face, size = ("IPA", 8.0) if ja else ("Mono", 9.0)
    header, records = (JA_PRINTED, JA_RECORDS) if ja else (HEADER, RECORDS)
    xs, rights = ((53.0, 127.0), (285.0, 335.0)) if ja else ((54.0, 180.0), (376.0, 448.0, 526.0))
    c = canvas.Canvas(str(path), pagesize=PAGE)
    _text(c, 50, 60, "取引先一覧 2021" if ja else "Operating costs per region 2026", 16, "IPA" if ja else "MonoB")
    _text(c, 50, 90, "以下の数値は報告期間を対象とする。" if ja else "All amounts are stated before tax.", 9, face)
    first = records[:len(records) - on_next]
    top = 770.0 - sum(11 * (len(lines) - 1) + 18 for _, lines, _ in first) - 18  # records to the page's foot

    def head(y: float) -> float:
        _rule(c, xs[0], rights[-1], y - 5)
        _text(c, xs[0], y, header[0], size, face)
        _text(c, xs[1], y, header[1], size, face)
        for x, h in zip(rights, header[2:], strict=True):
            _text(c, x, y, h, size, face, right=True)
        _rule(c, xs[0], rights[-1], y + size + 3)
        return y + size + 9

    y = head(top)
    for n, (key, lines, amounts) in enumerate(records):
        if n == len(records) - on_next:
            _rule(c, xs[0], rights[-1], y - 6)
            c.showPage()
            y = head(60.0) if repeat else 60.0
        _text(c, xs[0], y, key, size, face)
        for k, line in enumerate(lines):
            _text(c, xs[1], y + 11 * k, line, size, face)
        for x, a in zip(rights, amounts, strict=True):
            _text(c, x, y + 11 * (len(lines) // 2 if ja else len(lines) - 1), a, size, face, right=True)
        y += 11 * (len(lines) - 1) + 18
        if ruled and n + 1 < len(records) and n + 1 != len(records) - on_next:
            _rule(c, xs[0], rights[-1], y - 6)
    _rule(c, xs[0], rights[-1], y - 6)
    _text(c, 50, y + 14, "本節では主な結果をまとめる。" if ja else "Values are rounded; totals may differ.", 9, face)
    c.save()
    return path


def _row(key: str, lines: list[str], amounts: tuple[str, ...], ja: bool) -> tuple[str, ...]:
    return (key, ("" if ja else " ").join(lines), *amounts)


@pytest.mark.parametrize("repeat", [True, False])
@pytest.mark.parametrize("on_next", [1, 3])
def test_wrapped_records_over_a_page_break_are_one_table(tmp_path: Path, on_next: int, repeat: bool) -> None:
    (table,) = tables_of(_price_list(tmp_path / "list.pdf", "en", on_next, repeat))
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == [_row(*rec, ja=False) for rec in RECORDS]
    assert table.rows[2][1] == "Repair of all fire doors, within five working days, outside opening hours"


@pytest.mark.parametrize("repeat", [True, False])
def test_a_japanese_record_alone_on_the_next_page_joins_the_table(tmp_path: Path, repeat: bool) -> None:
    (table,) = tables_of(_price_list(tmp_path / "list.pdf", "ja", 1, repeat))
    assert table.columns == JA_HEADER
    assert len(table.rows) == len(JA_RECORDS)
    assert table.rows[4][1] == "乗用エレベーターの校正（部品代及び作業費を含む）"
    assert tuple(table.rows[-1]) == _row(*JA_RECORDS[-1], ja=True)


@pytest.mark.parametrize("repeat", [True, False])
def test_a_record_alone_on_the_next_page_of_a_table_ruled_between_records(tmp_path: Path, repeat: bool) -> None:
    """Rules between the records: the finder's cells touch, the white between records is read
    from the page's lines (`orphan_rows.record_white`); the record's longest line runs past the
    edge the finder drew for its column, into the white before the figures (`inked_extents`)."""
    (table,) = tables_of(_price_list(tmp_path / "list.pdf", "en", 1, repeat, ruled=True))
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == [_row(*rec, ja=False) for rec in RECORDS]


def test_the_white_between_records_is_read_from_the_lines_where_the_cells_touch() -> None:
    """A table ruled between records gives cells that touch (no white between rows); its lines
    show the records apart by 10 points and a record's lines by 2 (`orphan_rows.record_white`)."""
    tops = [(100.0, True), (110.0, False), (130.0, True), (140.0, False), (150.0, False), (170.0, True)]
    cells = tuple(Cell(row=r, col=c, text="x", bbox=(60.0 + 120 * c, 98.0 + 30 * r, 180.0 + 120 * c, 128.0 + 30 * r))
                  for r in range(3) for c in range(2))
    piece = RawTable(piece_id="p", doc_id="d", page=1, bbox=(60.0, 98.0, 300.0, 188.0), n_rows=3, n_cols=2,
                     cells=cells, extractor="test", extractor_version="0")
    lines = [TextLine(page=1, bbox=(60.0 if key else 180.0, y, 150.0 if key else 290.0, y + 8.0), text="x")
             for y, key in tops]
    assert record_white(piece) == 0.0
    assert record_white(piece, lines) == 12.0

"""A table set across both columns of a two-column page, one of its column labels starting on
the right paper column's edge, with a table in the right column under it: the right column's
read runs up through the wide table's right-hand columns and must not keep them (each word in
one table; finder/shared_cells.rows_read_in)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from tests.transforms.pdf_docs import tables_of

GOTHIC = Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")
MINCHO = Path("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf")
WIDE_HEAD = ("品目", "人数", "出力[kW]", "単価[円]", "評点", "重量", "利益率[%]")
WIDE = [("1237 仙台事務所", "¥5,236,110", "3,350.06", "313,070", "853,860", "¥8,409,028", "20.4%"),
        ("6257 神戸センター", "¥441,873", "73,984.26", "804,242", "255,432", "¥9,365,569", "31.7%"),
        ("6019 神戸倉庫", "¥8,910,158", "88,067.2", "916,855", "735,864", "¥8,281,276", "12.5%"),
        ("8317 高松倉庫", "¥103,195", "83,986.4", "527,538", "352,240", "¥2,720,340", "64.2%"),
        ("447 長野センター", "¥6,875,687", "71,273.35", "763,329", "265,103", "¥1,647,269", "60.6%"),
        ("35 盛岡支店", "¥1,091,720", "72,474.6", "784,413", "508,241", "¥6,087,645", "99.6%"),
        ("4141 熊本工場", "¥5,143,119", "15,544.3", "703,939", "27,452", "¥185,043", "17.5%"),
        ("5360 新潟工場", "¥4,407,818", "5,471.1", "644,822", "61,186", "¥9,672,328", "58.4%"),
        ("7770 鹿児島事務所", "¥710,291", "14,959.74", "666,661", "535,172", "¥3,549,732", "56.1%")]
WIDE_RIGHT = (233.1, 294.2, 350.8, 402.9, 472.9, 534.0)  # right edges of the columns after the first
NARROW_HEAD = ("品目", "単価", "予算[千円]")
NARROW = [("2470 名古屋事務所", "¥7,471,859", "159,098"), ("6603 富山倉庫", "¥7,571,505", "560,628"),
          ("5030 広島工場", "¥8,982,964", "106,300"), ("1563 鹿児島支店", "¥3,104,087", "254,651"),
          ("4939 盛岡店舗", "¥4,341,733", "747,279"), ("7354 名古屋店舗", "¥6,730,729", "760,217"),
          ("3703 静岡事務所", "¥4,687,197", "730,491"), ("4051 那覇工場", "¥4,423,946", "547,948")]
PROSE = "本節では主な結果をまとめ、前年度と比較する。以下の数値は報告期間を対象とし、管理部門が確認した" \
        "ものである。期中に開設した施設は、最初の満月から集計に含めている。数値は四捨五入している。"


def _put(c: Canvas, x: float, y: float, text: str, face: str, right: bool = False, size: float = 9) -> None:
    """`text` on the baseline `y` (from the page's top), starting at `x` or ending there (`right`)."""
    font = "IPAGothic" if face == "g" else "IPAMincho"
    if right:
        x -= stringWidth(text, font, size)
    c.setFont(font, size)
    c.drawString(x, 792 - y, text)


def _rule(c: Canvas, x0: float, x1: float, y: float) -> None:
    c.setLineWidth(0.5)
    c.line(x0, 792 - y, x1, 792 - y)


def _paragraph(c: Canvas, x: float, y: float, n: int, last: int) -> float:
    """A paragraph of whole sentences, `n` lines of 24 characters at a 12.2 pt pitch, its last
    line `last` characters ending with a full stop; the next baseline."""
    text = (PROSE * 4)[:24 * (n - 1) + last - 1] + "。"
    for k in range(n):
        _put(c, x, y, text[k * 24:(k + 1) * 24], "m")
        y += 12.2
    return y


def _page(path: Path) -> None:
    pdfmetrics.registerFont(TTFont("IPAGothic", str(GOTHIC)))
    pdfmetrics.registerFont(TTFont("IPAMincho", str(MINCHO)))
    c = Canvas(str(path), pagesize=(612, 792))
    _put(c, 72, 38.2, "Internal", "m", size=7.5)
    _put(c, 304.1, 758.2, "2", "m", size=7.5)
    _put(c, 72, 79, "表1：保守計画", "g")
    for i, row in enumerate([WIDE_HEAD, *WIDE]):
        y, face = 98.6 + 21.3 * i, "g" if i == 0 else "m"
        _put(c, 78, y, row[0], face)
        for x, text in zip(WIDE_RIGHT, row[1:], strict=True):
            _put(c, x, y, text, face, right=True)
        _rule(c, 72, 540, y + 9.6)
    y = _paragraph(c, 72, 318.7, 5, 6)  # the left column: a paragraph, a heading, three more
    _put(c, 72, y + 20, "2. 見通し", "g", size=13.1)
    y = _paragraph(c, 72, y + 38, 4, 8)
    y = _paragraph(c, 72, y + 5.4, 6, 12)
    _paragraph(c, 72, y + 5.4, 5, 23)
    _put(c, 315, 318.7, "表2：取引先一覧", "g")  # the right column: a caption, a table, a paragraph
    _rule(c, 315, 540, 326.3)
    for i, row in enumerate([NARROW_HEAD, *NARROW]):
        y, face = 338.3 + 21.3 * i, "g" if i == 0 else "m"
        _put(c, 319, y, row[0], face)
        for x, text in zip((473.0, 536.0), row[1:], strict=True):
            _put(c, x, y, text, face, right=True)
    _rule(c, 315, 540, 347.9)
    _rule(c, 315, 540, 518.0)
    _paragraph(c, 315, 537.2, 4, 8)
    c.save()


@pytest.mark.skipif(not (GOTHIC.exists() and MINCHO.exists()), reason="IPA fonts not installed")
def test_a_table_across_both_paper_columns_is_read_once(tmp_path: Path) -> None:
    _page(tmp_path / "two_column.pdf")
    tables = tables_of(tmp_path / "two_column.pdf")
    assert [t.columns for t in tables] == [WIDE_HEAD, NARROW_HEAD]
    assert [tuple(_nfkc(c) for c in r) for r in tables[0].rows] == WIDE
    assert [tuple(_nfkc(c) for c in r) for r in tables[1].rows] == NARROW


def _nfkc(text: str) -> str:
    """The yen sign as typed (the font maps its glyph to the full-width sign)."""
    return unicodedata.normalize("NFKC", text).replace("￥", "¥")

"""Two blocks of fields side by side, plain keys (no bold, no colon), the left block the longer
and its last value wrapped onto a second line (`熊本 10` / `38242 岡山`, an address): the
aligned rows end at that block's last row, two segments under rows of two pairs, and the
wrapped line was left out of the table. Its first key and value start where every row of two
pairs over it starts its first pair: a block's pair, so its wrapped value is the row's
(`text_runs._block_pair`; issue 13, zoo dev4 form-70-ja)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from tests.transforms.pdf_docs import tables_of

_FONTS = {"Sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
          "IPA": "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"}
CASES = {
    "ja": ("IPA", [("担当者", "¥160,876"), ("顧客名", "970-6094"), ("見積番号", "¥890,628"), ("住所", "熊本 10", "38242 岡山")],
           [("日付", "神戸"), ("有効期限", "110-4867")], "本節では主な結果をまとめ、前年度と比較する。"),
    "en": ("Sans", [("Contact", "$160,876"), ("Customer", "970-6094"), ("Quote no.", "$890,628"),
                    ("Address", "Oak Hill 53", "52757 Lakeside")],
           [("Date", "Riverside"), ("Valid until", "110-4867")], "The figures are rounded."),
}


def _text(c: canvas.Canvas, x: float, top: float, s: str, face: str, size: float = 10.0) -> None:
    c.setFont(face, size)
    c.drawString(x, 842 - top - 0.88 * size, s)


def _rule(c: canvas.Canvas, x0: float, x1: float, y: float) -> None:
    c.setLineWidth(0.5)
    c.line(x0, 842 - y, x1, 842 - y)


def _page(path: Path, face: str, left: list[tuple[str, ...]], right: list[tuple[str, str]], note: str) -> Path:
    """A title; the two blocks, a rule under each row (the wrapped row's under its second
    line); a heading and a sentence under them."""
    pdfmetrics.registerFont(TTFont(face, _FONTS[face]))
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    _text(c, 60, 64, "2024", face, 19)
    top = 96.6
    for key, *lines in left:
        _text(c, 66, top, key, face)
        for k, line in enumerate(lines):
            _text(c, 66 + max(pdfmetrics.stringWidth(k, face, 10) for k, *_ in left) + 12, top + 12.5 * k, line, face)
        top += 15.5 + 12.5 * (len(lines) - 1)
        _rule(c, 60, 190, top - 1)
    for i, (key, value) in enumerate(right):
        _text(c, 322, 97.6 + 17.5 * i, key, face)
        _text(c, 386, 97.6 + 17.5 * i, value, face)
        _rule(c, 316, 430, 113.6 + 17.5 * i)
    _text(c, 60, 200, "1.", face, 14.5)
    _text(c, 60, 226, note, face)
    c.save()
    return path


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_blocks_last_value_wrapped_under_a_plain_key_stays_its_value(tmp_path: Path, lang: str) -> None:
    """The left block's last value reads both its lines; both blocks have no header."""
    face, left, right, note = CASES[lang]
    tables = tables_of(_page(tmp_path / f"{lang}.pdf", face, left, right, note))
    want = [(k, " ".join(v)) for k, *v in left]
    assert sorted(tuple(map(tuple, t.rows)) for t in tables) == sorted((tuple(want), tuple(right)))
    assert all(t.columns == ("", "") for t in tables)

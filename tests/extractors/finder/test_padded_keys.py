"""Two blocks of fields side by side whose values start a fixed pad after the block's longest
key: that key stands a word space (a glyph) off its value, so its line reads as one phrase
(`Gültig bis Ostring`, `担当者 静岡`) across the key-value boundary, and `whole_phrases` kept
it whole in the key cell. The blocks' reader (`key_value.blocks_apart`) sets that boundary on
the left edge the block's values share: a word starting there starts a cell (issue 13, zoo
dev12 form-215-de, dev7 form-110-ja)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from tests.transforms.pdf_docs import tables_of

_FONTS = {"Mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
          "MonoB": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
          "IPA": "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"}
# (key face, value face, the blocks' sizes, pad after the longest key, left block, right block)
CASES = {
    "de": ("MonoB", "Mono", (8.5, 10.0), 6.0,
           [("Ansprechpartner", "531.183 €"), ("Projekt", "565.949 €"), ("Angebotsnr.", "Altstadt 20")],
           [("Gültig bis", "Ostring"), ("Anschrift", "185-2847")]),
    "en": ("MonoB", "Mono", (8.5, 10.0), 6.0,
           [("Contact", "North Ridge"), ("Project", "$12,400"), ("Quote no.", "Kingsway 69")],
           [("Valid until", "Riverside"), ("Address", "680-7339")]),
    "ja": ("IPA", "IPA", (7.0, 8.0), 8.0,
           [("日付", "¥322,084"), ("見積番号", "松山 70"), ("顧客名", "353-9273")],
           [("担当者", "静岡"), ("住所", "2022年6月11日")]),
}


def _text(c: canvas.Canvas, x: float, top: float, s: str, size: float, face: str) -> None:
    c.setFont(face, size)
    c.drawString(x, 842 - top - 0.759 * size, s)


def _rule(c: canvas.Canvas, x0: float, x1: float, y: float) -> None:
    c.setLineWidth(0.5)
    c.line(x0, 842 - y, x1, 842 - y)


def _page(path: Path, case: tuple) -> Path:
    """A heading; two blocks side by side (keys, values `pad` after the longest key, a rule
    under each row, two sizes); three fields set across under them; a sentence."""
    key_face, face, sizes, pad, left, right = case
    for name, file in _FONTS.items():
        pdfmetrics.registerFont(TTFont(name, file))
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    _text(c, 60, 66, "2026", 19, key_face)
    for x0, x1, rows, size, top in ((63.0, 205.0, left, sizes[0], 99.8), (333.0, 450.0, right, sizes[1], 98.8)):
        at = x0 + max(pdfmetrics.stringWidth(k, key_face, size) for k, _ in rows) + pad
        for i, (key, value) in enumerate(rows):
            y = top + 17.6 * i
            _text(c, x0, y, key, size, key_face)
            _text(c, at, y, value, size, face)
            _rule(c, x0 - 3, x1, y + size + 5.5)
    for x, key, value in ((66.0, left[0][0], "11.07.2022"), (231.8, left[1][0], "24.05.2025"),
                          (397.6, right[1][0], "868.280")):
        _text(c, x, 167.5, key, 9, key_face)
        _text(c, x, 181.7, value, 9, face)
    _rule(c, 60, 552, 180.0)
    _rule(c, 60, 552, 194.3)
    _text(c, 60, 230, "Dieser Abschnitt fasst die wichtigsten Ergebnisse zusammen.", 10, face)
    c.save()
    return path


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_blocks_longest_key_a_word_space_before_its_value_is_its_own_cell(tmp_path: Path, lang: str) -> None:
    """The right block's longest key and its value are two cells; both blocks have no header."""
    left, right = CASES[lang][4:]
    tables = tables_of(_page(tmp_path / f"{lang}.pdf", CASES[lang]))
    blocks = [t for t in tables if len(t.columns) == 2]
    assert sorted(tuple(map(tuple, t.rows)) for t in blocks) == sorted((tuple(left), tuple(right)))
    assert all(t.columns == ("", "") for t in blocks)

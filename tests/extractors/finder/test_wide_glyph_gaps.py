"""CJK keys glued to their values: MuPDF makes one word of glyphs with no space character
between them even across a gap of half an em; the page model's word reader parts them, and a
column half an em wide between CJK cells is a column (page_model.words_in, rowkeeper.glyphs)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.page_model import words_in
from tests.extractors.finder.layout import grids, new_page, put, width

ITEMS = [("項目", "内容", "金額"), ("顧客名", "福岡商事株式会社", "12,000"), ("担当者", "山田太郎", "3,500"),
         ("納品場所", "福岡市中央区天神", "800"), ("支払条件", "月末締め翌月払い", "1,200"), ("備考", "特になし", "0")]


def _items_page(path: Path, gap: float) -> Path:
    """The key column's longest label `gap` points before the value column's shared left edge."""
    doc = pymupdf.open()
    page = new_page(doc)
    x1 = 72 + width("支払条件", 9, "cjk") + gap
    for i, (key, value, amount) in enumerate(ITEMS):
        y = 120 + 14 * i
        put(page, 72, y, key, face="cjk")
        put(page, x1, y, value, face="cjk")
        put(page, 330, y, amount, face="cjk", align="right")
    doc.save(path)
    return path


@pytest.mark.parametrize("gap", [6.0, 7.5])  # 0.67 and 0.83 em; MuPDF glues the first
def test_cjk_key_half_an_em_before_its_value_is_its_own_cell(tmp_path: Path, gap: float) -> None:
    path = _items_page(tmp_path / "items.pdf", gap)
    (grid,) = grids(pymupdf.open(path), tmp_path / "again.pdf")
    assert [tuple(r) for r in grid] == ITEMS


def test_word_reader_parts_glued_cjk_words_and_keeps_letter_spacing(tmp_path: Path) -> None:
    path = _items_page(tmp_path / "items.pdf", 6.0)
    page = pymupdf.open(path)[0]
    assert "支払条件月末締め翌月払い" in [w[4] for w in page.get_text("words")]  # what MuPDF gives
    texts = [w[4] for w in words_in(page, page.rect)]
    assert "支払条件" in texts and "月末締め翌月払い" in texts
    # letter spacing spreads every glyph alike: no gap stands out, the label stays whole
    doc = pymupdf.open()
    spaced = new_page(doc)
    x = 72.0
    for ch in "施設種類":
        put(spaced, x, 100, ch, 10, "cjk")
        x += 10 + 4.0
    assert [w[4] for w in words_in(spaced, spaced.rect)] == ["施設種類"]

"""CJK header labels letter-spaced ("容 積 数 量 ( 個 )"), each right-aligned over its column of
figures, where two neighbouring labels run together at the spacing of their own glyphs: MuPDF
reads them as one word, and no gap shows where the first ends. The figures under them stand
one space apart in a monospaced face, as a code and a name under one header do; the columns a
letter-spaced word runs over each have a label (`projection._spaced_glyphs`), so they stay
apart."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids

IPA = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"
SIZE = 8.5
PLACES = ["大阪事務所", "松山工場", "鹿児島工場", "札幌倉庫", "金沢工場", "高松店舗", "福岡工場"]
FIGURES = [("¥5,123,363", "¥1,425,093", "28,168.20"), ("¥6,753,304", "¥7,504,614", "13,727.02"),
           ("¥7,407,443", "¥7,653,715", "29,019.85"), ("¥442,142", "¥3,781,387", "16,474.4"),
           ("¥28,669", "¥2,860,968", "5,521.38"), ("¥295,380", "¥2,570,316", "6,515.90"),
           ("¥6,932,890", "¥8,456,593", "84,856.07")]


def _half(ch: str) -> bool:
    return ord(ch) < 0x2E80


def _width(text: str, spacing: float = 0.0) -> float:
    """Printed width in IPAGothic (half-width glyphs half an em), `spacing` after each glyph
    but the last."""
    return sum(SIZE / 2 if _half(ch) else SIZE for ch in text) + spacing * (len(text) - 1)


def _put(page: pymupdf.Page, x: float, y: float, text: str, spacing: float = 0.0, right: bool = False) -> None:
    """`text` on baseline `y` from `x` (or ending at `x`), glyph by glyph `spacing` apart."""
    x = x - _width(text, spacing) if right else x
    for ch in text:
        page.insert_text((x, y), ch, fontsize=SIZE, fontname="ipag")
        x += (SIZE / 2 if _half(ch) else SIZE) + spacing


def _page(labels: tuple[str, str, str], spacing: float) -> pymupdf.Document:
    """A place column and three right-aligned columns of figures, the first two one half-width
    space apart; the header labels letter-spaced by `spacing`, each right-aligned over its
    column, the last one starting `spacing` after the one before."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="ipag", fontfile=IPA)
    second = 180.0 + SIZE / 2 + _width("¥1,425,093")
    rights = (180.0, second, second + spacing + _width(labels[2], spacing))
    _put(page, 60, 120, "施設", spacing)
    for x, label in zip(rights, labels, strict=True):
        _put(page, x, 120, label, spacing, right=True)
    for i, (place, figures) in enumerate(zip(PLACES, FIGURES, strict=True)):
        y = 136 + 14 * i
        _put(page, 60, y, place)
        for x, text in zip(rights, figures, strict=True):
            _put(page, x, y, text, right=True)
    return doc


@pytest.mark.parametrize("labels", [("重量", "容積", "数量(個)"), ("単価", "金額", "出荷数量(個)")])
def test_letter_spaced_labels_run_together_keep_their_columns(tmp_path: Path, labels: tuple[str, str, str]) -> None:
    (grid,) = grids(_page(labels, 0.59 * SIZE), tmp_path / "spaced.pdf")
    assert [[unicodedata.normalize("NFKC", c) for c in row[1:]] for row in grid[1:]] == [list(f) for f in FIGURES]
    assert [row[0] for row in grid[1:]] == PLACES

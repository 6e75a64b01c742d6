"""Letter-spaced header labels run into each other keep one label per column (issue 13, the
zoo's dev14 booktabs-248-ja and booktabs-251-ja).

Labels set with letter spacing, each right-aligned over its column of figures, where two
columns stand close: the gap between two labels is the spacing of their own glyphs or less.
- CJK labels (`容 積` then `出 荷 数 量`, every glyph 0.6 em apart, the two labels as far apart):
  MuPDF prints them as one word, `容積出荷数量`, and the finder merged the two columns under it;
- Latin sub-labels (`E N - V I` `E N - D E`, one space per glyph) touching: the spaced
  letters read as one run across the labels, `HU-ENEN-VI`.
The label ends where its column's figures end (`column_edges`): the word or the run parts there.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from rowkeeper.extractors.page_model import words_in
from tests.extractors.finder.layout import new_page, put, width

NAMES = ["松山事務所", "熊本倉庫", "福岡支店", "高松工場", "札幌倉庫", "長野支店", "金沢事務所"]


def _spaced(page: pymupdf.Page, right: float, y: float, label: str, size: float, spacing: float,
            face: str) -> None:
    """`label` letter-spaced (`spacing` after each glyph but the last), ending at `right`."""
    x = right - sum(width(ch, size, face) for ch in label) - (len(label) - 1) * spacing
    for ch in label:
        put(page, x, y, ch, size, face)
        x += width(ch, size, face) + spacing


def _figures(rnd: random.Random) -> list[str]:
    return [f"{rnd.randint(1, 9)},{rnd.randint(100, 999)},{rnd.randint(100, 999)}" for _ in range(3)]


def cjk_page(path: Path) -> Path:
    """Place names, then three columns of figures right-aligned under letter-spaced labels; the
    second label ends where its figures end and the third, wider than its figures, starts one
    letter spacing after it."""
    rnd = random.Random(5)
    doc = pymupdf.open()
    page = new_page(doc)
    size, spacing = 9.0, 5.4
    first = 260.0
    second = first + 8 + width("8,888,888", size, "cjk")
    third = second + spacing + 4 * size + 3 * spacing
    put(page, 60, 100, "表1：施設別実績", size, "cjk")
    _spaced(page, 60 + 2 * size + spacing, 130, "施設", size, spacing, "cjk")
    for right, label in zip((first, second, third), ("重量", "容積", "出荷数量"), strict=True):
        _spaced(page, right, 130, label, size, spacing, "cjk")
    for i, name in enumerate(NAMES):
        put(page, 60, 146 + 15 * i, name, size, "cjk")
        for right, text in zip((first, second, third), _figures(rnd), strict=True):
            put(page, right, 146 + 15 * i, text, size, "cjk", "right")
    doc.save(path)
    return path


def test_cjk_labels_run_together_part_where_their_figures_end(tmp_path: Path) -> None:
    with pymupdf.open(cjk_page(tmp_path / "ja.pdf")) as doc:
        page = doc[0]
        assert any(w[4] == "容積出荷数量" for w in page.get_text("words"))  # MuPDF: one word
        assert [w[4] for w in words_in(page, page.rect) if 120 < w[1] < 130] == ["施設", "重量", "容積", "出荷数量"]
    (table,) = rowkeeper.extract(str(tmp_path / "ja.pdf")).tables
    assert table.columns == ("施設", "重量", "容積", "出荷数量")
    assert [r[0] for r in table.rows] == NAMES


PAIRS = ["HU-EN", "EN-VI", "EN-DE"] * 2


def latin_page(path: Path) -> Path:
    """Item names, then six columns of scores right-aligned under letter-spaced sub-labels
    (a space's width after every letter; two metrics' three language pairs), each ending where
    its scores end: the labels are wider than the columns' pitch, so each touches the next."""
    rnd = random.Random(7)
    doc = pymupdf.open()
    page = new_page(doc, 842, 595)
    size, spacing, pitch = 7.5, 5.5, 45.0
    rights = [170.0 + pitch * k for k in range(len(PAIRS))]
    put(page, 62, 100, "Table 2: Scores by pair", size)
    _spaced(page, 62 + width("Item", size) + 3 * spacing, 130, "Item", size, spacing, "sans")
    for right, label in zip(rights, PAIRS, strict=True):
        _spaced(page, right, 130, label, size, spacing, "sans")
    for i in range(7):
        put(page, 62, 145 + 14 * i, f"Site {chr(65 + i)}", size)
        for right in rights:
            put(page, right, 145 + 14 * i, f"{rnd.randint(10, 99)}.{rnd.randint(0, 9)}", size, align="right")
    doc.save(path)
    return path


def test_touching_letter_spaced_sub_labels_keep_their_columns(tmp_path: Path) -> None:
    with pymupdf.open(latin_page(tmp_path / "en.pdf")) as doc:
        page = doc[0]
        assert [w[4] for w in words_in(page, page.rect) if 120 < w[1] < 130] == ["Item", *PAIRS]
    (table,) = rowkeeper.extract(str(tmp_path / "en.pdf")).tables
    assert table.columns == ("Item", *PAIRS)
    assert len(table.rows) == 7

"""Header labels set tight over right-aligned figures keep their own columns (issue 13, the
zoo's dev6 landscape-98-ja and rotated_page-95-en).

Two labels printed close together come out of the text layer as one line, and the finder's
column edge (the middle of the gap between two columns' figures) cut it in the wrong place:
- letter-spaced CJK labels (`単 価`, `構 成 比`, each character set apart) a little further
  apart than their letters: MuPDF made one word of them, `単価構成比`, read `単価構` | `成比`;
- a label wider than its figures (`Quantity (units)`), right-aligned over them, reaching left
  into the gap past its middle: read `Power Quantity` | `(units)`, also on a turned page.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from rowkeeper.extractors.page_model import words_in
from tests.extractors.finder.layout import new_page, put

CJK_LABELS = ["単価", "構成比", "人数", "容積"]
NAMES = ["松山事務所", "熊本倉庫", "福岡支店", "高松工場", "札幌倉庫", "長野支店", "金沢事務所", "岡山支店"]


def _spaced(page: pymupdf.Page, right: float, y: float, label: str, size: float, spacing: float) -> None:
    """`label` letter-spaced (`spacing` between its characters), its last one ending at `right`."""
    x = right - len(label) * size - (len(label) - 1) * spacing
    for ch in label:
        put(page, x, y, ch, size, "cjk")
        x += size + spacing


def cjk_page(path: Path) -> Path:
    """Item names, then four columns of figures right-aligned under letter-spaced labels (half
    an em between characters); the first two labels stand 0.78 em apart, closer than the
    figures' gap, so the text layer prints `単価構成比` as one word."""
    rnd = random.Random(3)
    doc = pymupdf.open()
    page = new_page(doc, 842, 595)
    size, spacing = 11.0, 5.5
    rights = [391.1, 443.7, 506.6, 559.6]  # 単価 0.78 em before 構成比
    put(page, 51, 130, "表1：施設別実績", size, "cjk")
    _spaced(page, 51 + 2 * size + spacing, 175, "施設", size, spacing)
    for right, label in zip(rights, CJK_LABELS, strict=True):
        _spaced(page, right, 175, label, size, spacing)
    for i, name in enumerate(NAMES):
        y = 191 + 15.7 * i
        put(page, 51, y, f"{name} {rnd.randint(1000, 9999)}", size, "cjk")
        figures = [f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}", f"{rnd.randint(10, 99)}.{rnd.randint(0, 9)}%",
                   f"{rnd.randint(1, 9)},{rnd.randint(100, 999)}.{rnd.randint(10, 99)}",
                   f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}"]
        for right, text in zip(rights, figures, strict=True):
            put(page, right, y, text, size, "cjk", "right")
    doc.save(path)
    return path


def test_letter_spaced_labels_printed_as_one_word_keep_their_columns(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(cjk_page(tmp_path / "ja.pdf"))).tables
    assert table.columns == ("施設", *CJK_LABELS)
    assert len(table.rows) == len(NAMES)


def test_the_word_reader_parts_letter_spaced_labels_a_little_further_apart(tmp_path: Path) -> None:
    with pymupdf.open(cjk_page(tmp_path / "ja.pdf")) as doc:
        page = doc[0]
        assert any(w[4] == "単価構成比" for w in page.get_text("words"))  # MuPDF: one word
        words = [w[4] for w in words_in(page, page.rect) if 160 < w[1] < 170]
    assert words == ["施設", *CJK_LABELS]  # each label's letters stay one word


EN_LABELS = ["Item", "Share (%)", "Weight (kg)", "Power", "Quantity (units)", "Margin (%)"]
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"


def _mono(page: pymupdf.Page, x: float, y: float, text: str, bold: bool = False, right: bool = False) -> float:
    """`text` in DejaVu Sans Mono 8.5 pt on its baseline `y`, from `x` (or ending there:
    `right`); returns its width."""
    w = pymupdf.Font(fontfile=MONO_BOLD if bold else MONO).text_length(text, fontsize=8.5)
    page.insert_text((x - w if right else x, y), text, fontsize=8.5, fontname="monob" if bold else "mono")
    return w



def wide_label_page(path: Path, rotate: int = 0) -> Path:
    """A landscape table in a monospaced face (shown upright, or stored on a portrait page
    with a /Rotate that shows it upright) whose bold labels are right-aligned over their
    figures, one space apart on one line: `Quantity (units)` is wider than its figures and
    reaches left into the gap beside them, `Quantity` over the gap's middle."""
    rnd = random.Random(7)
    doc = pymupdf.open()
    page = new_page(doc, 842, 595)
    page.insert_font(fontname="mono", fontfile=MONO)
    page.insert_font(fontname="monob", fontfile=MONO_BOLD)
    rights = [0.0, 525.8, 587.1, 643.3, 730.2, 786.4]
    y = 150.0
    _mono(page, 50.5, 120, "Table 1: Operating costs per region", True)
    _mono(page, 50.5, y, EN_LABELS[0], True)
    for right, label in zip(rights[1:], EN_LABELS[1:], strict=True):
        _mono(page, right, y, label, True, True)
    for _ in range(9):
        y += 13.6
        _mono(page, 50.5, y, f"Pine Valley unit {rnd.randint(1000, 9999)}")
        figures = [f"{rnd.randint(10, 99)}.{rnd.randint(0, 9)}%", f"{rnd.randint(10, 99)},{rnd.randint(100, 999)}.0",
                   f"${rnd.randint(10_000, 9_999_999):,}",
                   f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}", f"{rnd.randint(10, 99)}.{rnd.randint(0, 9)}%"]
        for right, text in zip(rights[1:], figures, strict=True):
            _mono(page, right, y, text, right=True)
    if rotate:  # the same content stored on a portrait page, a /Rotate showing it upright
        out = pymupdf.open()
        turned = out.new_page(width=595, height=842)
        turned.show_pdf_page(turned.rect, doc, 0, rotate=rotate)
        turned.set_rotation(rotate)
        out.save(path)
    else:
        doc.save(path)
    return path


def test_a_wide_label_reaching_into_the_gap_heads_its_own_column(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(wide_label_page(tmp_path / "en.pdf"))).tables
    assert table.columns == tuple(EN_LABELS)
    assert len(table.rows) == 9


def test_a_wide_label_on_a_turned_page_heads_its_own_column(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(wide_label_page(tmp_path / "turned.pdf", 90))).tables
    assert table.columns == tuple(EN_LABELS)
    assert len(table.rows) == 9

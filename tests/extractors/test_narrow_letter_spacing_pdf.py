"""Labels letter-spaced by a word space (each glyph its own word, as an OCR layer over a
letter-spaced print sets it: `N a m e  d e s  B l a t t e s`) read as the words a reader sees
(`Name des Blattes`): the run's gaps fall in two classes, its letters' and its words' several
times wider (`extractors/spaced_letters.join_narrow_spacing`), measured per run, so a label
set tighter or looser reads the same, and one-letter words a space apart stay apart."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from rowkeeper.extractors.spaced_letters import join_narrow_spacing

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LABELS = {
    "de": ("Name des Blattes", "Auflage", "Preis je Zeile"),
    "en": ("Name of paper", "Circulation", "Price per line"),
    "hu": ("Lap neve", "Példányszám", "Ár soronként"),
    "vi": ("Tên tờ báo", "Số trang in", "Giá theo dòng"),
}
PLACES = ["Bruchsal", "Durlach", "Ettlingen", "Gaggenau", "Karlsruhe", "Rastatt"]


def _spaced(page: pymupdf.Page, font: pymupdf.Font, x: float, base: float, label: str, size: float,
            letter: float, word: float, ocr: bool) -> None:
    """`label` glyph by glyph: `letter` (share of the size) after each glyph, `word` between
    words; with `ocr`, each glyph a word of its own with a space after it, as an OCR layer
    sets the letters it read one by one."""
    for k, part in enumerate(label.split(" ")):
        if k:
            x += (word - letter) * size
        for ch in part:
            page.insert_text((x, base), ch + " " if ocr else ch, fontsize=size, fontname="dv", fontfile=FONT)
            x += font.text_length(ch, fontsize=size) + letter * size


def _page(path: Path, labels: tuple[str, ...], size: float, letter: float, word: float,
          ocr: bool) -> list[list[str]]:
    """A borderless table: letter-spaced labels over a name column and two figure columns."""
    rnd = random.Random(len(labels[0]))
    font = pymupdf.Font(fontfile=FONT)
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((50, 60), "Tabelle 1", fontsize=11, fontname="dv", fontfile=FONT)
    lefts = (50, 230, 360)
    for x, label in zip(lefts, labels, strict=True):
        _spaced(page, font, x, 100, label, size, letter, word, ocr)
    rows = []
    for i, place in enumerate(PLACES):
        row = [f"{place} Anzeiger", f"{rnd.randint(1000, 9999)}", f"{rnd.randint(10, 99)}"]
        for x, text in zip(lefts, row, strict=True):
            page.insert_text((x, 100 + 2 * size * (i + 1)), text, fontsize=size, fontname="dv", fontfile=FONT)
        rows.append(row)
    doc.save(path)
    return rows


@pytest.mark.parametrize("lang", sorted(LABELS))
@pytest.mark.parametrize(("size", "letter", "word", "ocr"), [(9.0, 0.22, 1.0, True), (8.0, 0.3, 1.2, False),
                                                             (10.0, 0.18, 0.8, True), (7.0, 0.3, 1.1, False)])
def test_narrowly_letter_spaced_labels_keep_their_word_spaces(tmp_path: Path, lang: str, size: float,
                                                               letter: float, word: float, ocr: bool) -> None:
    rows = _page(tmp_path / f"{lang}.pdf", LABELS[lang], size, letter, word, ocr)
    (table,) = rowkeeper.extract(str(tmp_path / f"{lang}.pdf")).tables
    assert table.columns == LABELS[lang]
    assert [list(r) for r in table.rows] == rows
    assert [c.text for c in table.cells if c.is_header] == list(LABELS[lang])


def _glyphs(text: str, letter: float, word: float, size: float = 6.0) -> list[tuple]:
    out, x = [], 10.0
    for k, part in enumerate(text.split(" ")):
        x += word if k else 0.0
        for ch in part:
            out.append((x, 100.0, x + 0.55 * size, 100.0 + size, ch, 1, 0, len(out)))
            x += 0.55 * size + letter
    return out


def test_a_run_of_two_gap_classes_is_words_and_one_of_one_class_stays_letters() -> None:
    assert [w[4] for w in join_narrow_spacing(_glyphs("Name des Blattes", 1.5, 6.5))] == ["Name", "des", "Blattes"]
    assert [w[4] for w in join_narrow_spacing(_glyphs("A B C D E F", 1.5, 1.5))] == list("ABCDEF")
    assert [w[4] for w in join_narrow_spacing(_glyphs("a b c d e f", 1.5, 1.5))] == list("abcdef")


def test_letter_spaced_cjk_is_left_to_the_label_rules() -> None:
    glyphs = _glyphs("施設 種類", 1.5, 6.5)
    assert [w[4] for w in join_narrow_spacing(glyphs)] == list("施設種類")


def test_a_whole_cell_letter_spaced_in_any_script_reads_as_one_word() -> None:
    from rowkeeper.label_text import clean_text

    assert clean_text("P é l d á n y s z á m") == "Példányszám"
    assert clean_text("Ö s s z e s") == "Összes"
    assert clean_text("A to B") == "A to B" and clean_text("1 2 3") == "1 2 3"


def test_relabelling_keeps_a_cell_s_word_spaces_but_not_in_cjk() -> None:
    from rowkeeper.transforms.header_labels import _spaced_as

    assert _spaced_as("Name des Blattes", "N a m e d e s B l a t t e s") == "Name des Blattes"
    assert _spaced_as("利 益率[%]", "利益率\n[ % ]") == "利益率\n[ % ]"  # zoo dev16 wrapped_header-287-ja
    assert _spaced_as("Price", "Unit price") == "Unit price"

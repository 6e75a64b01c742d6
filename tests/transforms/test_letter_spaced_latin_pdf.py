"""Latin labels letter-spaced half an em inside a Japanese header (`c h r F` over `J A - E N`,
the character spacing the CJK labels beside them are set with): each label is one column's
name, read whole (`extractors/spaced_letters.py` joins the glyphs a reader sets apart as
words, `label_text.spaced_word` the line text a reader spaced), and the code-and-name column
stays one column."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

import rowkeeper
from rowkeeper.extractors.spaced_letters import join_spaced_letters
from rowkeeper.label_text import clean_text

IPA = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"
NAMES = ["新潟店舗", "富山事務所", "静岡事務所", "熊本支店", "盛岡店舗", "仙台倉庫"]


def _text(c: canvas.Canvas, x: float, top: float, s: str, size: float, space: float = 0.0,
          align: str = "left") -> None:
    w = pdfmetrics.stringWidth(s, "IPAGothic", size) + space * max(len(s) - 1, 0)
    t = c.beginText(x - (w if align == "right" else w / 2 if align == "centre" else 0), 842 - top - size)
    t.setFont("IPAGothic", size)
    t.setCharSpace(space)
    t.textOut(s)
    c.drawText(t)


def _page(path: Path, groups: list[str], subs: list[str], size: float, pitch: float) -> list[list[str]]:
    """A booktabs table: group labels over pairs of sub-labels, the header letter-spaced half
    an em; a code and a name in the first column; figures right-aligned under each label."""
    pdfmetrics.registerFont(TTFont("IPAGothic", IPA))
    rnd = random.Random(len(subs))
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    _text(c, 42, 60, "表1：地域別運営費", 10)
    rights = [120 + pitch * (k + 1) for k in range(len(groups) * len(subs))]
    for g, name in enumerate(groups):
        mid = (rights[g * len(subs)] - pitch + 8 + rights[(g + 1) * len(subs) - 1]) / 2
        _text(c, mid, 90, name, size, size / 2, "centre")
    _text(c, 45, 90 + 2 * size, "品目", size, size / 2)
    for k, x in enumerate(rights):
        _text(c, x, 90 + 2 * size, subs[k % len(subs)], size, size / 2, "right")
    rows = []
    for i, name in enumerate(NAMES):
        row = [f"{rnd.randint(1000, 9999)} {name}", *(f"{rnd.randint(10, 99)}.{rnd.randint(0, 9)}" for _ in rights)]
        top = 90 + (2 + 2.5 * (i + 1)) * size
        _text(c, 45, top, row[0], size)
        for x, v in zip(rights, row[1:], strict=True):
            _text(c, x, top, v, size, 0.0, "right")
        rows.append(row)
    c.save()
    return rows


@pytest.mark.parametrize(("size", "pitch"), [(8.0, 42.0), (7.0, 43.5), (9.0, 52.5)])
def test_letter_spaced_latin_labels_in_a_japanese_header_name_their_columns(tmp_path: Path, size: float,
                                                                            pitch: float) -> None:
    groups, subs = ["chrF", "TER"], ["JA-EN", "HU-EN"]
    rows = _page(tmp_path / "ja.pdf", groups, subs, size, pitch)
    (table,) = rowkeeper.extract(str(tmp_path / "ja.pdf")).tables
    assert table.columns == ("品目", *(f"{g} {s}" for g in groups for s in subs))
    assert [list(r) for r in table.rows] == rows


def test_glyphs_one_letter_spacing_apart_are_one_word_and_parted_where_the_gap_grows() -> None:
    glyphs = [(x, 150.5, x + 4, 158.5, ch, 5, 1, k) for k, (x, ch) in
              enumerate(zip((111, 119, 127, 135, 143, 153, 161, 169, 177, 185), "JA-ENHU-EN", strict=True))]
    assert [w[4] for w in join_spaced_letters(glyphs)] == ["JA-EN", "HU-EN"]
    spaced = [(x, 100, x + 6, 110, ch, 1, 0, k) for k, (x, ch) in enumerate(zip((10, 18.8, 27.6), "ABC", strict=True))]
    assert [w[4] for w in join_spaced_letters(spaced)] == ["A", "B", "C"]  # a word space apart


def test_a_letter_spaced_label_reads_whole_and_single_letters_between_words_do_not() -> None:
    assert clean_text("E N - V I") == "EN-VI"
    assert clean_text("c h r F") == "chrF"
    assert clean_text("A to B") == "A to B"
    assert clean_text("1 2 3") == "1 2 3"


def test_a_range_a_word_space_from_its_word_and_dot_leaders_stay_words() -> None:
    line = [(10, 100, 15, 110, "1", 1, 0, 0), (19, 100, 23, 110, "-", 1, 0, 1), (27, 100, 32, 110, "2", 1, 0, 2),
            (36, 100, 60, 110, "years", 1, 0, 3)]
    assert [w[4] for w in join_spaced_letters(line)] == ["1", "-", "2", "years"]
    near = [(10 + 9 * k, 100, 15 + 9 * k, 110, ch, 1, 0, k) for k, ch in enumerate("ABC")]
    assert [w[4] for w in join_spaced_letters([*near, (37, 100, 60, 110, "word", 1, 0, 3)])] == ["A", "B", "C", "word"]
    assert [w[4] for w in join_spaced_letters([*near, (47, 100, 70, 110, "word", 1, 0, 3)])] == ["ABC", "word"]
    dots = [(100 + 8 * k, 100, 102 + 8 * k, 110, ".", 1, 0, k) for k in range(8)]
    assert [w[4] for w in join_spaced_letters(dots)] == ["."] * 8

"""Two rows of fields in a fixed-width face: every word starts on the character grid, so two
values' words may start at one x by chance ('2026. 01. 20.' over 'Folyópart 8', each word a
space after the one before it). That is no column of a short table; a column of values beside
keys leaves more white than a space before it in some row, or starts where the print turns
(a bold key, its value in regular print) (`region_trims.wide_gaps_only`; issue 13, zoo dev9
headerless_kv-149-hu)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.region_trims import wide_gaps_only
from tests.extractors.finder.layout import new_page
from tests.transforms.pdf_docs import tables_of

_MONO = {"mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "monob": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"}
ROWS = [("Telefon", "78 881 Ft", "Ajánlatszám", "2026. 01. 20."), ("Ügyfél", "Erdőszél 27", "Érvényes", "Folyópart 8")]


def _page(path: Path, rows: list[tuple[str, ...]], xs: tuple[float, ...], keys: str = "mono") -> None:
    """A heading, a sentence, the rows (keys in `keys`' face) ruled under each, a caption."""
    doc = pymupdf.open()
    page = new_page(doc)
    for name, file in _MONO.items():
        page.insert_font(fontname=name, fontfile=file)
    page.insert_text((60, 80), "1. Kilátások", fontsize=16, fontname="monob")
    page.insert_text((60, 110), "A költségek tartalmazzák a karbantartást és az energiát.", fontsize=11, fontname="mono")
    for i, row in enumerate(rows):
        y = 188 + 20.8 * i
        for k, (x, text) in enumerate(zip(xs, row, strict=True)):
            page.insert_text((x, y), text, fontsize=11, fontname=keys if k % 2 == 0 else "mono")
        page.draw_line((60, y + 5.6), (552, y + 5.6), width=0.5)
    page.insert_text((60, 240), "1. táblázat Létszám és keret", fontsize=11, fontname="monob")
    page.insert_text((60, 275), "Ez a fejezet összefoglalja a fő eredményeket, és összeveti őket az előző évvel.",
                     fontsize=11, fontname="mono")
    doc.save(path)


def test_words_of_two_values_starting_level_by_chance_make_no_column(tmp_path: Path) -> None:
    """Two rows of two pairs, the fourth field's words a space apart in both rows."""
    path = tmp_path / "mono.pdf"
    _page(path, ROWS, (64.0, 163.8, 290.1, 416.4))
    (t,) = tables_of(path)
    assert [tuple(r) for r in t.rows] == ROWS
    assert t.caption == "1. táblázat Létszám és keret"


def _words(rows: list[tuple[str, ...]], x0: float = 64.0, char: float = 6.6) -> list[tuple]:
    """PyMuPDF-style words (block, line and word numbers too) of fixed-width lines, each one
    printed line, one character `char` wide."""
    out = []
    for i, line in enumerate(rows):
        at = 0
        for k, word in enumerate(" ".join(line).split(" ")):
            out.append((x0 + at * char, 100 + 20 * i, x0 + (at + len(word)) * char, 111 + 20 * i, word, i, 0, k))
            at += len(word) + 1
    return out


def test_bold_keys_of_one_length_a_space_from_their_values_stay_a_column() -> None:
    """Keys of one length, each value a space after its key: the white before the values is a
    space in every row, but the print turns there (bold keys), so the values' column stays;
    with no turn it is a word space like any other."""
    words = _words([("Telefon", "Északi"), ("Projekt", "Dunapart")])
    sep = 64.0 + 7.5 * 6.6
    assert wide_gaps_only(words, [sep], turns=[64.0 + 8 * 6.6]) == [sep]
    assert wide_gaps_only(words, [sep]) == []


def test_cjk_keys_set_apart_from_their_values_with_no_space_stay_a_column() -> None:
    """CJK keys of one length, each value 8 pt after its key with no space between (one word
    to the text layer, parted at the gap): no word space, so the values' column stays."""
    words = [(54.0, 182.0, 76.0, 193.0, "住所", 0, 0, 0), (84.0, 182.0, 106.0, 193.0, "京都", 0, 0, 0),
             (54.0, 201.0, 76.0, 212.0, "日付", 1, 0, 0), (84.0, 201.0, 106.0, 212.0, "大阪", 1, 0, 0)]
    assert wide_gaps_only(words, [80.0]) == [80.0]


PARAGRAPHS = {
    "hu": ("Az év közben nyitott telephelyek", "az első teljes hónaptól", "szerepelnek. A költségek",
           "tartalmazzák a karbantartást és az", "energiát, az értékcsökkenést nem.", "Ez a fejezet összefoglalja a fő",
           "eredményeket, és összeveti őket az", "előző évvel."),
    "en": ("Values are rounded; totals may differ", "slightly from the sum of the rows. This",
           "section summarises the main results and", "compares them with the previous year. This",
           "section summarises the main results and", "compares them with the previous year."),
    "en-ragged": ("The figures below cover the", "reporting period and were", "checked by the controlling team.",
                  "All amounts are stated before", "tax unless a note says", "otherwise. Values are rounded;",
                  "totals may differ slightly from"),
}


@pytest.mark.parametrize("lang", list(PARAGRAPHS))
def test_a_paragraph_in_a_fixed_width_face_is_no_block_of_fields(tmp_path: Path, lang: str) -> None:
    """A paragraph in a fixed-width face in a narrow page column: its words start on the
    character grid, so over three lines or more some start level at two x after a space each,
    as a block of fields' values do. The lines run on from the paragraph's line over them (or
    under them) at its pitch and margin: prose, no table (issue 13, zoo dev7 two_column-115-en,
    dev8 two_column-128-hu); a ragged line of a narrow column may be short (`tax unless a
    note says`, dev3 borderless_prose-46-en)."""
    doc = pymupdf.open()
    page = new_page(doc)
    for name, file in _MONO.items():
        page.insert_font(fontname=name, fontfile=file)
    page.insert_text((60, 80), "Áttekintés" if lang == "hu" else "Overview", fontsize=16, fontname="monob")
    for i, line in enumerate(PARAGRAPHS[lang]):
        page.insert_text((60, 110 + 14.85 * i), line, fontsize=11, fontname="mono")
    path = tmp_path / "prose.pdf"
    doc.save(path)
    assert tables_of(path) == ()

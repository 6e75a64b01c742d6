"""A short borderless table whose columns stand a word space apart (finder/spaced_columns.py):
each body row prints as one text line, and so do the header's later labels; the figures are
placed on the page's words and the header line is cut where its labels start at the columns'
starts or end at the right-aligned figures' ends, so the table is found and read whole (issue
13, zoo borderless_prose-242-ja, -167-ja, -55-hu: the table under the prose was not found, or
its header row left out and every name empty)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

JA_PROSE = ("期中に開設した施設は、最初の満月から集計に含めている。以下の数値は報告期間を対象とし、管",
            "理部門が確認したものである。本節では主な結果をまとめ、前年度と比較する。数値は四捨五入し",
            "ているため、合計が各行の和と一致しない場合がある。")
JA = [("品目", "納期[日]", "日付"), ("高松支店 5084", "28,603.80", "2026年8月21日"),
      ("金沢倉庫 4341", "31,634.83", "2021年11月4日")]
HU_PROSE = ("A költségek tartalmazzák a karbantartást és az energiát, az értékcsökkenést nem. A",
            "költségek tartalmazzák a karbantartást és az energiát, az értékcsökkenést nem. Az év",
            "közben nyitott telephelyek az első teljes hónaptól szerepelnek.")
HU = [("Tétel", "Teljesítmény [kW]", "Szállítási idő [nap]", "Térfogat [m3]"),
      ("8673 Tópart sor", "500 371", "790 255", "123 694"), ("6596 Királyút üzem", "572 045", "771 420", "255 254"),
      ("620 Fenyves sor", "503 158", "725 163", "751 938"), ("3386 Hársfa bolt", "238 047", "55 568", "18 117")]


HU_DATES = [("Tétel", "Költség (Ft)", "Dátum"), ("Tölgyes egység 6976", "998 903", "2026. 11. 03."),
            ("Szőlőhegy bolt 4227", "27 582", "2020. 04. 13.")]
BESIDE = ("Az alábbi adatok a beszámolási időszakra", "vonatkoznak, és a kontrolling ellenőrizte",
          "őket. Az értékek kerekítettek; az összesen", "sor kissé eltérhet a sorok összegétől.")


def _page(path: Path, prose: tuple[str, ...], face: str, size: float, rows, cells, pitch: float,
          beside: int = 0) -> Path:
    """Prose, then `rows` at `cells` ((x, align) per column; a Latin header bold), with `beside`
    lines of a paragraph right of them, then prose again."""
    doc = pymupdf.open()
    page = new_page(doc)
    y = 100.0
    for text in prose:
        put(page, 72, y, text, 9, face)
        y += 14
    y += 12
    for i in range(beside):
        put(page, 335, y - 5 + 11.6 * i, BESIDE[i % len(BESIDE)], 8.6, face)
    for r, row in enumerate(rows):
        for text, (x, align) in zip(row, cells, strict=True):
            put(page, x, y, text, size, "bold" if r == 0 and face == "sans" else face, align)
        y += pitch
    put(page, 72, y + 14, prose[0], 9, face)
    doc.save(path)
    return path


@pytest.mark.parametrize("case", ["ja", "hu-dates", "hu-beside"])
def test_a_table_set_a_word_space_apart_is_read_whole(tmp_path: Path, case: str) -> None:
    """ja: a date column left-aligned 8 points after a right-aligned figure column, the name
    and its code a word space apart; hu-dates: the same with dates of three groups; hu-beside:
    right-aligned labels 4 points apart over right-aligned figures, in 6-point print padded to
    17.5-point rows, a paragraph beside them."""
    if case == "ja":
        path = _page(tmp_path / "ja.pdf", JA_PROSE, "cjk", 10.5, JA, ((76, "left"), (207.1, "right"), (215.1, "left")), 16.1)
        want = JA
    elif case == "hu-dates":
        cells = ((75, "left"), (236.0, "right"), (243.0, "left"))
        path = _page(tmp_path / "hu.pdf", HU_PROSE, "sans", 9, HU_DATES, cells, 21.3)
        want = HU_DATES
    else:
        cells = ((74, "left"), (200.9, "right"), (268.2, "right"), (319.3, "right"))
        path = _page(tmp_path / "hu.pdf", HU_PROSE, "sans", 6, HU, cells, 17.5, beside=12)
        want = HU
    (table,) = tables_of(path)
    assert table.columns == want[0]
    assert [tuple(r) for r in table.rows] == want[1:]



ITEMS = [("a.", "a wasting away of body", "tissues caused by insuffi-", "cient protein and calories"),
         ("b.", "a disease marked by a", "swollen abdomen and", "severe skin lesions caused"),
         ("c.", "a disease associated with", "diabetes, high blood pres-", "sure, and heart or kidney")]
LEFT = ("Check your understanding of the psychological", "impacts of puberty as well as the causes and",
        "correlates of growth and development by", "answering the following questions. Answers",
        "appear in the Appendix. True or False: Indicate", "whether the following statement is true or false.")


def test_a_lettered_list_beside_prose_is_not_cut_into_columns(tmp_path: Path) -> None:
    """A list of lettered items with hanging indents (the mark, then the text, its wrapped
    lines under the text) beside a matching exercise's instruction and a paragraph: an item's first line has segments of
    the rows under it starting where its text starts, but nothing stands under its mark, so it
    is no header of labels, and the list no table (real-dev PDFUA-Ref-2-08_BookChapter p26)."""
    doc = pymupdf.open()
    page = new_page(doc)
    for i in range(12):
        put(page, 40, 540 + 10.5 * i, LEFT[i % len(LEFT)], 7.5)
    for i, text in enumerate(("Matching: Match the follow-", "ing nutritional deficits with", "their definitions.")):
        put(page, 297, 540 + 10.5 * i, text, 7.5)
    for i, text in enumerate(("2. kwashiorkor", "3. marasmus", "4. iron deficiency anemia")):
        put(page, 305, 577 + 12.5 * i, text, 7.5)
    y = 540.0
    for mark, first, *lines in ITEMS:  # the mark and the item's text one string, the text at 432
        put(page, 432 - width(f"{mark} ", 7.5), y, f"{mark} {first}", 7.5)
        for k, text in enumerate(lines):
            put(page, 432, y + 10.5 * (k + 1), text, 7.5)
        y += 10.5 * (len(lines) + 1)
    path = tmp_path / "list.pdf"
    doc.save(path)
    assert tables_of(path) == ()

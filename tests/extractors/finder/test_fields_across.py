"""Short blocks of fields (issue 13, dev3 zoo): two rows of fields set across (a bold key, then
values and keys in regular type) are a table, its columns where the gaps are wider than a word
space; two blocks of fields side by side under a title, one with a value wrapped onto a second
line, are two key-value tables."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.field_rows import level_fields
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

INTRO = ("Costs include maintenance, energy and external services but exclude depreciation. "
         "This section summarises the main results.")
AFTER = "Values are rounded; totals may differ slightly from the sum of the rows."


def _across(path: Path, rows: list[list[str]], xs: tuple[float, ...], caption_at: float = 170,
            caption: str = "Table 1 Quarterly figures by site") -> Path:
    """A page of prose with two rows of fields set across in a monospace face (Courier): the
    first column bold, the others regular; a caption at `caption_at` and prose under them."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 42, 60, "Energy consumption 2019", 16, "bold")
    page.insert_text((42, 100), INTRO, fontsize=7, fontname="cour")
    for i, row in enumerate(rows):
        for c, (x, text) in enumerate(zip(xs, row, strict=True)):
            page.insert_text((x, 130 + 14 * i), text, fontsize=7, fontname="cobo" if c == 0 else "cour")
    page.insert_text((42, caption_at), caption, fontsize=7, fontname="cobo")
    page.insert_text((42, 195), AFTER, fontsize=7, fontname="cour")
    doc.save(path)
    return path


FIELDS = [["Phone", "127-5920", "Valid until", "Maple Court"],
          ["Quote no.", "676-9792", "Date", "976-9271"]]


def test_two_rows_of_fields_set_across_are_one_headerless_table(tmp_path: Path) -> None:
    """A bold key column and four columns in two rows: one table of two rows, "Valid until"
    one cell although "Date" under it leaves the space after "Valid" clear."""
    (t,) = tables_of(_across(tmp_path / "across.pdf", FIELDS, (48, 177, 301, 438)))
    assert t.columns == ("", "", "", "")
    assert [list(r) for r in t.rows] == FIELDS
    assert t.caption == "Table 1 Quarterly figures by site"


def test_a_caption_over_fields_set_across_is_no_row_of_theirs(tmp_path: Path) -> None:
    """A bold caption right over the fields, running over the gap between the keys and their
    values set close (a gap no wider than a word space, the values' left edge shared by both
    rows): it is the table's caption, and the keys and values stay two columns."""
    rows = [["Quote no.", "216.002", "Address", "629-7985"], ["Phone", "Fairfield 15", "Customer", "Oak Hill 80"]]
    (t,) = tables_of(_across(tmp_path / "over.pdf", rows, (48, 96, 301, 438), caption_at=116,
                             caption="Table 1: Supplier overview"))
    assert t.columns == ("", "", "", "")
    assert [list(r) for r in t.rows] == rows
    assert t.caption == "Table 1: Supplier overview"


def test_two_rows_of_plain_words_are_no_table(tmp_path: Path) -> None:
    """Two rows of plain segments (nothing bold, no colon) level four times, no figure among
    them and no caption: too few to tell from text set level by chance, no table."""
    doc = pymupdf.open()
    page = new_page(doc)
    rows = [["Phone", "Maple Court", "Valid until", "Oak Hill"], ["Quote no.", "Bay Point", "Date", "Elm Street"]]
    for i, row in enumerate(rows):
        for x, text in zip((48, 177, 301, 438), row, strict=True):
            page.insert_text((x, 130 + 14 * i), text, fontsize=7, fontname="cour")
    doc.save(tmp_path / "plain.pdf")
    assert tables_of(tmp_path / "plain.pdf") == ()


def test_two_rows_of_plain_fields_with_figures_among_their_values_are_a_table(tmp_path: Path) -> None:
    """The same rows with figures among their values (phone numbers, a date): keys that name
    values, fields set across though nothing is bold and no caption names them; their first
    row is one more field, no header (issue 13)."""
    doc = pymupdf.open()
    page = new_page(doc)
    for i, row in enumerate(FIELDS):
        for x, text in zip((48, 177, 301, 438), row, strict=True):
            page.insert_text((x, 130 + 14 * i), text, fontsize=7, fontname="cour")
    doc.save(tmp_path / "plain.pdf")
    (t,) = tables_of(tmp_path / "plain.pdf")
    assert t.columns == ("", "", "", "")
    assert [list(r) for r in t.rows] == FIELDS


_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
_MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
CLOSE = {"en": ([["Customer", "Glenwood", "Valid until", "Bay Point"], ["Address", "2019-10-16", "Date", "2021-11-24"]],
                (63.0, 109.9, 167.1, 229.4), "mono", 8.5, None),
         "vi": ([["Khách hàng", "15/04/2022", "Số báo giá", "Vinh"], ["Hiệu lực", "08/07/2023", "Ngày", "Cần Thơ"]],
                (45.0, 107.2, 168.0, 224.0), "sans", 9.5, "Bảng 1: Số liệu quý theo địa điểm")}


def _advance(text: str, size: float, face: str) -> float:
    return pymupdf.Font(fontfile=_MONO).text_length(text, size) if face == "mono" else width(text, size, face)


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_plain_fields_set_a_few_points_apart_are_cut_where_both_rows_start_a_word(tmp_path: Path, lang: str) -> None:
    """Two rows of plain fields, each field a few points after the one before (a fixed-width
    face's space and a little more; twice a proportional face's word space), a space printed
    between them: the text layer runs a key and its value into one line (`Customer Glenwood`,
    `Khách hàng 15/04/2022 Số báo giá Vinh`). They are cut where a word of each row starts at
    one x, one of them starting a line or both after more than a word space, and read as one
    table of four columns with no header, with or without a caption (issue 13, zoo dev11
    headerless_kv-190-en, dev3 headerless_kv-36-vi: not found)."""
    rows, xs, face, size, caption = CLOSE[lang]
    doc = pymupdf.open()
    page = new_page(doc)
    page.insert_font(fontname="mono", fontfile=_MONO)
    page.insert_font(fontname="monob", fontfile=_MONO_BOLD)
    bold = "monob" if face == "mono" else "bold"
    page.insert_text((60, 80), "Quarterly figures by site 2020", fontsize=16, fontname=bold)
    page.insert_text((60, 140), "Values are rounded; totals may differ slightly from the sum of the rows "
                     "and were checked by the team.", fontsize=size, fontname=face)
    for i, row in enumerate(rows):
        y = 170 + 15.6 * i
        for c, (x, text) in enumerate(zip(xs, row, strict=True)):
            page.insert_text((x, y), text, fontsize=size, fontname=face)
            if c + 1 < len(xs):  # the space between two fields, as the row's one string prints it
                page.insert_text((x + _advance(text, size, face), y), " ", fontsize=size, fontname=face)
    if caption:
        page.insert_text((42, 205), caption, fontsize=size, fontname=bold)
    page.insert_text((60, 230), "Sites opened during the year are included from their first full month.",
                     fontsize=size, fontname=face)
    doc.save(tmp_path / "close.pdf")
    (t,) = tables_of(tmp_path / "close.pdf")
    assert t.columns == ("", "", "", "")
    assert [list(r) for r in t.rows] == rows


_IPA = {"gothic": "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
        "pgothic": "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf"}
PLAIN = {"ja": ([["電話番号", "2026年8月8日", "件名", "鹿児島"], ["住所", "大阪", "見積番号", "盛岡 76"]],
                "表1：施設別四半期実績", ("gothic", "pgothic"), (54, 94, 156.2, 196.2)),
         "en": ([["Phone", "127-5920", "Valid until", "Maple Court"], ["Quote no.", "676-9792", "Date", "976-9271"]],
                "Table 1 Quarterly figures by site", ("sans", "sans"), (54, 110, 180, 240))}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_two_rows_of_plain_fields_with_a_caption_under_them_are_a_table(tmp_path: Path, lang: str) -> None:
    """The same kind of rows with no key printed as one (plain keys, in their own face or
    not), starting level four times in both rows, and the caption under them: the caption
    says they are a table (issue 13, zoo dev9 headerless_kv-159-ja)."""
    rows, caption, faces, xs = PLAIN[lang]
    doc = pymupdf.open()
    page = new_page(doc)
    for name, file in _IPA.items():
        page.insert_font(fontname=name, fontfile=file)
    put(page, 50, 70, "1. Overview", 14, "bold")
    put(page, 50, 110, INTRO, 8)
    for i, row in enumerate(rows):
        for c, (x, text) in enumerate(zip(xs, row, strict=True)):
            page.insert_text((x, 170 + 15 * i), text, fontsize=8, fontname=faces[c % 2])
    page.insert_text((50, 202), caption, fontsize=9.5, fontname="gothic" if lang == "ja" else "bold")
    put(page, 50, 228, AFTER, 9)
    doc.save(tmp_path / "plain.pdf")
    (t,) = tables_of(tmp_path / "plain.pdf")
    assert [list(r) for r in t.rows] == rows
    assert t.caption == caption


def _blocks(path: Path) -> Path:
    """A running head, a title, then two blocks of fields side by side (bold keys, a rule under
    each field): the left one three fields, its first value wrapped onto two lines, the right
    one two fields; a ruled table under them."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 40, "Internal", 7)
    put(page, 72, 95, "Headcount and budget 2024", 16, "serif")
    left = [("Address", ["Harbor View 6", "51093 Maple Court"]), ("Quote no.", ["$673,064"]),
            ("Phone", ["$564,306"])]
    y = 123.0
    for key, values in left:
        # the key "Quote no." runs up to its value: the text layer reads them as one line
        put(page, 75, y, key, 10.5, "bold")
        for k, v in enumerate(values):
            put(page, 140, y + 14 * k, v, 10.5, "serif")
        y += 14 * len(values) + 8
        page.draw_line((72, y - 6), (242, y - 6), width=0.5)
    for i, (key, value) in enumerate([("Date", "178-6103"), ("Project", "Bay Point")]):
        put(page, 312, 123 + 19 * i, key, 7, "bold")
        put(page, 358, 123 + 19 * i, value, 7, "serif")
        page.draw_line((310, 129 + 19 * i), (410, 129 + 19 * i), width=0.5)
    put(page, 72, 300, "This section summarises the main results and compares them with the previous year.", 9)
    doc.save(path)
    return path


def test_two_blocks_of_fields_under_a_title_and_a_running_head_are_two_tables(tmp_path: Path) -> None:
    """The running head over the title is none of the blocks', a wrapped value line is its
    field's: the left block is three fields, the right one two."""
    tables = sorted(tables_of(_blocks(tmp_path / "blocks.pdf")), key=lambda t: t.regions[0].bbox[0])
    assert [t.columns for t in tables] == [("", ""), ("", "")]
    assert [[list(r) for r in t.rows] for t in tables] == [
        [["Address", "Harbor View 6 51093 Maple Court"], ["Quote no.", "$673,064"], ["Phone", "$564,306"]],
        [["Date", "178-6103"], ["Project", "Bay Point"]]]



def _segments(texts: list[str], y: float, xs: tuple[float, ...] = (63, 150, 320, 400)) -> list[TextLine]:
    return [TextLine(page=1, bbox=(x, y, x + 5.0 * len(t), y + 9), text=t, font_size=8)
            for x, t in zip(xs, texts, strict=True)]


def test_rows_whose_keys_would_be_figures_are_no_plain_fields() -> None:
    """Two rows starting level four times over a caption are fields only while the first of
    each pair, the key, is words: a table's last two rows of figures (a name, two amounts, a
    date) on a new page over the table's caption are its continuation (issue 13, zoo dev10
    long_single_header: they were read as a table of their own and took the caption)."""
    fields = [_segments(["Phone", "127-5920", "Valid until", "Maple Court"], 64),
              _segments(["Quote no.", "676-9792", "Date", "976-9271"], 82)]
    figures = [_segments(["Millbrook plant 2708", "811,227", "977,087", "2022-03-28"], 64),
               _segments(["Elm Street plant 8143", "320,948", "476,092", "2025-07-20"], 82)]
    assert level_fields(fields)
    assert not level_fields(figures)

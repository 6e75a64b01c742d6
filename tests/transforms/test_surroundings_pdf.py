"""A table's header, caption and section read from generated PDFs (issue 13 item 3).

Each layout is drawn with PyMuPDF, extracted by the real PyMuPDF layer and text layer, and
assembled: the assertions are the column names, captions and section paths a reader sees.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import ChunkConfig
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput, PageInfo, Table
from rowkeeper.transforms.text_chunks import chunk_text
from tests.transforms import surroundings_docs as docs
from tests.transforms.pdf_docs import tables_of


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_spanner_labels_fold_over_their_sub_columns(tmp_path: Path, lang: str) -> None:
    caption, stub, groups, subs, key = docs.SPANNERS[lang]
    (t,) = tables_of(docs.spanner_table(tmp_path / "s.pdf", lang))
    assert t.columns == (stub, *(f"{g} {s}" for g in groups for s in subs))
    assert len(t.rows) == 5 and t.rows[0][0] == f"{key} 1"
    assert t.caption == caption


@pytest.mark.parametrize("lang", ["en", "de"])
def test_spanner_centred_over_three_sub_columns_heads_all_three(tmp_path: Path, lang: str) -> None:
    # the label's text falls in the middle sub-column; spreading it rightwards would be wrong
    _, stub, groups, subs, _ = docs.SPANNERS[lang]
    subs = subs + [docs.THIRD_SUB[lang]]
    (t,) = tables_of(docs.spanner_table(tmp_path / "s.pdf", lang, gap=12, n_subs=3))
    assert t.columns == (stub, *(f"{g} {s}" for g in groups for s in subs))


def test_spanner_groups_far_apart_stay_one_table(tmp_path: Path) -> None:
    (t,) = tables_of(docs.spanner_table(tmp_path / "s.pdf", "en", gap=90))
    assert t.columns == ("Model", "BLEU EN-DE", "BLEU EN-FR", "TER EN-DE", "TER EN-FR")


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
@pytest.mark.parametrize("ruled", [False, True])
def test_wrapped_header_cells_with_units_are_one_name(tmp_path: Path, lang: str, ruled: bool) -> None:
    caption, heads, names = docs.WRAPPED[lang]
    (t,) = tables_of(docs.wrapped_header_table(tmp_path / "w.pdf", lang, ruled))
    cjk = lang == "ja"
    assert t.columns == tuple(("" if cjk else " ").join(h) for h in heads)  # lines joined as lines
    assert [r[0] for r in t.rows] == names
    assert t.caption == caption  # the caption right above is no header row


@pytest.mark.parametrize("ruled", [False, True])
def test_unit_under_one_column_names_that_column_only(tmp_path: Path, ruled: bool) -> None:
    # the header's last row stands over the body: its lone unit is no group label over the
    # columns of figures beside it
    (t,) = tables_of(docs.unit_under_last_column(tmp_path / "u.pdf", ruled))
    assert t.columns == ("Site", "Lead time", "Output", "Volume (m3)")
    assert len(t.rows) == 8 and t.rows[0][0] == "Harbour depot 1"


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_headerless_key_value_table_keeps_empty_names(tmp_path: Path, lang: str) -> None:
    _, rows = docs.KEY_VALUE[lang]
    (t,) = tables_of(docs.key_value_table(tmp_path / "kv.pdf", lang))
    assert t.header_rows == 0 and t.columns == ("", "")
    assert [list(r) for r in t.rows] == rows


def test_letter_spaced_cjk_labels_lose_their_spaces(tmp_path: Path) -> None:
    (t,) = tables_of(docs.letter_spaced_table(tmp_path / "ls.pdf"))
    assert t.columns == ("施設種類", "定員", "所在地")
    assert [r[0] for r in t.rows] == ["保育所", "幼稚園", "児童館", "Day care center"]


def test_letter_spaced_cjk_units_lose_their_spaces(tmp_path: Path) -> None:
    # a unit after a CJK label is spaced like the label; a Latin label keeps its spaces
    (t,) = tables_of(docs.letter_spaced_units_table(tmp_path / "lu.pdf"))
    assert t.columns == ("品目", "重量[kg]", "費用(千円)", "Volume [m 3]")
    assert [r[0] for r in t.rows] == ["部品A", "部品B", "部品C"]
    # the header cells say what the names say (tables.jsonl holds both)
    assert [c.text for c in sorted(t.cells, key=lambda c: c.col) if c.is_header] == list(t.columns)


def test_letter_spaced_years_and_codes_lose_their_spaces(tmp_path: Path) -> None:
    # a header set letter by letter (均等割付): the years and codes in it too
    doc = pymupdf.open()
    pg = docs.Page(doc)
    pg.text(docs.LEFT, 60, "売上推移", 14, True)
    rows = [["品 目", "2 0 2 4", "2 0 2 5", "Q 1"], ["部品A", "1,200", "1,350", "12"],
            ["部品B", "950", "1,010", "10"], ["部品C", "2,480", "2,600", "1 0"]]
    docs.ruled_grid(pg, 90, rows, [100, 90, 90, 60], bold_first=True)
    (t,) = tables_of(docs._save(doc, tmp_path / "years.pdf"))
    assert t.columns == ("品目", "2024", "2025", "Q1")
    assert [r[3] for r in t.rows] == ["12", "10", "1 0"]  # two figures in a cell stay apart


@pytest.mark.parametrize("below", [False, True])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_stacked_tables_each_get_their_own_caption(tmp_path: Path, below: bool, lang: str) -> None:
    tables = tables_of(docs.stacked_tables(tmp_path / "st.pdf", below, lang))
    assert [t.rows[0][0] for t in tables] == ["Item 1.1", "Item 2.1"]
    assert [t.caption for t in tables] == (
        {"en": ["Table 1 Income", "Table 2 Expenses"], "ja": ["表1 収入", "表2 支出"]}[lang])


@pytest.mark.parametrize(("below", "bare"), [(True, 1), (False, 0)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_caption_between_stacked_tables_goes_to_the_nearer(tmp_path: Path, below: bool, bare: int,
                                                            lang: str) -> None:
    # one caption, under the upper table and over the lower one: no other caption shows the
    # document's side, so the table it is set closer to takes it (a caption hugs its table)
    tables = tables_of(docs.stacked_tables(tmp_path / "st.pdf", below, lang, bare))
    assert [t.rows[0][0] for t in tables] == ["Item 1.1", "Item 2.1"]
    caption = {"en": ["Table 1 Income", "Table 2 Expenses"], "de": ["Tabelle 1 Einnahmen", "Tabelle 2 Ausgaben"]}
    expected: list[str | None] = list(caption[lang])
    expected[bare] = None
    assert [t.caption for t in tables] == expected


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_captions_in_the_top_margin_of_two_pages_name_their_tables(tmp_path: Path, lang: str) -> None:
    # the same caption title atop two pages, numbers apart, is no running header
    tables = tables_of(docs.captions_atop_pages(tmp_path / "cap.pdf", lang))
    assert [t.columns[0] for t in tables] == ["Site", "Depot"]
    title = {"en": ["Table 1: Costs by site", "Table 2: Costs by site"], "ja": ["表1：施設別実績", "表2：施設別実績"]}
    assert [t.caption for t in tables] == title[lang]


def test_a_caption_under_the_tables_notes_is_its_caption(tmp_path: Path) -> None:
    tables = tables_of(docs.notes_over_captions(tmp_path / "notes.pdf"))
    assert [t.columns[0] for t in tables] == ["Item", "Cost"] and [len(t.rows) for t in tables] == [4, 4]
    assert [t.caption for t in tables] == ["Table 1: Results by item", "Table 2: Results by item"]
    assert [t.footnotes for t in tables] == [
        ("Note: figures in EUR thousand, rounded; totals may differ from the sum of the rows.",)] * 2


def test_a_forms_bold_label_beside_its_value_is_no_heading(tmp_path: Path) -> None:
    # 'Contact  320-9395': bold at body size, but a value stands beside it on its line
    path = docs.form_over_table(tmp_path / "form.pdf")
    (t,) = tables_of(path)
    assert t.columns == ("Item", "Qty", "Price") and len(t.rows) == 3
    assert t.section_path == ("Quote 2026",)
    assert all(p == ["Quote 2026"] for p, _ in _text_chunks(path, (t,)))


def _text_chunks(path: Path, tables: tuple[Table, ...]) -> list[tuple[list[str], str]]:
    import pymupdf

    from rowkeeper.extractors.text_layer import read_lines

    doc = DocumentInput(path=str(path), source=str(path), doc_id=sha256_file(path))
    with pymupdf.open(path) as pdf:
        info = [PageInfo(page=i + 1, kind="text", chars=1, image_coverage=0.0,
                         width=p.rect.width, height=p.rect.height) for i, p in enumerate(pdf)]
    lines = read_lines(doc, [p.page for p in info])
    chunks = chunk_text(doc.doc_id, doc.source, lines, list(tables), ChunkConfig(), pages=info)
    return [(c.metadata["section_path"], c.text) for c in chunks]


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_section_path_is_the_heading_right_above_each_table(tmp_path: Path, lang: str) -> None:
    heads, prose = docs.SECTIONS[lang]
    path = docs.sections_over_tables(tmp_path / "sec.pdf", lang)
    tables = tables_of(path)
    assert [t.section_path for t in tables] == [(h,) for h in heads]
    assert [t.columns for t in tables] == [("Posten", "2025", "2026")] * 2
    assert [len(t.rows) for t in tables] == [4, 4]
    # the prose after each table is under the same heading: one heading rule for both
    assert [(p, t.split("\n")[-1]) for p, t in _text_chunks(path, tables)] == [
        ([h], prose) for h in heads]


def test_caption_under_the_last_page_of_a_long_table(tmp_path: Path) -> None:
    from samples.pdfgen import DocSpec, Heading, TableSpec, numbers_rows
    from tests.transforms.pdf_docs import write_pdf

    spec = DocSpec(blocks=[Heading("1. Inventory"), TableSpec(
        header=[["Part", "Price", "Count"]], rows=numbers_rows(70, seed=3), repeat_header=True,
        caption="Table 7 Parts in stock", caption_below=True)])
    (t,) = tables_of(write_pdf(spec, tmp_path / "long.pdf"))
    assert len(t.pages) >= 2 and len(t.rows) == 70
    assert t.caption == "Table 7 Parts in stock"

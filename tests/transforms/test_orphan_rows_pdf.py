"""The last rows of a long table alone at the top of the next page (one row under a repeated
header, or one row with prose under it) are too few for a finder: they are read back in the
table's columns and merged into it (transforms/orphan_rows); a page that opens with prose
adds nothing."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from tests.extractors.finder.layout import new_page, put, width

HEADER = ("Site", "Category", "Weight (kg)", "Budget (EUR)")
RIGHTS = (0.0, 360.0, 480.0)
FULL = 40
PROSE = ("Values are rounded; totals may differ slightly from the sum of the rows. The figures below cover",
         "the reporting period and were checked by the controlling team before publication.")


def _rows(n: int) -> list[tuple[str, ...]]:
    return [(f"Harbor View plant {100 + i}", ("Line", "Depot", "Store")[i % 3], f"{3 + i * 7 % 90},{i % 10}31",
             f"{(i * 7919) % 900 + 100}.{i % 9}50 €") for i in range(n)]


def _row(page: pymupdf.Page, y: float, row: tuple[str, ...], face: str = "sans") -> None:
    put(page, 60, y, row[0], 9, face)
    put(page, 200, y, row[1], 9, face)
    for text, x in zip(row[2:], RIGHTS[1:], strict=True):
        put(page, x, y, text, 9, face, "right")


def _document(path: Path, last: int, repeat: bool, prose_first: bool = False) -> list[tuple[str, ...]]:
    """A table filling page 1 and `last` rows on page 2; the body rows written."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "Operating costs 2024", 16, "bold")
    put(page, 60, 90, "Table 1: Costs per site", 9, "bold")
    _row(page, 110, HEADER, "bold")
    body = _rows(FULL + last)
    y = 126.0
    for row in body[:FULL]:
        _row(page, y, row)
        y += 15
    put(page, 300, 820, "1", 8)
    page = new_page(doc)
    y = 50.0
    if prose_first:
        for ln in PROSE:
            put(page, 60, y, ln, 9)
            y += 12
        y += 10
    if repeat:
        _row(page, y, HEADER, "bold")
        y += 16
    for row in body[FULL:]:
        _row(page, y, row)
        y += 15
    for ln in () if prose_first else PROSE:
        put(page, 60, y + 12, ln, 9)
        y += 12
    put(page, 300, 820, "2", 8)
    doc.save(path)
    return body


@pytest.mark.parametrize("repeat", [False, True])
def test_one_row_left_at_the_top_of_the_next_page_joins_its_table(tmp_path: Path, repeat: bool) -> None:
    path = tmp_path / "orphan.pdf"
    body = _document(path, 1, repeat)
    (table,) = rowkeeper.extract(path).tables
    assert table.columns == HEADER
    assert list(table.pages) == [1, 2]
    assert [tuple(r) for r in table.rows] == body


def test_a_page_opening_with_prose_adds_no_rows(tmp_path: Path) -> None:
    """Prose under the running text of the next page is no row: the table keeps page 1's rows
    (the rows under the prose are a table of their own or nothing, never rows of page 1's)."""
    path = tmp_path / "prose.pdf"
    body = _document(path, 1, False, prose_first=True)
    tables = rowkeeper.extract(path).tables
    assert [tuple(r) for r in tables[0].rows] == body[:FULL]
    assert list(tables[0].pages) == [1]


MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
LABELS = ("Telephely", "Régió", "Teljesítmény", "Térfogat", "Egységár", "Szállítási idő", "Árrés")
EDGES = (314.9, 372.1, 423.6, 509.4, 549.5)  # the right edges of the figure columns


def _mono_row(page: pymupdf.Page, y: float, row: tuple[str, ...], face: str = "mono") -> None:
    """A row in DejaVu Sans Mono (`face` "monob": bold): two left-aligned columns, then
    figures right-aligned at EDGES."""
    page.insert_text((62.5, y), row[0], fontsize=9.5, fontname=face)
    page.insert_text((205.5, y), row[1], fontsize=9.5, fontname=face)
    for text, x in zip(row[2:], EDGES, strict=True):
        page.insert_text((x - pymupdf.Font(fontfile=MONO).text_length(text, 9.5), y), text, fontsize=9.5, fontname=face)


def _mono_page(doc: pymupdf.Document) -> pymupdf.Page:
    page = new_page(doc, 612, 792)
    page.insert_font(fontname="mono", fontfile=MONO)
    page.insert_font(fontname="monob", fontfile=MONO.replace("Mono.ttf", "Mono-Bold.ttf"))
    return page


def test_a_monospaced_tables_last_row_under_its_header_joins_it(tmp_path: Path) -> None:
    """A monospaced table whose labels, right-aligned over figures, are wider than the figures
    and set a character apart: repeated over the last row on the next page, the labels print
    as one line across three columns and one reaches into the column before; the row's last
    two figures, a character apart, print as one line too. The header row is passed over as
    the table's header, and each line across columns is read in its parts there."""
    doc = pymupdf.open()
    body = [(f"Vörösfenyő bolt {1000 + 37 * i}", ("Sor", "Iroda", "Egység")[i % 3], f"{800 + i} {540 + i}",
             f"{41 + i} 936,{i % 10}", f"{300 + i} 390", f"{24 + i} 108,{i % 9}", f"{40 + i % 50},0 %") for i in range(41)]
    page = _mono_page(doc)
    page.insert_text((60, 60), "2. táblázat. Negyedéves adatok", fontsize=9.5, fontname="mono")
    _mono_row(page, 90, LABELS, "monob")
    for i, row in enumerate(body[:-1]):
        _mono_row(page, 107 + 15.5 * i, row)
    page = _mono_page(doc)
    _mono_row(page, 70, LABELS, "monob")
    _mono_row(page, 87, body[-1])
    page.insert_text((60, 118), "Az év közben nyitott telephelyek az első teljes hónaptól szerepelnek.",
                     fontsize=11, fontname="mono")
    path = tmp_path / "mono.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:  # the layout this test is about: those lines print as one
        texts = ["".join(s["text"] for s in ln["spans"]) for b in pdf[1].get_text("dict")["blocks"] for ln in b.get("lines", [])]
        assert "Térfogat Egységár Szállítási idő" in texts and any(t.endswith(" %") and " " in t[:-2] for t in texts)
    (table,) = rowkeeper.extract(path).tables
    assert table.columns == LABELS
    assert list(table.pages) == [1, 2]
    assert [tuple(r) for r in table.rows] == body


def test_a_line_across_columns_parts_only_into_figures() -> None:
    """Figures set close part at the columns (`orphan_rows._parts`); a heading or a sentence
    across the columns stays whole, however its words fall in them."""
    from rowkeeper.models import TextLine
    from rowkeeper.transforms.orphan_rows import _parts

    extents = [(60.0, 200.0), (205.0, 300.0), (305.0, 400.0)]
    figures = TextLine(page=2, bbox=(250.0, 80.0, 340.0, 90.0), text="24 108,8 46,0 %")
    assert [p.text for p in _parts(figures, extents)] == ["24 108,8", "46,0 %"]
    heading = TextLine(page=2, bbox=(110.0, 80.0, 305.0, 90.0), text="Your Federal Student Loans")
    assert [p.text for p in _parts(heading, extents)] == ["Your Federal Student Loans"]


JA_HEADER = ("施設", "地域", "単価[円]", "重量[kg]", "日付")


def _ja_row(page: pymupdf.Page, y: float, row: tuple[str, ...], face: str = "cjk") -> None:
    """Name and region left-aligned, the figures right-aligned at 245 and 290, the date at 300."""
    put(page, 60, y, row[0], 9.5, face)
    put(page, 150, y, row[1], 9.5, face)
    put(page, 245, y, row[2], 9.5, face, "right")
    put(page, 290, y, row[3], 9.5, face, "right")
    put(page, 300, y, row[4], 9.5, face)


def test_a_cjk_label_glued_to_the_next_columns_figure_joins_its_table(tmp_path: Path) -> None:
    """The last row alone under the repeated header on page 2, its region label "センター"
    wide enough to touch the figure right-aligned in the next column: CJK sets no space, so
    the text layer reads "センター793,879" as one word across two columns. Where a word lies
    across columns it parts where a figure starts after a full-width glyph."""
    body = [(f"大阪倉庫 {1000 + 37 * i}", ("事務所", "店舗", "工場")[i % 3], f"{(i * 7919) % 900 + 100},{i % 9}50",
             f"{(i * 104729) % 900 + 100},{i % 7}31", f"2024年{i % 12 + 1}月{i % 27 + 1}日") for i in range(FULL)]
    last = ("神戸支店 9842", "センター", "793,879", "929,854", "2019年10月19日")
    path = tmp_path / "glued.pdf"
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "主要指標 2023", 16, "cjk")
    put(page, 60, 90, "表2：取引先一覧", 9.5, "cjk")
    _ja_row(page, 110, JA_HEADER)
    for i, row in enumerate(body):
        _ja_row(page, 126.0 + 17 * i, row)
    page = new_page(doc)
    _ja_row(page, 50, JA_HEADER)
    y = 67.0
    put(page, 60, y, last[0], 9.5, "cjk")
    put(page, 150, y, last[1], 9.5, "cjk")
    put(page, 150 + width(last[1], 9.5, "cjk") + 0.3, y, last[2], 9.5, "cjk")
    put(page, 290, y, last[3], 9.5, "cjk", "right")
    put(page, 300, y, last[4], 9.5, "cjk")
    put(page, 60, y + 30, "以下の数値は報告期間を対象とし、管理部門が確認したものである。", 9.5, "cjk")
    doc.save(path)
    assert any("センター793,879" in w[4] for w in pymupdf.open(path)[1].get_text("words"))
    (table,) = rowkeeper.extract(path).tables
    assert table.columns == JA_HEADER
    assert [tuple(r) for r in table.rows] == [*body, last]

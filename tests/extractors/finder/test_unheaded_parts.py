"""A code before a name in one headed cell ("2475 North depot") set in a monospaced face: the
names line up like a column and their word space is as wide as a column gap, but no header
stands over them, so the cell stays whole (`projection.join_unheaded`). A code column with a
header of its own, and a table with no header row, keep their columns."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.projection import join_unheaded
from tests.extractors.finder.layout import grids
from tests.transforms.pdf_docs import tables_of

SITES = ["North depot", "Kanazawa centre", "Elm Street line", "Harbor View plant", "Oak Lane office"]
CODES = ["2475", "1637", "1278", "9522", "5196"]
SCORES = ["816,250", "343,695", "831,870", "411,479", "968,819"]
SHARES = ["63.2%", "39.3%", "72.5%", "96.0%", "6.5%"]


def _put(page: pymupdf.Page, x: float, y: float, text: str, right: bool = False, size: float = 9) -> None:
    if right:
        x -= pymupdf.get_text_length(text, fontname="cour", fontsize=size)
    page.insert_text((x, y), text, fontsize=size, fontname="cour")


def _page(header: list[str] | None, code_column: bool) -> pymupdf.Document:
    """Rows of 'code name | score | share' in Courier, the code and the name one space apart
    (`code_column`: the name starts a column gap later, under a header of its own)."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 120.0
    if header:
        for x, text, right in zip((66, 250, 330), header, (False, True, True), strict=False):
            _put(page, x, y, text, right)
        if code_column:
            _put(page, 100, y, header[3])
        y += 17.5
    for code, site, score, share in zip(CODES, SITES, SCORES, SHARES, strict=True):
        _put(page, 66, y, code)
        _put(page, 100 if code_column else 66 + 5 * 5.4, y, site)
        _put(page, 250, y, score, True)
        _put(page, 330, y, share, True)
        y += 17.5
    return doc


def test_a_code_and_a_name_under_one_header_are_one_cell(tmp_path: Path) -> None:
    (grid,) = grids(_page(["Site", "Score", "Share"], False), tmp_path / "one.pdf")
    assert grid[0] == ["Site", "Score", "Share"]
    assert grid[1] == ["2475 North depot", "816,250", "63.2%"]
    assert len(grid) == 6


def test_a_code_column_with_its_own_header_stays(tmp_path: Path) -> None:
    (grid,) = grids(_page(["No.", "Score", "Share", "Site"], True), tmp_path / "two.pdf")
    assert grid[0] == ["No.", "Site", "Score", "Share"]
    assert grid[1] == ["2475", "North depot", "816,250", "63.2%"]


@pytest.mark.parametrize("caption", ["1. táblázat. Szállítói áttekintés", "Table 4 Scores by site and share",
                                     "Tabelle 1 Standortübersicht"])
def test_a_caption_in_the_tables_monospaced_face_heads_no_column(tmp_path: Path, caption: str) -> None:
    """The caption right over the header row, in the table's own monospaced face and size: its
    words stand a space apart, as wide as a column gap, and run over the boundaries, each word
    taken for a label would head the names' column. It is one string (one and the same space
    between its words, three of them enough), so the code and the name stay one cell."""
    doc = _page(["Site", "Score", "Share"], False)
    _put(doc[0], 63, 102.5, caption)
    (grid,) = grids(doc, tmp_path / "captioned.pdf")
    assert grid[-5] == ["2475 North depot", "816,250", "63.2%"]
    assert [r[0] for r in grid[-5:]] == [f"{c} {s}" for c, s in zip(CODES, SITES, strict=True)]


@pytest.mark.parametrize("caption", ["Table 4: Sites", "Tabelle 1: Standorte", "1. táblázat: Telephelyek"])
@pytest.mark.parametrize("face", ["cour", "helv"])
def test_a_short_caption_over_the_header_heads_no_column(tmp_path: Path, caption: str, face: str) -> None:
    """A caption of a few words right over the header row, set a little left of the table (a
    stacked table's own caption), runs over the one boundary between the codes and the names
    only: a word of it starting over the names would head their column, so the code and its
    name would part. A line that reads as a caption names no column, in a monospaced face or a
    proportional one (issue 13, zoo dev13 stacked-222-de: `Tabelle 1: Wartungsplan` over
    `7498 Buchenallee Filiale`)."""
    doc = _page(["Site", "Score", "Share"], False)
    doc[0].insert_text((63, 102.5), caption, fontsize=9, fontname=face)
    (grid,) = grids(doc, tmp_path / "short-caption.pdf")
    assert grid[-5] == ["2475 North depot", "816,250", "63.2%"]
    assert [r[0] for r in grid[-5:]] == [f"{c} {s}" for c, s in zip(CODES, SITES, strict=True)]


def test_a_table_under_its_caption_alone_keeps_its_columns(tmp_path: Path) -> None:
    """No header row, only a caption over the rows: the caption is no header, and a table with
    no header row keeps the codes and the names apart."""
    doc = _page(None, False)
    doc[0].insert_text((63, 102.5), "Table 4: Sites", fontsize=9, fontname="cour")
    (grid,) = grids(doc, tmp_path / "caption-only.pdf")
    assert grid[-5] == ["2475", "North depot", "816,250", "63.2%"]


@pytest.mark.parametrize("header", [None])
def test_a_table_with_no_header_keeps_its_columns(tmp_path: Path, header: list[str] | None) -> None:
    (grid,) = grids(_page(header, False), tmp_path / "none.pdf")
    assert grid[0] == ["2475", "North depot", "816,250", "63.2%"]


def _words(line: list[tuple[float, float, str]], y: float) -> list[tuple]:
    """Word tuples of one printed line: (left, right, text) each, 9 points high."""
    return [(a, y, b, y + 9, t, 0, 0, 0) for a, b, t in line]


def test_a_label_set_right_over_the_next_column_heads_that_column_only() -> None:
    """A code and a name under "Artikel", then a share column whose label "Anteil [%]",
    right-aligned over its figures, is wider than they are and starts left of the boundary
    between the names and the shares: it heads the shares, and the code stays with its name."""
    head = _words([(74, 103, "Artikel"), (175, 200, "Anteil"), (204, 217, "[%]"), (230, 259, "Wert")], 100)
    body = [w for i, (code, name) in enumerate([("4161", "Hafenkai"), ("4028", "Buchenallee"),
                                                 ("5557", "Auwald"), ("6129", "Waldstraße")])
            for w in _words([(74, 91, code), (95, 95 + 5 * len(name), name), (192, 217, f"{i}0,0"),
                             (235, 259, "282.677")], 114 + 13 * i)]
    seps = [93.0, 181.0, 223.0]
    assert join_unheaded(head + body, seps) == [181.0, 223.0]
    # the label left-aligned over the codes heads their column: the name column keeps no label
    head = _words([(74, 110, "Telephely"), (175, 200, "Anteil"), (204, 217, "[%]"), (230, 259, "Wert")], 100)
    assert join_unheaded(head + body, seps) == [181.0, 223.0]
    # a label of its own over the names keeps their column
    head = _words([(74, 90, "Nr."), (95, 115, "Name"), (175, 200, "Anteil"), (204, 217, "[%]"),
                   (230, 259, "Wert")], 100)
    assert join_unheaded(head + body, seps) == seps


@pytest.mark.parametrize("spanner", [True, False])
def test_a_header_of_years_heads_the_figures_not_the_names(tmp_path: Path, spanner: bool) -> None:
    """"Location 2022 2023" (under "Score" over both years, or alone): a line of years is a
    header line, not a first row of figures, though its words are mostly numbers; the names
    under "Location" have no header label of their own, so the code stays with its name."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 120.0
    if spanner:
        _put(page, 240, y, "Score")
        y += 13.0
    for x, text, right in ((66, "Location", False), (250, "2022", True), (330, "2023", True)):
        _put(page, x, y, text, right)
    # ten rows: one line in ten (the header's, its label over the names' word space) may cross
    # a gap of the projection
    for code, site, score, share in zip(CODES * 2, SITES * 2, SCORES * 2, SCORES[::-1] * 2, strict=True):
        y += 17.5
        _put(page, 66, y, f"{code} {site}")
        _put(page, 250, y, score, True)
        _put(page, 330, y, share, True)
    grid = grids(doc, tmp_path / "years.pdf")[0]
    assert grid[-11][0] == "Location"
    assert grid[-10] == ["2475 North depot", "816,250", "968,819"]



@pytest.mark.parametrize("periods", [("Q1", "Q2"), ("H1", "H2"), ("1Q", "2Q"), ("Q1/24", "Q2/24"),
                                     ("Q1'24", "Q2'24"), ("1H23", "2H23"), ("FY23", "FY24"), ("2024e", "2025e")])
def test_a_header_of_quarters_under_spanners_heads_the_figures_not_the_names(tmp_path: Path,
                                                                              periods: tuple[str, str]) -> None:
    """"Location Q1 Q2 Q1 Q2" under two spanners ("Score", "Share"), each centred over its two
    columns: a line of periods (quarters, halves, fiscal years, maybe of a year) is a header
    line like a line of years, not a first row of figures (`figure_words.header_line_count`),
    and no code (`headers.reads_as_data`); the names under "Location" have no label of their
    own, so the code stays with its name, and the columns fold to "Score Q1" .. "Share Q2"
    (issue 13, zoo dev12 spanner-204-ja: `施設 Q1 .. Q4` under `人数`, `評点`, `数量`)."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 120.0
    _put(page, 275 - 13.5, y, "Score")
    _put(page, 435 - 13.5, y, "Share")
    y += 13.0
    xs = (250, 330, 410, 490)
    for x, text, right in ((66, "Location", False), *((x, p, True) for x, p in zip(xs, periods * 2, strict=True))):
        _put(page, x, y, text, right)
    for i, (code, site) in enumerate(zip(CODES * 2, SITES * 2, strict=True)):
        y += 17.5
        _put(page, 66, y, f"{code} {site}")
        for k, x in enumerate(xs):
            _put(page, x, y, SCORES[(i + k) % 5], True)
    path = tmp_path / "quarters.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    a, b = periods
    assert t.columns == ("Location", f"Score {a}", f"Score {b}", f"Share {a}", f"Share {b}")
    assert [r[0] for r in t.rows] == [f"{c} {s}" for c, s in zip(CODES * 2, SITES * 2, strict=True)]
    assert t.rows[0][1:] == ("816,250", "343,695", "831,870", "411,479")


_MINCHO = "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf"


@pytest.mark.parametrize("prose", [True, False])
def test_a_short_tables_name_and_code_under_one_header_are_one_cell(tmp_path: Path, prose: bool) -> None:
    """A header and two rows under a paragraph, set in IPA Mincho (fixed width), names of one
    length each with its code a space after it ("広島工場 6732" over "長野倉庫 1808"): two body
    lines are enough, the header names every column of its own and none over the codes (issue
    13, zoo dev11 borderless_prose-196-ja)."""
    rows = [("広島工場 6732", "166,951", "83,054.58"), ("長野倉庫 1808", "616,066", "38,982.56")]
    mincho = pymupdf.Font(fontfile=_MINCHO)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="mincho", fontfile=_MINCHO)

    def put(x: float, y: float, text: str, right: bool = False) -> None:
        x -= mincho.text_length(text, fontsize=8.5) if right else 0.0
        page.insert_text((x, y), text, fontsize=8.5, fontname="mincho")

    if prose:
        put(50, 390, "数値は四捨五入しているため、合計が各行の和と一致しない場合がある。費用には保守を含む。")
    for x, text, right in zip((53, 148.2, 196.8), ("施設", "数量(個)", "予算(千円)"), (False, True, True), strict=True):
        put(x, 413.5, text, right)
    for i, row in enumerate(rows):
        for x, text, right in zip((53, 148.2, 196.8), row, (False, True, True), strict=True):
            put(x, 431 + 17.6 * i, text, right)
    if prose:
        put(50, 475.5, "数値は四捨五入しているため、合計が各行の和と一致しない場合がある。")
    (grid,) = grids(doc, tmp_path / "short.pdf")
    assert grid == [["施設", "数量(個)", "予算(千円)"], *[list(r) for r in rows]]


JA_ROWS = [("静岡事務所 4018", "46,859.16", "¥4,816,766", "682,595"), ("福岡倉庫 3528", "59,987.10", "¥7,548,714", "316,586"),
           ("福岡工場 4206", "65,489.38", "¥8,858,496", "802,684"), ("仙台センター 6352", "25,256.1", "¥2,622,572", "223,152"),
           ("大阪倉庫 1274", "67,663.2", "¥7,584,796", "534,648")]


def test_two_japanese_labels_read_as_one_word_head_both_columns(tmp_path: Path) -> None:
    # a narrow table (a page column of a two-column page): figures four points apart, and the
    # labels `費用` and `数量(個)` printed with no space between them, which the text layer reads
    # as one word `費用数量(` over the boundary: it heads both columns, so they stay apart
    from tests.extractors.finder.layout import new_page, put, width

    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 90, "設備費用の内訳", 11, "cjk")
    money = 200.0 + width("¥8,858,496", 8, "cjk")
    rights = (196.0, money, money + 4 + width("802,684", 8, "cjk"))
    y = 120.0
    put(page, 60, y, "品目", 8, "cjk")
    put(page, rights[0], y, "容積(m3)", 8, "cjk", align="right")
    put(page, money, y, "費用", 8, "cjk", align="right")
    put(page, money + 0.2, y, "数量(個)", 8, "cjk")
    for row in JA_ROWS:
        y += 13
        put(page, 60, y, row[0], 8, "cjk")
        for x, text in zip(rights, row[1:], strict=True):
            put(page, x, y, text, 8, "cjk", align="right")
    put(page, 60, y + 30, "金額は税抜きです。", 9, "cjk")
    doc.save(tmp_path / "ja.pdf")
    (table,) = tables_of(tmp_path / "ja.pdf")
    assert list(table.columns) == ["品目", "容積(m3)", "費用", "数量(個)"]
    assert [tuple(r) for r in table.rows] == JA_ROWS




CODED = [("6088", "Northgate", ["Calibration of the", "loading bay shutter"], ("72.3%", "847,156")),
         ("4962", "Elm Street", ["Inspection of the fire", "doors, as agreed"], ("58.0%", "857,126")),
         ("5093", "Bay Point", ["Cleaning of the cooling", "plant within 5 days"], ("45.0%", "612,264")),
         ("3711", "Ashford", ["Repair of the", "ventilation filters"], ("64.6%", "59,376")),
         ("7323", "Riverside", ["Delivery and set-up of", "the cooling plant"], ("61.3%", "35,807"))]


def test_a_records_key_line_over_its_figures_line_is_no_header_line(tmp_path: Path) -> None:
    # the first record's key line ("6088  Northgate" and its description's first line) stands
    # over its figures' line as a header's second line would: taken for one, its name headed
    # the names, and the code and the name (set a little wider than a word space, lined up in
    # every record) stayed two columns. The header is the lines down to the last that reaches
    # over the columns of figures.
    doc = pymupdf.open()
    page = doc.new_page()

    def put(x: float, y: float, text: str, right: bool = False) -> None:
        x -= pymupdf.get_text_length(text, fontname="helv", fontsize=8) if right else 0
        page.insert_text((x, y), text, fontsize=8, fontname="helv")

    y = 150.0
    put(60, 110, "Maintenance costs")
    for x, label, right in ((60, "Site", False), (170, "Scope", False), (360, "Share", True), (430, "Volume", True)):
        put(x, y, label, right)
    for code, name, lines, figures in CODED:
        y += 16
        put(60, y, code)
        put(60 + pymupdf.get_text_length(code, fontname="helv", fontsize=8) + 4.2, y, name)
        for k, line in enumerate(lines):
            put(170, y + 10 * k, line)
        y += 10 * (len(lines) - 1)
        for x, f in zip((360, 430), figures, strict=True):
            put(x, y, f, right=True)
    put(60, y + 30, "All amounts are stated before tax.")
    doc.save(tmp_path / "coded.pdf")
    (table,) = tables_of(tmp_path / "coded.pdf")
    assert list(table.columns) == ["Site", "Scope", "Share", "Volume"]
    assert [tuple(r) for r in table.rows] == [(f"{c} {n}", " ".join(lines), *f) for c, n, lines, f in CODED]


def test_a_currency_sign_after_the_last_amount_still_bounds_the_header(tmp_path: Path) -> None:
    # zoo dev20 wrapped_body-358-de: the lines of figures end in `7.130.696 €`; ending in no
    # figure, they showed no columns of figures, so the header ran on into the first record
    # and its name headed the names: `7701 | Talweg Halle`
    from tests.extractors.finder.layout import new_page, put, width

    doc = pymupdf.open()
    page = new_page(doc)
    y = 150.0
    put(page, 60, 110, "Maintenance costs", 8)
    for x, label, align in ((60, "Site", "left"), (170, "Scope", "left"), (360, "Share", "right"),
                            (440, "Volume", "right")):
        put(page, x, y, label, 8, align=align)
    for code, name, lines, (share, volume) in CODED:
        y += 16
        put(page, 60, y, code, 8)
        put(page, 60 + width(code, 8) + 4.2, y, name, 8)
        for k, line in enumerate(lines):
            put(page, 170, y + 10 * k, line, 8)
        y += 10 * (len(lines) - 1)
        put(page, 360, y, share, 8, align="right")
        put(page, 440, y, f"{volume} €", 8, align="right")
    put(page, 60, y + 30, "All amounts are stated before tax.", 8)
    doc.save(tmp_path / "signed.pdf")
    (table,) = tables_of(tmp_path / "signed.pdf")
    assert list(table.columns) == ["Site", "Scope", "Share", "Volume"]
    assert [tuple(r) for r in table.rows] == [(f"{c} {n}", " ".join(lines), s, f"{v} €")
                                              for c, n, lines, (s, v) in CODED]

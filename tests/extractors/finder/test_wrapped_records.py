"""Body cells wrapped over several lines (finder/wrapped_records.py, with the run and rule
readings that find such tables: text_runs.keyed_rows, _under_cell, _keyed_pair, row_rules over
rules broken at the column gaps, projection's first column): a price list whose descriptions
wrap over two to four lines, the amounts on the record's first line, its last or its middle,
borderless, ruled between rows (rules broken at the column gaps) or booktabs, is one table of
one row per record, its cells whole."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.text_runs import _cell_tail, aligned_regions
from rowkeeper.extractors.finder.wrapped_records import join_wrapped_records
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

HEADER = ("Site", "Scope of service", "Volume", "Share")
RECORDS = [("Bay Point plant 4206", ["Delivery of the water", "softener, with disposal of", "old parts"],
            ("223,687", "27.6%")),
           ("Elm Street unit 1820", ["Annual inspection of the", "water softener"], ("880,296", "34.7%")),
           ("Oak Hill store 2637", ["Monthly maintenance of", "office chairs, as agreed in", "the framework",
                                    "contract"], ("920,527", "14.9%")),
           ("Ashford depot 1494", ["Replacement of the cooling", "system"], ("39,392", "51.2%")),
           ("Riverside store 7651", ["Cleaning of the main", "switchboard, at all sites"], ("784,632", "4.8%"))]
JA_HEADER = ("施設", "内容", "数量", "予算")
JA_RECORDS = [("名古屋支店 9938", ["荷捌き場シャッターの", "交換（高所作業車は別", "途）"], ("81,797", "356,910")),
              ("盛岡センター 9777", ["冷却設備の月次保守（", "撤去品の処分を含む）"], ("69,805", "726,710")),
              ("大阪店舗 7168", ["LED天井照明の月次保", "守"], ("42,799", "398,719")),
              ("仙台工場 2286", ["事務用椅子の清掃"], ("62,221", "833,811"))]
LEFT, DESC, RIGHTS, END = 60.0, 170.0, (360.0, 430.0), 440.0
LEADING, APART = 10.5, 9.0


def _price_list(path: Path, records: list, valign: str, style: str, header=HEADER, face: str = "sans",
                desc: float = DESC) -> Path:
    """A heading, a line of prose, and the price list drawn in `style` ("none", "rows": rules
    between records broken at the column gaps, "booktabs"), amounts at `valign`; the
    descriptions from `desc`."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, LEFT, 60, "Maintenance costs" if face == "sans" else "保守費用", 14, "bold" if face == "sans" else face)
    put(page, LEFT, 84, "All amounts are stated before tax." if face == "sans" else "金額は税抜きです。", 9, face)
    y = 120.0
    put(page, LEFT, y, header[0], 8, face)
    put(page, desc, y, header[1], 8, face)
    for x, h in zip(RIGHTS, header[2:], strict=True):
        put(page, x, y, h, 8, face, align="right")
    rules = [y - 11, y + 4] if style == "booktabs" else [y + 4] if style == "rows" else []
    y += 4 + APART + 7
    for key, lines, amounts in records:
        put(page, LEFT, y, key, 8, face)
        for k, line in enumerate(lines):
            put(page, desc, y + k * LEADING, line, 8, face)
        at = {"top": 0.0, "bottom": len(lines) - 1.0, "middle": (len(lines) - 1) / 2}[valign] * LEADING
        for x, a in zip(RIGHTS, amounts, strict=True):
            put(page, x, y + at, a, 8, face, align="right")
        y += (len(lines) - 1) * LEADING + 4 + APART / 2
        if style == "rows":
            rules.append(y)
        y += APART / 2 + 7
    if style == "booktabs":
        rules.append(y - APART / 2 - 7)
    for r in rules:  # broken at the column gaps (a rule per column) where ruled between rows
        cuts = [LEFT - 3, desc - 6, desc - 3, RIGHTS[0] - 58, RIGHTS[0] - 55, RIGHTS[0] + 4, RIGHTS[0] + 7, END] \
            if style == "rows" else [LEFT - 3, END]
        for a, b in zip(cuts[::2], cuts[1::2], strict=True):
            page.draw_line((a, r), (b, r), width=0.5)
    put(page, LEFT, y + 20, "Sites opened during the year are included from their first month." if face == "sans"
        else "年度中に開設した拠点は最初の月から含みます。", 9, face)
    doc.save(path)
    return path


@pytest.mark.parametrize("style", ["none", "rows", "booktabs"])
@pytest.mark.parametrize("valign", ["top", "bottom", "middle"])
def test_a_record_wrapped_over_lines_is_one_row_whatever_line_holds_its_amounts(
        tmp_path: Path, valign: str, style: str) -> None:
    (table,) = tables_of(_price_list(tmp_path / "list.pdf", RECORDS, valign, style))
    assert list(table.columns) == list(HEADER)
    assert [tuple(r) for r in table.rows] == [(k, " ".join(lines), *a) for k, lines, a in RECORDS]


@pytest.mark.parametrize("style", ["none", "booktabs"])
@pytest.mark.parametrize("at", [2, 4])
def test_the_longest_key_a_word_space_from_its_description(tmp_path: Path, at: int, style: str) -> None:
    """The descriptions start a word space after the longest key, so that record's first line
    prints as one segment, key and description run together: in the middle of the list it is
    cut where the descriptions of the records over and under it start (three lines away), and
    last, its wrapped lines under it are its description's still."""
    short = [(" ".join(k.split()[:-2] + k.split()[-1:]), lines, a) for k, lines, a in RECORDS[:4]]
    records = [*short[:at], ("Riverside store and depot 7651", *RECORDS[4][1:]), *short[at:]]
    desc = LEFT + width(records[at][0], 8) + width(" ", 8)
    (table,) = tables_of(_price_list(tmp_path / "list.pdf", records, "middle", style, desc=desc))
    assert list(table.columns) == list(HEADER)
    assert [tuple(r) for r in table.rows] == [(k, " ".join(lines), *a) for k, lines, a in records]


@pytest.mark.parametrize("valign", ["top", "bottom"])
def test_a_japanese_description_runs_on_over_its_line_breaks(tmp_path: Path, valign: str) -> None:
    (table,) = tables_of(_price_list(tmp_path / "ja.pdf", JA_RECORDS, valign, "none", JA_HEADER, "cjk"))
    assert list(table.columns) == list(JA_HEADER)
    assert [tuple(r) for r in table.rows] == [(k, "".join(lines), *a) for k, lines, a in JA_RECORDS]


def _grid(lines: list[tuple[float, list[str]]]) -> tuple[list, list, list]:
    """A text-strategy grid of one row a printed line (top, cell texts), with each cell's words."""
    rows, texts, words = [], [], []
    for top, cells in lines:
        rows.append([(100.0 * c, top, 100.0 * c + 90, top + 8) for c in range(len(cells))])
        texts.append(cells)
        words.append([[(100.0 * c, top, 100.0 * c + 50, top + 8, t)] if t else [] for c, t in enumerate(cells)])
    return rows, texts, words


def test_lines_at_one_pitch_with_a_sparse_first_column_stay_rows() -> None:
    # a grouped table (its label on its group's first row only), every line at one leading:
    # no band tells a record's lines from the next record
    lines = [(0.0, ["Year", "Quarter", "Sales"]), (10.0, ["2023", "Q1", "5"]), (20.0, ["", "Q2", "6"]),
             (30.0, ["2024", "Q1", "7"]), (40.0, ["", "Q2", "8"]), (50.0, ["2025", "Q1", "9"])]
    _, texts, _ = join_wrapped_records(*_grid(lines))
    assert texts == [t for _, t in lines]


def test_a_line_whose_figure_lands_on_the_records_figure_is_a_row() -> None:
    # tight under its record, but a second figure in the record's column: a row of its own
    lines = [(0.0, ["Site", "Scope", "Cost"]), (15.0, ["Oak Hill", "Delivery of", "5"]),
             (24.0, ["", "lighting", ""]), (39.0, ["Elm Street", "Cleaning", "6"]), (48.0, ["", "total", "7"])]
    _, texts, _ = join_wrapped_records(*_grid(lines))
    assert texts == [["Site", "Scope", "Cost"], ["Oak Hill", "Delivery of lighting", "5"],
                     ["Elm Street", "Cleaning", "6"], ["", "total", "7"]]



def test_no_line_joins_a_label_alone_wrapped_around_its_figures() -> None:
    # peer icdar2013/us-023: `Between-state income inequality (Gini` / figures set level with the
    # middle of the label's lines / `index)`: merge_wrapped_rows joins the label's lines around
    # the figures; the figures row joining the label's first line would leave `index)` a row
    lines = [(0.0, ["Measure", "1997", "1998"]), (15.0, ["Median household income", "49,497", "51,295"]),
             (30.0, ["Between-state income inequality (Gini", "", ""]), (35.0, ["", "0.0628", "0.0636"]),
             (40.0, ["index)", "", ""]), (55.0, ["Household income inequality", "0.4590", "0.4560"])]
    _, texts, _ = join_wrapped_records(*_grid(lines))
    assert texts == [t for _, t in lines]


def test_a_bulleted_paragraphs_hanging_lines_are_no_records_lines() -> None:
    # peer icdar2013/us-022: a marker (`ｲ`) then a paragraph whose lines hang at its text's edge,
    # set with wide word spaces: grouped under the marker as a key they made a table
    from rowkeeper.extractors.finder.text_runs import keyed_rows
    from rowkeeper.models import TextLine

    def seg(x: float, y: float, text: str) -> TextLine:
        return TextLine(page=1, text=text, bbox=(x, y, x + 6 * len(text), y + 9), font_size=9.0)

    run = [[seg(99, 303, "ｲ"), seg(117, 303, "FBI: In FY 2011, the FBI"), seg(330, 303, "indictments,")],
           [seg(117, 321, "and obtained 79 convictions"), seg(330, 321, "In FY 2010, the FBI")],
           [seg(117, 336, "75 indictments, and 83"), seg(330, 336, "In FY 2009, the FBI")]]
    assert keyed_rows(run) == run
    keyed = [[seg(99, 303, "Oak Hill 12"), *run[0][1:]], *run[1:]]
    assert len(keyed_rows(keyed)) == 1  # under a key, the same lines are its record's


# a price list's lines as the text layer gives them (zoo dev14 wrapped_body-251-ja): the middle
# lines of three-line descriptions are single lines the run bridges, and the rows after them
# are where a stacked table might start
JA_LINES = [
    ((54.0, 155.2, 72.0, 164.2), '施設'),
    ((137.1, 155.2, 155.1, 164.2), '内容'),
    ((285.5, 155.2, 303.5, 164.2), '費用'),
    ((54.0, 173.4, 115.1, 182.4), '岡山工場 1653'),
    ((137.1, 173.4, 240.7, 182.4), '非常用照明の月次保守（基'),
    ((137.1, 184.7, 238.0, 193.7), '本契約に基づく）、全3拠点'),
    ((252.2, 184.7, 303.5, 193.7), '¥2,633,088'),
    ((54.0, 202.9, 115.1, 211.9), '高松倉庫 8295'),
    ((137.1, 202.9, 244.2, 211.9), '乗用エレベーターの校正（全'),
    ((137.1, 214.2, 241.4, 223.2), '3拠点）、営業時間外に実施'),
    ((252.2, 214.2, 303.5, 223.2), '¥3,703,341'),
    ((54.0, 232.4, 115.1, 241.4), '仙台店舗 5534'),
    ((137.1, 232.4, 240.7, 241.4), '冷却設備の修理（点検報告'),
    ((137.1, 243.7, 213.9, 252.7), '書を提出）、全3拠点'),
    ((252.2, 243.7, 303.5, 252.7), '¥7,822,574'),
    ((54.0, 261.9, 129.1, 270.9), '熊本センター 8880'),
    ((137.1, 261.9, 240.3, 270.9), '防火扉の納入及び設置（撤'),
    ((137.1, 273.2, 243.8, 282.2), '去品の処分を含む）、部品代'),
    ((137.1, 284.4, 207.2, 293.4), '及び作業費を含む'),
    ((252.2, 284.4, 303.5, 293.4), '¥2,102,539'),
    ((54.0, 302.7, 124.1, 311.7), '松山事務所 6833'),
    ((137.1, 302.7, 237.4, 311.7), '冷却設備の交換（5営業日'),
    ((137.1, 313.9, 243.9, 322.9), '以内に対応）、基本契約に基'),
    ((137.1, 325.2, 151.7, 334.2), 'づく'),
    ((252.2, 325.2, 303.5, 334.2), '¥7,384,690'),
    ((54.0, 343.4, 115.1, 352.4), '神戸支店 9037'),
    ((137.1, 343.4, 240.9, 352.4), '乗用エレベーターの清掃（5'),
    ((137.1, 354.7, 213.2, 363.7), '営業日以内に対応）'),
    ((252.2, 354.7, 303.5, 363.7), '¥8,864,007'),
]


def test_the_last_two_records_wrapped_are_no_table_of_their_own() -> None:
    """The run's last three rows, after a bridged line, stand on edges of their own (a short
    wrapped line, `づく`), but they are two records (`keyed_rows`): too few for a table, so the
    run is one region down to the last record."""
    lines = [TextLine(page=1, bbox=b, text=t, font_size=9.0) for b, t in JA_LINES]
    assert aligned_regions(lines)[0] == [(54.0, 155.2, 303.5, 363.7)]

def _ln(x0: float, top: float, x1: float, text: str) -> TextLine:
    return TextLine(page=1, bbox=(x0, top, x1, top + 8.0), text=text, font_size=8.0)


def test_the_last_records_line_under_its_amounts_line_is_the_tables() -> None:
    """A record's amounts set level with the middle of its three lines: the run's last row is
    its second line (no key), and its third line (`を含む）`) stands under the description's
    column of the record, the record's second (text_runs._record_cells)."""
    run = [[_ln(53, 473, 73, "品目"), _ln(127, 473, 147, "摘要"), _ln(257, 473, 285, "売上高"), _ln(315, 473, 335, "数量")],
           [_ln(53, 490, 113, "岡山倉庫 3969"), _ln(127, 490, 207, "荷捌き場シャッターの")],
           [_ln(257, 495, 285, "721,437"), _ln(291, 495, 335, "¥2,282,322")],
           [_ln(53, 517, 105, "那覇店舗 4197"), _ln(127, 517, 207, "乗用エレベーターの校")],
           [_ln(127, 527, 207, "正（部品代及び作業費"), _ln(257, 527, 285, "975,781"), _ln(291, 527, 335, "¥2,151,317")]]
    tail = [_ln(127, 537, 159, "を含む）")]
    assert [t.text for t in _cell_tail(run, tail)] == ["を含む）"]
    # a note under the table starts at its left edge: no cell's line
    assert _cell_tail(run, [_ln(53, 537, 300, "注：本節では主な結果をまとめる。")]) == []

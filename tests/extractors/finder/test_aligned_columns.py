"""Column boundaries from whole-column alignment: a cell run up to the next column does not
merge the two (finder/aligned_columns.py through the PyMuPDF layer)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from rowkeeper.extractors.finder.aligned_columns import column_gap, column_separators
from tests.extractors.finder.layout import grids, new_page, put, width

GERMAN = [("Kunde", "Betrag", "Stadt"), ("Müller GmbH", "1.200,00", "Berlin"),
          ("Schmidt & Söhne Maschinenbau AG", "35,50", "Hamburg"), ("Bäckerei Weiß", "980,00", "München"),
          ("Zahnarztpraxis Dr. Übelhör", "12.345,67", "Köln"), ("Fa. Özdemir", "7,00", "Bremen")]


@pytest.mark.parametrize("face", ["sans", "serif"])
@pytest.mark.parametrize("gap", [1.5, 3.0])  # points between the long name and its figure
def test_long_name_run_up_to_a_right_aligned_figure(tmp_path: Path, face: str, gap: float) -> None:
    """The figures' shared right edge makes the column: the one name that reaches (or crosses)
    the left end of its row's figure stays in the name column."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 90, "Offene Posten zum Quartalsende", 12, face)
    right = 72 + width(GERMAN[2][0], 9, face) + gap + width(GERMAN[2][1], 9, face)
    for i, (name, amount, city) in enumerate(GERMAN):
        y = 120 + 14 * i
        put(page, 72, y, name, face=face)
        put(page, right, y, amount, face=face, align="right")
        put(page, right + 20, y, city, face=face)
    (grid,) = grids(doc, tmp_path / "names.pdf")
    assert [tuple(r) for r in grid] == GERMAN


VIETNAMESE = [("Tên khách hàng", "Số lượng", "Đơn giá", "Thành tiền"),
              ("Công ty TNHH Minh Anh", "12", "150.000", "1.800.000"),
              ("Hợp tác xã Nông nghiệp Thống Nhất", "3", "90.000", "270.000"),
              ("Nguyễn Văn Bình", "40", "12.500", "500.000"), ("Cửa hàng Hoa", "7", "35.000", "245.000")]


def test_long_name_two_points_before_a_left_aligned_column(tmp_path: Path) -> None:
    """Left-aligned columns: a name ending two points before the next column's shared left
    edge is no wider gap than a word space, but the edge is shared by every row."""
    doc = pymupdf.open()
    page = new_page(doc)
    x1 = 72 + width(VIETNAMESE[2][0]) + 2.0
    xs = (72, x1, x1 + 60, x1 + 130)
    for i, row in enumerate(VIETNAMESE):
        for x, text in zip(xs, row, strict=True):
            put(page, x, 120 + 14 * i, text)
    (grid,) = grids(doc, tmp_path / "vi.pdf")
    assert [tuple(r) for r in grid] == VIETNAMESE


JAPANESE = [("品名", "数量", "単価", "金額"), ("ステンレス六角ボルトM8×40", "100", "12", "1,200"),
            ("ナット", "250", "3", "750"), ("平ワッシャー", "80", "2", "160"), ("配管用フランジ継手一式", "4", "3,500", "14,000")]


def test_japanese_item_names_beside_right_aligned_figures(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    first = 72 + width(JAPANESE[1][0], 9, "cjk") + 3.0
    for i, row in enumerate(JAPANESE):
        put(page, 72, 120 + 14 * i, row[0], face="cjk")
        for j, text in enumerate(row[1:]):
            put(page, first + 24 + 50 * j, 120 + 14 * i, text, face="cjk", align="right")
    (grid,) = grids(doc, tmp_path / "ja.pdf")
    assert [tuple(r) for r in grid] == JAPANESE


HUNGARIAN = [("Megnevezés", "Összeg"), ("Bérleti díj", "1 200 000 Ft"), ("Közös költség", "85 000 Ft"),
             ("Felújítási alap", "240 500 Ft"), ("Egyéb", "9 000 Ft")]


def test_figures_with_thousands_spaces_stay_one_cell(tmp_path: Path) -> None:
    """'1 200 000 Ft' is one right-aligned cell: its words are a word space apart."""
    doc = pymupdf.open()
    page = new_page(doc)
    for i, (label, amount) in enumerate(HUNGARIAN):
        put(page, 72, 120 + 14 * i, label)
        put(page, 260, 120 + 14 * i, amount, align="right")
    (grid,) = grids(doc, tmp_path / "hu.pdf")
    assert [tuple(r) for r in grid] == HUNGARIAN


def test_words_a_word_space_after_a_shared_prefix_are_no_column() -> None:
    """'Mr. Smith' / 'Mr. Jones': the second words share a left edge, a word space after the
    first; no column starts there."""
    words = []
    for k, name in enumerate(("Smith", "Jones", "Brown", "Green")):
        y = 100 + 12 * k
        words += [(72, y, 86, y + 9, "Mr."), (88.5, y, 120, y + 9, name), (200, y, 230, y + 9, f"{k}1,50")]
    seps = [x for x, _ in column_separators(words, column_gap(words))]
    assert len(seps) == 1 and 120 < seps[0] < 200


ENGLISH = [("Instrument", "Rate", "Weight"), ("Government bond 2031", "3.125", "40.0"),
           ("Corporate bond, senior unsecured, BBB", "12.5", "22.75"), ("Covered bond", "1,234.75", "8.5"),
           ("Money market fund", "0.9", "28.75")]


def test_figures_aligned_on_the_decimal_point_beside_a_long_label(tmp_path: Path) -> None:
    """Neither left nor right edges line up in a decimal-aligned column; its decimal points
    do, and give the boundary the long label (two points short of '12.5') would close."""
    doc = pymupdf.open()
    page = new_page(doc)
    point = 72 + width(ENGLISH[2][0]) + 2.0 + width("12")
    for i, (label, rate, weight) in enumerate(ENGLISH):
        y = 120 + 14 * i
        put(page, 72, y, label)
        whole = rate.split(".")[0] if i else rate
        put(page, point - width(whole) if i else point - width(rate) / 2, y, rate)
        put(page, point + 90, y, weight, align="right")
    (grid,) = grids(doc, tmp_path / "decimal.pdf")
    assert [tuple(r) for r in grid] == ENGLISH


def test_code_numbers_a_word_space_after_cjk_labels_stay_in_the_label(tmp_path: Path) -> None:
    """'金沢倉庫 856': labels of four full-width characters end together, so the codes after
    them share a left edge; a word space is no column gap, however wide the font sets it."""
    rows = [("品目", "数量", "金額"), ("金沢倉庫 856", "315,693", "¥6,643,868"), ("長野倉庫 1089", "476,137", "¥1,945,445"),
            ("神戸店舗 6694", "210,072", "¥5,853,014"), ("仙台センター 8638", "995,740", "¥3,988,453"),
            ("大阪支店 1322", "280,084", "¥2,773,138")]
    doc = pymupdf.open()
    page = new_page(doc)
    for i, (label, qty, amount) in enumerate(rows):
        y = 120 + 15 * i
        name, _, code = label.partition(" ")
        put(page, 72, y, name, face="cjk")
        if code:  # set half an em after the label, as a CJK font's word space is
            put(page, 72 + width(name, 9, "cjk") + 4.5, y, code, face="cjk")
        put(page, 230, y, qty, face="cjk", align="right")
        put(page, 310, y, amount, face="cjk", align="right")
    (grid,) = grids(doc, tmp_path / "codes.pdf")
    # (no space character is printed between label and code: the text layer joins them)
    assert [(r[0].replace(" ", ""), *r[1:]) for r in grid] == [(r[0].replace(" ", ""), *r[1:]) for r in rows]


@pytest.mark.parametrize("unit", ["[m3]", "(m²)", "(kg/m3)"])
def test_a_header_label_ending_in_a_unit_with_a_digit_goes_whole_to_its_column(tmp_path: Path, unit: str) -> None:
    """Labels right-aligned over right-aligned figures, set tight (the next label starts a
    few points after the figures' edge): "Thể tích [m3]", wider than its figures, reaches over
    the gap into the column before. A unit in brackets ("[m3]", "(kg/m3)") is a label's word,
    not a figure, so the label goes whole to one column (`aligned_columns.whole_phrases`)."""
    header = ("Hạng mục", "Điểm", f"Thể tích {unit}", "Chi phí [VNĐ]")
    names = ("Buôn Ma Thuột", "Bắc Ninh", "Đà Nẵng", "Rạch Giá", "Cần Thơ", "Hà Nội")
    rows = [header] + [(f"{name} chi nhánh {5065 + 613 * i}", f"{797 - 91 * i}.905", f"{828 - 57 * i}.145",
                        f"{268 + 83 * i}.146") for i, name in enumerate(names)]
    doc = pymupdf.open()
    page = new_page(doc)
    rights = (216.5, 282.9, 349.8)
    for i, row in enumerate(rows):
        face = "bold" if i == 0 else "sans"
        put(page, 45, 175 + 17 * i, row[0], 8, face)
        for x, text in zip(rights, row[1:], strict=True):
            put(page, x, 175 + 17 * i, text, 8, face, "right")
    (grid,) = grids(doc, tmp_path / "units.pdf")
    assert tuple(grid[0]) == header
    assert [tuple(r) for r in grid[1:]] == rows[1:]


_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def test_monospaced_labels_a_space_apart_go_to_the_columns_they_end_over(tmp_path: Path) -> None:
    """A monospaced report's header, its labels right-aligned over their figures and one space
    apart ("Cost Unit price [USD] Share [%]"): every gap of the line is one space, so nothing
    but the figures' right edges under them tells where one label ends; "Unit price [USD]"
    reaches left over the gap before its column and goes to it whole, not "Cost Unit"."""
    rows = [("Item", "Cost", "Unit price [USD]", "Share [%]", "Date"),
            ("5535 Ashford store", "$2,563,516", "18,941.84", "31.5%", "2019-09-26"),
            ("2040 Harbor View depot", "$2,749,499", "39,891.4", "11.7%", "2022-01-20"),
            ("5729 Pine Valley depot", "$1,204,377", "7,215.03", "8.2%", "2021-03-15"),
            ("1187 Elm Street plant", "$903,155", "12,004.5", "42.9%", "2020-11-02")]
    mono = pymupdf.Font(fontfile=_MONO)
    doc = pymupdf.open()
    page = new_page(doc)
    for i, row in enumerate(rows):
        y = 120 + 19.5 * i
        page.insert_text((75, y), row[0], fontsize=10, fontname="mono", fontfile=_MONO)
        for right, text in zip((273.7, 376.0, 436.2), row[1:4], strict=True):
            page.insert_text((right - mono.text_length(text, fontsize=10), y), text, fontsize=10, fontname="mono",
                             fontfile=_MONO)
        page.insert_text((442.2, y), row[4], fontsize=10, fontname="mono", fontfile=_MONO)
    (grid,) = grids(doc, tmp_path / "mono.pdf")
    assert [tuple(r) for r in grid] == rows



def test_a_monospaced_label_over_tick_boxes_keeps_its_column(tmp_path: Path) -> None:
    """The zoo's form-60-hu (dev4), generated here: "Tartalmaz" over a column of drawn tick
    boxes, one monospaced space before "Egységár (Ft)": no figures' edge for it to end on, but
    the column boundary runs through the space after it, so it keeps its column and
    "Egységár (Ft)" goes to its figures (joined, the label read "Tartalmaz Egységár (Ft)")."""
    from bench.zoo.corpus import TUNE_ONLY, materialize, plan

    (doc,) = [d for d in plan(extra=True, tune_only=tuple(s for s in TUNE_ONLY if s == "dev4"))
              if d.doc == "form-60-hu"]
    (doc,) = materialize([doc], tmp_path)
    truth = doc.to_json()["tables"][2]
    tables = rowkeeper.extract(tmp_path / "form-60-hu.pdf").tables
    assert [list(t.columns) for t in tables][2] == truth["columns"]

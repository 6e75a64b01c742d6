"""Header detection and folding (issue 3 item 2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rowkeeper.label_text import (
    clean_text,
    fill_group_labels,
    fold_header_rows,
    join_rows,
    join_wrapped_header_rows,
    wrapped_rows,
)
from rowkeeper.transforms.headers import detect_header_rows

BODY = [["North", "1,200", "3.5%"], ["South", "2,340", "4.1%"], ["East", "880", "2.0%"]]


def test_labels_over_numbers_is_one_header_row() -> None:
    assert detect_header_rows([["Region", "Revenue", "Growth"], *BODY]) == 1


def test_numeric_first_row_is_not_a_header_even_if_flagged() -> None:
    assert detect_header_rows(BODY) == 0
    assert detect_header_rows(BODY, flagged=[True, False, False]) == 0


def test_second_header_row_put_in_the_body_is_found() -> None:
    grid = [["", "Revenue", "Growth"], ["Region", "EUR k", "%"], *BODY]
    assert detect_header_rows(grid, flagged=[True, False]) == 2


def test_years_over_amounts_are_a_header() -> None:
    grid = [["Item", "2025", "2024"], ["Sales", "1,200", "1,100"], ["Costs", "800", "750"]]
    assert detect_header_rows(grid) == 1


def test_section_label_row_in_body_is_not_a_header() -> None:
    grid = [["Region", "Revenue", "Growth"], ["Europe", "", ""], *BODY]
    assert detect_header_rows(grid) == 1


def test_bold_header_over_a_text_table() -> None:
    grid = [["Name", "Role"], ["Ann", "Chair"], ["Bob", "Clerk"]]
    assert detect_header_rows(grid, bold=[True, False, False]) == 1


def test_group_header_folds_over_the_columns_it_spans() -> None:
    header = [["", "BLEU", "", "TER", ""], ["Model", "EN-DE", "EN-FR", "EN-DE", "EN-FR"]]
    cols = fold_header_rows(fill_group_labels(header))
    assert cols == ("Model", "BLEU EN-DE", "BLEU EN-FR", "TER EN-DE", "TER EN-FR")


def test_expanded_spans_fold_once() -> None:
    # a row-spanning "Model" and a column-spanning "BLEU" already expanded by spans.py
    header = [["Model", "BLEU", "BLEU"], ["Model", "EN-DE", "EN-FR"]]
    assert fold_header_rows(header) == ("Model", "BLEU EN-DE", "BLEU EN-FR")


def test_clean_text_joins_cjk_without_space() -> None:
    assert clean_text("修繕\n積立金") == "修繕積立金"
    assert clean_text("Management\nfee") == "Management fee"


def test_letter_spaced_cjk_loses_its_spaces_and_words_keep_theirs() -> None:
    assert clean_text("施 設 種 類") == "施設種類"
    assert clean_text("定\u3000員") == "定員"
    assert clean_text("施 設\n種 類") == "施設種類"
    assert clean_text("東京 大阪") == "東京 大阪"  # two words of two characters
    assert clean_text("合 計 金額") == "合計 金額"
    assert clean_text("Day care center") == "Day care center"
    assert clean_text("約 5 分") == "約 5 分"
    assert clean_text("金額 （千円）") == "金額（千円）"
    assert clean_text("構成比\n（%）") == "構成比（%）"
    assert clean_text("Amount (EUR)") == "Amount (EUR)"
    assert clean_text("重量[ k g ]") == "重量[kg]"  # a unit letter-spaced like its CJK label
    assert clean_text("費用 (千 円)") == "費用(千円)"
    assert clean_text("Weight [k g]") == "Weight [k g]"  # after a Latin word: as printed
    assert clean_text("2 0 2 4") == "2024" and clean_text("Q 1") == "Q1"  # a whole cell letter-spaced
    assert clean_text("1 0") == "1 0" and clean_text("A B") == "A B"  # two figures, two letters
    assert clean_text("3 g") == "3 g" and clean_text("1 2 3") == "1 2 3"  # a figure and its unit
    assert clean_text("金額 (USD m)") == "金額 (USD m)"  # words of the unit, not letters


def test_key_value_table_keeps_its_first_field_in_the_body() -> None:
    grid = [["Vertragsnummer", "V-2026-0412"], ["Kunde", "Müller GmbH"],
            ["Laufzeit", "24 Monate"], ["Beginn", "01.03.2026"], ["Rate", "1.250,00 €"]]
    assert detect_header_rows(grid) == 0
    # a name as the first value: the mixed values below still make it one more field
    assert detect_header_rows(grid[1:]) == 0
    assert detect_header_rows([["Feld", "Wert"], *grid], bold=[True] + [False] * 5) == 1
    pairs = [["Kunde", "Müller GmbH", "Ort", "Köln"],  # two fields a row
             ["Beginn", "01.03.2026", "Rate", "1.250,00 €"], ["Laufzeit", "24 Monate", "Nr.", "V-2026-0412"]]
    assert detect_header_rows(pairs) == 0


def test_first_row_with_a_date_code_or_colon_key_is_data() -> None:
    text = [["Anna Berg", "Chair", "Berlin"], ["Bo Lind", "Clerk", "Malmö"]]
    assert detect_header_rows([["Ola Nord", "Clerk", "01.02.2026"], *text]) == 0
    assert detect_header_rows([["Kunde:", "Müller GmbH", "Köln"], *text]) == 0
    assert detect_header_rows([["Ola Nord", "Clerk", "+46 8 123 456"], *text]) == 0
    assert detect_header_rows([["Name", "Role", "City"], *text]) == 1
    assert detect_header_rows([["Item", "Q1 2025", "2024年3月"], *text]) == 1


_words = st.text(alphabet=st.sampled_from("ab 管理\nX-1"), max_size=8)


@given(st.lists(st.lists(_words, min_size=3, max_size=3), min_size=1, max_size=4))
def test_folding_twice_equals_folding_once(header: list[list[str]]) -> None:
    once = fold_header_rows(header)
    assert fold_header_rows([list(once)]) == once
    assert len(once) == 3


def test_wrapped_header_line_joins_the_cell_above() -> None:
    # "In the last" / "month" is one cell printed on two lines; the body starts after
    printed = [["", "In the last", "Two or", "Asian/"], ["", "month", "more", "Pacific"]]
    assert join_wrapped_header_rows(printed) == [["", "In the last month", "Two or more", "Asian/ Pacific"]]


def test_sub_labels_under_a_group_span_stay_a_row() -> None:
    # the group label sits in its top-left slot only: the sub-labels under its tail stay apart
    printed = [["", "to air", "", ""], ["", "kg/year", "by water", "by land"]]
    assert join_wrapped_header_rows(printed) == [list(r) for r in printed]


def test_capitalised_labels_under_a_full_row_stay_a_row() -> None:
    printed = [["education and training", "(%)"], ["Indicators", "Weight in 2006"]]
    assert join_wrapped_header_rows(printed) == [list(r) for r in printed]


def test_three_line_header_cell_and_cjk_wrap_join() -> None:
    printed = [["物件", "Percent"], ["名", "who"], ["", "borrowed"]]
    assert join_wrapped_header_rows(printed) == [["物件名", "Percent who borrowed"]]


def test_wrapped_lines_fold_as_lines_and_levels_with_a_space() -> None:
    # "金額" over "(千円)" is one cell on two lines; "売上高" over "前期" / "当期" are two levels
    printed = [["拠点", "金額", "売上高", ""], ["", "(千円)", "前期", "当期"]]
    assert wrapped_rows(printed[:1] + [["", "(千円)", "", ""]]) == [False, True]
    assert wrapped_rows(printed) == [False, False]
    wrapped = [["拠点", "金額", "Amount"], ["", "(千円)", "(EUR)"]]
    assert fold_header_rows(join_rows(wrapped, wrapped_rows(wrapped))) == ("拠点", "金額(千円)", "Amount (EUR)")
    levels = [["拠点", "売上高", "売上高"], ["拠点", "前期", "当期"]]
    assert fold_header_rows(levels) == ("拠点", "売上高 前期", "売上高 当期")


def test_a_note_inside_a_group_labels_span_spreads_over_none_of_it() -> None:
    # `[In thousands]` centred over the table lands inside `Grade`'s columns (peer us-017 p4)
    header = [["", "", "", "[In thousands]", "", "", ""],
              ["", "Grade", "Grade", "Grade", "Grade", "Elementary", "Secondary"],
              ["Year", "7", "8", "9", "10", "ungraded", "ungraded"]]
    cols = fold_header_rows(fill_group_labels(header))
    assert cols == ("Year", "Grade 7", "Grade 8", "[In thousands] Grade 9", "Grade 10",
                    "Elementary ungraded", "Secondary ungraded")

"""Locale-aware number parsing and column typing (issue 3 item 5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rowkeeper.transforms.column_types import column_decimal_mark, infer_column_types, parse_cell


@pytest.mark.parametrize(
    ("text", "mark", "kind", "value"),
    [
        ("1,234.5", ".", "decimal", 1234.5),
        ("1.234,5", ",", "decimal", 1234.5),
        ("12,5", ",", "decimal", 12.5),
        ("2 900", ".", "integer", 2900.0),
        ("2\u2009900", ",", "integer", 2900.0),  # thin space
        ("2\u00a0900,5", ",", "decimal", 2900.5),  # nbsp
        ("(1,234)", ".", "integer", -1234.0),
        ("\u221212", ".", "integer", -12.0),  # U+2212 minus
        ("$1,234.50", ".", "currency", 1234.5),
        ("25.000 EUR", ",", "currency", 25000.0),
        ("¥13,000", ".", "currency", 13000.0),
        ("３，０００円", ".", "currency", 3000.0),  # full-width
        ("12.5%", ".", "percent", 12.5),
        ("12,5 %", ",", "percent", 12.5),
        ("2.3e19", ".", "decimal", 2.3e19),
        ("△1,200", ".", "integer", -1200.0),  # Japanese accounting negative
        ("1 234 567 Ft", ",", "currency", 1234567.0),
        ("25.000 đ", ",", "currency", 25000.0),
        ("2026-03-31", ".", "date", None),
        ("31.03.2026", ",", "date", None),
        ("2026年3月31日", ".", "date", None),
        ("2026. 03. 31.", ",", "date", None),
        ("01-001", ".", "text", None),
        ("12 ft", ".", "text", None),
        ("—", ".", "empty", None),
    ],
)
def test_parse_cell(text: str, mark: str, kind: str, value: float | None) -> None:
    p = parse_cell(text, mark)  # type: ignore[arg-type]
    assert (p.kind, p.value) == (kind, value)


def test_column_evidence_decides_the_decimal_mark() -> None:
    # '1.234' alone is ambiguous; '12,5' in the same column proves a decimal comma
    assert column_decimal_mark(["1.234", "12,5", "3.000"]) == ","
    assert column_decimal_mark(["1,234", "12.5"]) == "."
    assert column_decimal_mark(["1.234", "5.600"], default=",") == ","


def test_german_column_of_thousands() -> None:
    rows = [["A", "1.234"], ["B", "25.000"], ["C", "3.500"]]
    types, values = infer_column_types(rows, default_mark=",")
    assert types == ("text", "integer")
    assert [v[1] for v in values] == [1234.0, 25000.0, 3500.0]


def test_mixed_column_types() -> None:
    rows = [["x", "12.5%", "$3", "2026-01-01", ""], ["y", "7%", "$4.50", "2026-02-01", "-"]]
    types, values = infer_column_types(rows)
    assert types == ("text", "percent", "currency", "date", "empty")
    assert values[1] == (None, 7.0, 4.5, None, None)


def test_mostly_numeric_column_keeps_numbers_and_nulls_text() -> None:
    rows = [[str(i)] for i in range(9)] + [["n.b."]]
    types, values = infer_column_types(rows)
    assert types == ("integer",)
    assert values[-1] == (None,)


@given(st.integers(min_value=-10**12, max_value=10**12))
def test_grouped_integers_round_trip_in_both_locales(n: int) -> None:
    en = f"{n:,}"
    de = en.replace(",", ".")
    assert parse_cell(en, ".").value == float(n)
    assert parse_cell(de, ",").value == float(n)


@given(st.decimals(min_value=-10**6, max_value=10**6, places=2, allow_nan=False))
def test_decimals_round_trip(d: object) -> None:
    en = f"{d:,.2f}"
    de = en.replace(",", "_").replace(".", ",").replace("_", ".")
    assert parse_cell(en, ".").value == pytest.approx(float(str(d)))
    assert parse_cell(de, ",").value == pytest.approx(float(str(d)))


def test_a_word_merged_across_columns_does_not_vote() -> None:
    """`included` merged over the amounts of a three-row table: the columns type by their
    values; a column holding nothing but the merged word stays text."""
    rows = [["Dental", "included", "included", "included"],
            ["Dental", "70.7%", "$193,108", "2023-05-18"],
            ["Outpatient", "59.4%", "$66,775", "2020-07-24"]]
    across = {(0, 1), (0, 2), (0, 3)}
    assert infer_column_types(rows)[0] == ("text", "text", "text", "text")
    assert infer_column_types(rows, across=across)[0] == ("text", "percent", "currency", "date")
    assert infer_column_types([["on request", "on request"]], across={(0, 0), (0, 1)})[0] == ("text", "text")

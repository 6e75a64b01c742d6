"""One estimator of figure columns (transforms/figures.py) and its two readings: numbers and
dates for the header rules, cells set in digits (codes too) for the label passes."""

from __future__ import annotations

from rowkeeper.transforms.figures import DIGITS, NUMBERS, figure_columns

BODY = [
    ["Berlin", "1.393,4", "V-2026-0412", "Q1", "n/a"],
    ["Hamburg", "(35,8)", "V-2026-0413", "Q2", "-"],
    ["Munich", "-", "V-2026-0414", "Q3", "x"],
]


def test_numbers_reading_takes_figures_with_either_decimal_mark_and_skips_placeholders() -> None:
    assert figure_columns(BODY, NUMBERS) == [False, True, False, False, False]


def test_digits_reading_takes_codes_and_periods_as_figures() -> None:
    assert figure_columns(BODY, DIGITS) == [False, True, True, True, False]


def test_a_column_of_placeholders_only_holds_no_figures() -> None:
    assert figure_columns([["-"], ["n/a"], ["…"]], NUMBERS) == [False]
    assert figure_columns([["-"], ["n/a"], ["…"]], DIGITS) == [False]

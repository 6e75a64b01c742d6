"""Borderless tables on scans whose fonts set word spaces as wide as a tight table's gutters
(extractors/scan_word_spaces.py, through ocr_tables.aligned_tables)."""

from __future__ import annotations

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_tables import aligned_tables


def _run(words: list[tuple[str, float, float]], y: float, h: float = 46) -> OcrBox:
    """One detector run over `words` (text, ink x0, x1), its box padded 4 px past the ink."""
    return OcrBox(" ".join(t for t, _, _ in words), (words[0][1] - 4, y, words[-1][2] + 4, y + h), 0.99,
                  tuple(words))


KEYS = [("1749", "Westgate", "hub"), ("1165", "Riverside", "unit"), ("5480", "Fairfield", "plant"),
        ("8446", "Maple", "Court"), ("5778", "Lakeside", "office")]


def _rows(header: list[OcrBox], first: float = 543, pitch: float = 47) -> list[OcrBox]:
    boxes = list(header)
    for r, (code, name, kind) in enumerate(KEYS):
        y = first + pitch * (r + 1)
        end = 248 + 18 * len(name)  # words as wide as their letters: the name's gaps wander
        boxes += [_run([(code, 159, 227), (name, 248, end), (kind, end + 23, end + 23 + 17 * len(kind))], y),
                  _run([("74,514.82", 603, 771)], y), _run([("$5,233,047", 820, 986)], y)]
    return boxes


def test_a_word_space_every_row_reads_inside_its_run_parts_no_columns() -> None:
    """Word spaces of 21-23 px (half a line height): the gap after the code is white on every row,
    but each row reads code and name as one run, and the header has one label over both; the key
    is one column (on the base: `1749` | `Westgate hub`, the header over an empty name)."""
    header = [_run([("Item", 158, 228)], 543), _run([("Unit", 566, 640), ("price", 661, 767)], 543),
              _run([("Cost", 894, 988)], 543)]
    found = aligned_tables(_rows(header))
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(6, 3)]
    cells = found[0][0].cells
    assert [c.text for c in cells if c.row == 1] == ["1749 Westgate hub", "74,514.82", "$5,233,047"]


def test_a_header_with_a_label_over_each_side_keeps_the_columns() -> None:
    """The same rows under a header that labels the code and the name apart: two columns."""
    header = [_run([("No.", 158, 220)], 543), _run([("Site", 248, 330)], 543),
              _run([("Unit", 566, 640), ("price", 661, 767)], 543), _run([("Cost", 894, 988)], 543)]
    found = aligned_tables(_rows(header))
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(6, 4)]


def test_a_header_run_over_both_sides_of_a_narrow_gutter_keeps_the_columns() -> None:
    """Amounts and dates 0.5 line heights apart, a little wider than the keys' word spaces, read
    in one run on every row and under one header run of both labels: two columns still."""
    boxes = [_run([("Site", 158, 228)], 400), _run([("Amount", 600, 720), ("Date", 745, 830)], 400)]
    for r, (code, name, _) in enumerate(KEYS):
        y = 446 + 46 * r
        boxes += [_run([(name, 159, 159 + 18 * len(name)), (code, 180 + 18 * len(name), 250 + 18 * len(name))], y),
                  _run([("¥7,541,141", 600, 722), ("2023-11-28", 745, 900)], y)]
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(6, 3)]
    assert [c.text for c in found[0][0].cells if c.row == 1] == ["Westgate 1749", "¥7,541,141", "2023-11-28"]


def test_a_gutter_wider_than_the_word_spaces_under_one_header_run_keeps_the_columns() -> None:
    """The header reads both labels as one word over both columns ("数量日付"): the gap between
    amounts and dates (0.52 line heights) against the keys' word spaces (0.39) keeps them apart."""
    boxes = [_run([("Site", 158, 228)], 400), _run([("数量日付", 600, 830)], 400)]
    for r, (code, name, _) in enumerate(KEYS):
        y = 446 + 46 * r
        boxes += [_run([(name, 159, 159 + 18 * len(name)), (code, 177 + 18 * len(name), 247 + 18 * len(name))], y),
                  _run([("¥7,541,141", 600, 722), ("2023-11-28", 746, 900)], y)]
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(6, 3)]

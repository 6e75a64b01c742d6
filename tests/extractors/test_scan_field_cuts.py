"""Blocks of fields on scans: two rows of key-value pairs, and a key read in one run with its
value (extractors/scan_field_cuts.py, ocr_runs.two_rows_of_fields, through ocr_tables.aligned_tables)."""

from __future__ import annotations

import pymupdf
import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_tables import aligned_tables
from tests.extractors.ocr_fixtures import scanned_rows

PROSE = ("The figures below cover the reporting period and were checked by the controlling team.",
         "Sites opened during the year are included from their first full month of operation.")
FIELDS = [("Project", "370 901", "Address", "2022-05-24"), ("Date", "Mill Road 71", "Customer", "340 275")]


def _two_rows() -> bytes:
    """A paragraph, a block of four fields set two pairs a row (no rules, no header), a paragraph."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((50, 60), "Overview", fontsize=14, fontname="hebo")
    for k, line in enumerate(PROSE):
        page.insert_text((50, 90 + 14 * k), line, fontsize=10)
    for r, row in enumerate(FIELDS):
        for x, text in zip((50, 160, 300, 410), row, strict=True):
            page.insert_text((x, 150 + 20 * r), text, fontsize=10)
    for k, line in enumerate(PROSE):
        page.insert_text((50, 215 + 14 * k), line, fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def test_two_rows_of_fields_set_two_pairs_a_row_are_a_table() -> None:
    """Two rows of four fields, every key and value at one x on both rows, are one 2 x 4 table
    (on the base the finder wanted three rows outside a frame: none found)."""
    pytest.importorskip("rapidocr")
    rows = scanned_rows(_two_rows(), rotate_deg=0.2, seed=3)
    assert rows == [[list(FIELDS[0]), list(FIELDS[1])]], rows


def _run(words: list[tuple[str, float, float]], y: float, h: float = 44) -> OcrBox:
    """One detector run over `words` (text, ink x0, x1), its box padded 6 px past the ink."""
    return OcrBox(" ".join(t for t, _, _ in words), (words[0][1] - 6, y, words[-1][2] + 6, y + h), 0.99,
                  tuple(words))


def _prose(y: float) -> OcrBox:
    """A line of prose at the margin, its words spaced evenly (20 px): its second word starts
    where the values do (356)."""
    words, x = [], 210.0
    for w in ("figures", "checked", "by", "the", "controlling", "team", "and", "the", "auditors", "too."):
        words.append((w, x, x + 18 * len(w)))
        x += 18 * len(w) + 20
    return _run(words, y)


def test_a_key_read_in_one_run_with_its_value_is_cut_where_the_other_rows_part() -> None:
    """A large font sets the gutter after a key about as wide as a word space (22 px), so the
    detector reads "Contact 2026-04-28" as one run; the row under it reads "Date" and "384-5107"
    apart at the same two x. The run is cut there, and the three rows make one 3 x 2 table (on
    the base rows one and three were one run each: no table)."""
    boxes = [_prose(440), _prose(492),
             _run([("Contact", 210, 334), ("2026-04-28", 356, 536)], 559),
             _run([("Date", 210, 281)], 611), _run([("384-5107", 356, 499)], 611),
             _run([("Project", 211, 334), ("444-3356", 355, 499)], 664),
             _prose(760)]
    found = aligned_tables(boxes)
    rows = [[[c.text for c in t.cells if c.row == r] for r in range(t.n_rows)] for t, _ in found]
    assert rows == [[["Contact", "2026-04-28"], ["Date", "384-5107"], ["Project", "444-3356"]]]


def test_a_line_of_prose_with_a_word_at_the_value_column_stays_whole() -> None:
    """The prose around the block starts at the keys' x and sets a word where the values start
    (356), but its words stand evenly apart: no gap there is a gutter, the lines stay out of the
    table (the table keeps its three rows, the prose one run a line)."""
    boxes = [_prose(440), _prose(492),
             _run([("Contact", 210, 334)], 559), _run([("2026-04-28", 356, 536)], 559),
             _run([("Date", 210, 281)], 611), _run([("384-5107", 356, 499)], 611),
             _run([("Project", 211, 334)], 664), _run([("444-3356", 355, 499)], 664),
             _prose(716)]
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(3, 2)]
    assert all(boxes[j].text in {"Contact", "2026-04-28", "Date", "384-5107", "Project", "444-3356"}
               for j in found[0][1])


def test_a_key_with_a_code_inside_a_table_found_stays_one_cell() -> None:
    """A facility column's keys are a code and a name a word space apart ("6559 Kagoshima"); the
    detector reads one row's code and name as two runs, the others as one. The table is found
    without cutting, so the other rows' keys are not cut where that row parts: the key is one
    column (cut at the lone row's edge, three rows of four read their code apart and the key
    became two columns, every cell after it one off; zoo dev18 two_column-311-ja's twin)."""
    header = [_run([("Facility", 210, 330)], 500), _run([("Share", 620, 700)], 500), _run([("Cost", 860, 930)], 500)]
    keys = [("6559", "Kagoshima"), ("7961", "Shizuoka"), ("3608", "Kanazawa"), ("923", "Hiroshima")]
    boxes = list(header)
    for r, (code, name) in enumerate(keys):
        y = 560 + 52 * r
        start = 210 + 17 * len(code) + 20
        if r == 1:
            boxes += [_run([(code, 210, 210 + 17 * len(code))], y), _run([(name, start, start + 17 * len(name))], y)]
        else:
            boxes.append(_run([(code, 210, 210 + 17 * len(code)), (name, start, start + 17 * len(name))], y))
        boxes += [_run([("39.4%", 620, 700)], y), _run([("244,001", 830, 930)], y)]
    found = aligned_tables(boxes)
    assert [(t.n_rows, t.n_cols) for t, _ in found] == [(5, 3)]
    keys_read = [c.text for c in found[0][0].cells if c.col == 0]
    assert [keys_read[k] for k in (0, 1, 3, 4)] == ["Facility", "6559 Kagoshima", "3608 Kanazawa", "923 Hiroshima"]

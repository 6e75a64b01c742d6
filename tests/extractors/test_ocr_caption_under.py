"""A caption set close under a borderless table on a scan is no wrapped line of its last record
(ocr_runs._trim): OCR boxes are padded, so a caption line at the body's leading touches the
line above it and starts at the table's left edge, as a record's closing line does."""

from __future__ import annotations

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_runs import _trim

LH = 30.0  # a run's height in pixels


def _row(y: float, *cells: tuple[float, str]) -> list[OcrBox]:
    return [OcrBox(text, (x, y, x + 180, y + LH), 0.9) for x, text in cells]


def _table() -> list[list[OcrBox]]:
    return [_row(100 + 36 * i, (40, f"Bay Point plant {i}"), (300, "452,557"), (500, "$6,611,941")) for i in range(3)]


def test_a_caption_line_close_under_the_table_is_trimmed() -> None:
    run = _table() + [[OcrBox("Table 2: Supplier overview", (40, 100 + 36 * 2 + LH - 2, 420, 100 + 36 * 3 + LH), 0.9)]]
    assert len(_trim(run, LH)) == 3


def test_a_closing_wrapped_line_stays() -> None:
    run = _table() + [[OcrBox("with a signed report", (40, 100 + 36 * 2 + LH - 2, 300, 100 + 36 * 3 + LH), 0.9)]]
    assert len(_trim(run, LH)) == 4

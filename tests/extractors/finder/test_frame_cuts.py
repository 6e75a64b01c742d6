"""A form's blocks of fields in frames side by side, then a row of fields set across the page
under them: the fields-across row is a table of its own, not rows of a block
(finder/frame_cuts)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.field_blocks import frames
from rowkeeper.extractors.finder.frame_cuts import closed, cut_under_frames
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import grids, new_page, put

LEFT = [("Address", "North Ridge"), ("Phone", "Redwood 82"), ("Project", "$853,429")]
RIGHT = [("Quote no.", "Bay Point"), ("Contact", "$371,107")]
ACROSS = [("Customer", "Date", "Valid until"), ("Redwood", "Pine Valley", "$370,620")]
BODY = [("Site", "Unit price", "Quantity"), ("8774 Bay Point office", "947,781", "$7,828,998"),
        ("1588 Millbrook plant", "874,625", "$2,994,314"), ("3946 Riverside office", "167,423", "$5,345,585")]


def _block(page: pymupdf.Page, x: float, rows: list[tuple[str, str]], frame: str, pitch: float) -> None:
    """Key-value rows at `x`, keys bold: in a frame (`frame` "box"), in a grid of rules ("grid")
    or bare ("none")."""
    y = 112.0
    for key, value in rows:
        put(page, x + 3, y, key, 8, "bold")
        put(page, x + 55, y, value, 8)
        if frame == "grid" and (key, value) != rows[-1]:
            page.draw_line((x, y + 5), (x + 115, y + 5), width=0.5)
        y += pitch
    if frame != "none":
        page.draw_rect(pymupdf.Rect(x, 103, x + 115, y - pitch + 9), width=0.5)
    if frame == "grid":
        page.draw_line((x + 52, 103), (x + 52, y - pitch + 9), width=0.5)


def _form(path: Path, frame: str, across_rules: str) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 85, "Maintenance schedule 2019", 14, "bold")
    _block(page, 72, LEFT, frame, 17)
    _block(page, 308, RIGHT, frame, 20)  # not level with the left block's rows
    top = 176.0  # the fields-across header's baseline, a line and a half under the blocks
    for i, row in enumerate(ACROSS):
        for x, text in zip((76, 225, 375), row, strict=True):
            put(page, x, top + 17 * i, text, 7, "bold" if i == 0 else "sans")
    if across_rules == "rows":
        for y in (top + 4, top + 21):
            page.draw_line((72, y), (523, y), width=0.5)
    else:  # a box around them, a rule under the keys
        page.draw_rect(pymupdf.Rect(72, top - 10, 523, top + 23), width=0.5)
        page.draw_line((72, top + 6), (523, top + 6), width=0.5)
    put(page, 72, 250, "1. Outlook", 12, "bold")
    for i, row in enumerate(BODY):
        put(page, 76, 272 + 18 * i, row[0], 8, "bold" if i == 0 else "sans")
        for x, text in zip((230, 289), row[1:], strict=True):
            put(page, x, 272 + 18 * i, text, 8, "bold" if i == 0 else "sans", "right")
        page.draw_line((72, 276 + 18 * i), (293, 276 + 18 * i), width=0.5)
    doc.save(path)
    return path


@pytest.mark.parametrize(("frame", "across_rules"), [("box", "rows"), ("grid", "rows"), ("box", "box"),
                                                     ("grid", "box"), ("none", "box")])
def test_fields_across_under_blocks_of_fields_are_a_table_of_their_own(tmp_path: Path, frame: str,
                                                                       across_rules: str) -> None:
    path = _form(tmp_path / "form.pdf", frame, across_rules)
    read = grids(pymupdf.open(path), tmp_path / "again.pdf")
    assert [[tuple(r) for r in ACROSS]] == [[tuple(r) for r in g] for g in read if g[0][0] == "Customer"]
    assert [tuple(r) for r in LEFT] in [[tuple(r) for r in g] for g in read]
    assert [tuple(r) for r in RIGHT] in [[tuple(r) for r in g] for g in read]
    assert [tuple(r) for r in BODY] in [[tuple(r) for r in g] for g in read]
    # no word of the page in two tables
    assert sum(len(g) for g in read) == len(LEFT) + len(RIGHT) + len(ACROSS) + len(BODY)


def _line(x0: float, y0: float, x1: float, text: str = "x") -> TextLine:
    return TextLine(page=1, text=text, bbox=(x0, y0, x1, y0 + 8), font_size=8.0)


def test_a_header_band_framed_over_its_body_keeps_the_body() -> None:
    band = (70, 100, 300, 130)
    hs = [(70, 100, 300, 100), (70, 130, 300, 130)]
    vs = [(70, 100, 70, 130), (300, 100, 300, 130)]
    assert frames(hs, vs) == [band]
    lines = [_line(75, 104, 120), _line(200, 104, 250), _line(75, 116, 120), _line(200, 116, 250),
             _line(75, 140, 120), _line(200, 140, 250), _line(75, 154, 120), _line(200, 154, 250)]
    region = (75, 104, 250, 162)
    assert cut_under_frames(region, lines, [band]) == [region]


def test_a_total_row_right_under_its_grid_stays_in_the_table() -> None:
    """Rows under a frame go apart only a line height or more below it: a table's total row
    and the notes under it, set close, are the table's (icdar us-009 kind)."""
    grid = (70, 100, 300, 130)
    lines = [_line(75, 104, 120), _line(200, 104, 250), _line(75, 116, 120), _line(200, 116, 250),
             _line(75, 132, 120), _line(200, 132, 250), _line(75, 144, 120), _line(320, 144, 360)]
    region = (75, 104, 360, 152)
    assert cut_under_frames(region, lines, [grid]) == [region]


def test_a_grid_open_at_its_label_column_is_no_frame() -> None:
    hs = [(70, 100, 300, 100), (70, 130, 300, 130)]
    assert closed((70, 100, 300, 130), hs, [(70, 100, 70, 130), (300, 100, 300, 130)])
    assert not closed((70, 100, 300, 130), hs, [(150, 100, 150, 130), (300, 100, 300, 130)])


def test_an_address_beside_framed_fields_is_no_row_of_them() -> None:
    """An invoice's sender address at the left, its framed fields at the right on rows of
    another pitch: the address is no row of them (and, a line to a row, no region). A label column left open beside its grid, each label level with
    a row, stays with it."""
    grid = (340, 115, 552, 195)
    cells = [_line(345, 119 + 16 * i, 420) for i in range(5)] + [_line(450, 119 + 16 * i, 520) for i in range(5)]
    address = [_line(43, 124 + 12.6 * i, 140) for i in range(6)]
    region = (43, 119, 520, 195)
    assert cut_under_frames(region, [*cells, *address], [grid]) == [(345, 119, 520, 191)]
    labels = [_line(43, 119 + 16 * i, 140) for i in range(5)]
    assert cut_under_frames(region, [*cells, *labels], [grid]) == [region]


def test_a_grid_drawn_cell_by_cell_is_a_frame() -> None:
    hs = [(x0, y, x1, y) for y in (100, 115, 130) for x0, x1 in ((70, 180), (180, 300))]
    vs = [(x, y, x, y + 15) for x in (70, 180, 300) for y in (100, 115)]
    assert closed((70, 100, 300, 130), hs, vs)
    assert not closed((70, 100, 300, 130), hs[1:], vs)  # a piece missing

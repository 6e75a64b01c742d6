"""Monospaced slides whose cells list items one a line (issue 13, zoo dev10 slide-166-hu,
slide-170-en): the first record's first line short beside the wider items under it is no
block of fields (`key_value.under_blocks`), and a word a list item's line ends with, alone past
every other line, goes back into its item (`transforms/cut_phrases`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of

_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
_MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"


def _slide(path: Path, header: tuple[str, ...], records: list, xs: tuple[float, ...], size: float,
           shade_first: bool = False, rules: bool = False) -> Path:
    """A 960 x 540 slide in DejaVu Sans Mono: a bold title and header, then each record's key,
    owner and date on its first line and its items one a line in the second column; the first
    record on a grey band (`shade_first`) or a rule under the header and under each record."""
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_font(fontname="mono", fontfile=_MONO)
    page.insert_font(fontname="monob", fontfile=_MONO_BOLD)
    pitch = 1.25 * size
    page.insert_text((40, 75), "Key indicators", fontsize=1.9 * size, fontname="monob")
    y = 120.0
    for x, text in zip(xs, header, strict=True):
        page.insert_text((x, y), text, fontsize=size, fontname="monob")
    tops = [y + 0.8 * size]
    y += 2 * size
    for i, (key, items, owner, due) in enumerate(records):
        height = pitch * len(items) + 0.6 * size
        if shade_first and i == 0:
            page.draw_rect(pymupdf.Rect(40, y - 1.2 * size, 920, y - 1.2 * size + height), color=None,
                           fill=(0.9, 0.9, 0.9))
        for x, text in ((xs[0], key), (xs[2], owner), (xs[3], due)):
            page.insert_text((x, y), text, fontsize=size, fontname="mono")
        for k, item in enumerate(items):
            page.insert_text((xs[1], y + pitch * k), item, fontsize=size, fontname="mono")
        tops.append(y - 1.2 * size + height)
        y += height + 0.4 * size
    if rules:
        for t in tops:
            page.draw_line((40, t), (920, t))
    doc.save(path)
    return path


HU_HEADER = ("Kategória", "Áttekintés", "Felelős", "Határidő")
HU_RECORDS = [("Létszám", ["• Fő mutatók", "• Létszám és keret", "• Működési költségek régiónként"], "Patakvölgy",
               "2021. 06. 27."),
              ("Értékelés", ["• Létszám és keret", "• Szállítói áttekintés"], "Királyút", "2024. 10. 18.")]
EN_HEADER = ("Category", "Outlook", "Responsible", "Due")
EN_RECORDS = [("Staffing", ["• Key figures", "• Headcount and budget", "• Operating costs per region"], "Pine Valley",
               "2024-04-13"),
              ("Procurement", ["• Supplier overview", "• Maintenance schedule"], "Glenwood", "2022-03-23")]


@pytest.mark.parametrize(("header", "records"), [(HU_HEADER, HU_RECORDS), (EN_HEADER, EN_RECORDS)])
@pytest.mark.parametrize("shade_first", [True, False])
def test_a_short_first_item_beside_wider_items_under_it_is_no_block_of_fields(
        tmp_path: Path, header, records, shade_first: bool) -> None:
    # the header and the first record's first line, the owner and date far right of a short
    # first item, made two blocks of fields side by side over lines set across them: the
    # table was read as three
    path = _slide(tmp_path / "slide.pdf", header, records, (46.0, 192.9, 578.1, 735.8), 18, shade_first)
    (table,) = tables_of(path)
    assert table.columns == header
    assert [tuple(r) for r in table.rows] == [(k, " ".join(items), o, d) for k, items, o, d in records]


TAIL_HEADER = ("Category", "Staffing", "Owner", "Due")
TAIL_RECORDS = [("Regional sales", ["• Quarterly figures by site", "• Key indicators", "• Maintenance schedule"],
                 "Redwood", "2022-01-06"),
                ("Staffing", ["• Key indicators", "• Maintenance schedule"], "Redwood", "2024-12-10")]


@pytest.mark.parametrize("rules", [True, False])
def test_a_list_items_last_word_past_every_other_line_stays_in_its_item(tmp_path: Path, rules: bool) -> None:
    # `site` alone past the other lines' ends, a monospaced space after `by`: the projection
    # parts it as a column of its own (no header, one cell), which took the word out of its
    # item and named a column ""
    path = _slide(tmp_path / "tail.pdf", TAIL_HEADER, TAIL_RECORDS, (46.0, 261.8, 587.1, 743.9), 14, rules=rules)
    (table,) = tables_of(path)
    assert table.columns == TAIL_HEADER
    assert [tuple(r) for r in table.rows] == [(k, " ".join(items), o, d) for k, items, o, d in TAIL_RECORDS]

"""A ruled header whose top box spans every figure column and holds one date per pair of
columns, over a row of units (`$000's` | `%`), then a body with group rows
(transforms/label_runs.py, headers.detect_header_rows): each date names its pair, the units
row is a header row, a group label in the first column stays a body row."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.transforms.headers import detect_header_rows
from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

DOCS = {
    "en": ("Loan type", ["12/31/2009", "12/31/2010", "6/30/2011"], ["$000's", "%"],
           [("Real estate loans", ["Residential mortgage", "Commercial mortgage", "Construction"]),
            ("Other loans", ["Consumer loans", "Leases", "All other loans"])]),
    "de": ("Kreditart", ["31.12.2021", "31.12.2022", "30.06.2023"], ["€m", "%"],
           [("Immobilienkredite", ["Wohnbau", "Gewerbebau", "Baukredite"]),
            ("Sonstige Kredite", ["Konsumkredite", "Leasing", "Übrige"])]),
}


def dated_pairs(path: Path, lang: str, one_line: bool, bold_groups: bool = False) -> Path:
    """A ruled table: the first label's box down both header rows, one box over all figure
    columns holding the dates, each centred over its pair (`one_line`: set as one text run
    padded with blanks, as a word processor sets them), the units' boxes under it; group
    rows (a label, no figures, bold with `bold_groups`) above their items."""
    stub, dates, units, groups = DOCS[lang]
    rnd = random.Random(11)
    doc = pymupdf.open()
    pg = Page(doc)
    xs = [72.0, 236.0] + [236.0 + 48.0 * (k + 1) for k in range(2 * len(dates))]
    top, h = 200.0, 15.0
    pg.box(xs[0], top, xs[1], top + 2 * h)
    pg.text(xs[0], top + h + 4, stub, 9, False, "c", xs[1] - xs[0])
    pg.box(xs[1], top, xs[-1], top + h)
    if one_line:
        text = ""
        for k, d in enumerate(dates):
            centre = (xs[1 + 2 * k] + xs[3 + 2 * k]) / 2 - xs[1]
            want = int(round((centre - 2.4 * len(d)) / 5.0))
            text += " " * max(want - len(text), 2 if text else 0) + d
        pg.page.insert_text((xs[1], top + 11), text, fontsize=9, fontname="Courier")
    else:
        for k, d in enumerate(dates):
            pg.text(xs[1 + 2 * k], top + 11, d, 9, False, "c", xs[3 + 2 * k] - xs[1 + 2 * k])
    for c in range(2 * len(dates)):
        pg.box(xs[1 + c], top + h, xs[2 + c], top + 2 * h)
        pg.text(xs[1 + c], top + h + 11, units[c % 2], 9, False, "c", xs[2 + c] - xs[1 + c])
    y = top + 2 * h
    for label, items in groups:
        for name in [label, *items]:
            pg.box(xs[0], y, xs[1], y + h)
            pg.text(xs[0] + (3 if name == label else 12), y + 11, name, 9, bold_groups and name == label)
            for c in range(2 * len(dates)):
                pg.box(xs[1 + c], y, xs[2 + c], y + h)
                if name != label:
                    v = f"{rnd.randint(50, 4999) * 1000:,}" if c % 2 == 0 else f"{rnd.uniform(0.1, 30):.1f}"
                    pg.text(xs[1 + c], y + 11, v, 9, False, "r", xs[2 + c] - xs[1 + c] - 4)
            y += h
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("one_line", [True, False])
def test_each_date_names_its_pair_over_a_units_row(tmp_path: Path, lang: str, one_line: bool) -> None:
    stub, dates, units, groups = DOCS[lang]
    (t,) = tables_of(dated_pairs(tmp_path / "dates.pdf", lang, one_line))
    assert t.columns == (stub, *[f"{d} {u}" for d in dates for u in units])
    assert [r[0] for r in t.rows] == [n for label, items in groups for n in (label, *items)]
    assert t.rows[0][1:] == ("",) * 6 and t.rows[1][2].count(".") == 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_bold_group_row_under_the_header_stays_a_body_row(tmp_path: Path, lang: str) -> None:
    stub, dates, units, groups = DOCS[lang]
    (t,) = tables_of(dated_pairs(tmp_path / "dates.pdf", lang, False, bold_groups=True))
    assert t.columns == (stub, *[f"{d} {u}" for d in dates for u in units])
    assert t.rows[0][0] == groups[0][0] and len(t.rows) == sum(1 + len(items) for _, items in groups)


def test_a_bold_group_label_under_a_named_stub_is_no_header_row() -> None:
    grid = [["Loan type", "12/31/2009", "12/31/2009", "6/30/2011", "6/30/2011"],
            ["Loan type", "$000's", "%", "$000's", "%"],
            ["Real estate loans", "", "", "", ""],
            ["Residential", "4,151,000", "25.0", "3,925,000", "24.9"],
            ["Commercial", "361,000", "2.2", "284,000", "1.8"],
            ["Consumer", "63,000", "0.4", "66,000", "0.4"],
            ["Leases", "3,508,000", "21.1", "2,780,000", "17.7"]]
    bold = [False, False, True, False, False, False, False]
    assert detect_header_rows(grid, (), bold) == 2

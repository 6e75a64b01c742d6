"""Header rows over figures: a header over figures written with a decimal comma ("1.393,4",
"(35,8)") found as a header: the header rule tells figures with either mark (`figures.is_number`), since the
document's decimal mark is not known yet when headers are read; a header row of periods
("11/12", "May/2013") over the figures, though a period reads like a date or a code."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

HEADERS = {
    "pt": ["PRODUTOS", "SAFRA", "MAIO", "JUNHO", "PERCENTUAL", "ABSOLUTA"],
    "de": ["ERZEUGNIS", "ERNTE", "MAI", "JUNI", "PROZENT", "ABSOLUT"],
    "hu": ["TERMÉK", "TERMÉS", "MÁJUS", "JÚNIUS", "SZÁZALÉK", "ABSZOLÚT"],
}
NAMES = ["COTTON", "TOTAL PEANUT", "PEANUT 1ST CROP", "RICE", "TOTAL BEANS", "BEANS 1ST CROP", "MAIZE"]


def _figure(rnd: random.Random) -> str:
    v = rnd.choice((rnd.uniform(-60, 60), rnd.uniform(100, 3000)))
    whole, frac = f"{abs(v):,.1f}".split(".")
    text = f"{whole.replace(',', '.')},{frac}"
    return f"({text})" if v < 0 else text


def comma_table(path: Path, lang: str) -> Path:
    """A ruled table set in bold throughout (no typography tells the header), figures with a
    decimal comma."""
    rnd = random.Random(11)
    doc = pymupdf.open()
    pg = Page(doc)
    xs, top, h = [60.0, 200.0, 262.0, 324.0, 386.0, 448.0, 510.0], 100.0, 15.0
    rows = [HEADERS[lang]] + [[n, *[_figure(rnd) for _ in range(5)]] for n in NAMES]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            pg.box(xs[c], top + r * h, xs[c + 1], top + (r + 1) * h)
            if c == 0:
                pg.text(xs[c] + 3, top + r * h + 11, text, 8, True)
            else:
                pg.text(xs[c], top + r * h + 11, text, 8, True, "r", xs[c + 1] - xs[c] - 4)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["pt", "de", "hu"])
def test_header_over_decimal_comma_figures(tmp_path: Path, lang: str) -> None:
    (t,) = tables_of(comma_table(tmp_path / "comma.pdf", lang))
    assert t.columns == tuple(HEADERS[lang])
    assert [r[0] for r in t.rows] == NAMES


PERIODS = {
    "en": (["HARVEST", "HARVEST", "CHANGE", "CHANGE"], ["11/12 (a)", "May/2013 (b)", "Percent", "Absolute"]),
    "pt": (["SAFRA", "SAFRA", "VARIAÇÃO", "VARIAÇÃO"], ["11/12", "Mai/2013", "Percentual", "Absoluta"]),
    "de": (["ERNTE", "ERNTE", "ABWEICHUNG", "ABWEICHUNG"], ["11/12", "Juni 2013", "Prozent", "Absolut"]),
}


def period_table(path: Path, lang: str) -> Path:
    """A ruled table whose second header row names periods over the figures (a crop year
    "11/12", a month and year), in the body's type, the group labels over them boxed as pairs."""
    groups, periods = PERIODS[lang]
    rnd = random.Random(4)
    doc = pymupdf.open()
    pg = Page(doc)
    xs, top, h = [60.0, 200.0, 270.0, 340.0, 410.0, 480.0], 100.0, 15.0
    rows = [["PRODUCT", *groups], ["", *periods]] + [[n, *[_figure(rnd) for _ in range(4)]] for n in NAMES]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            pg.box(xs[c], top + r * h, xs[c + 1], top + (r + 1) * h)
            if c == 0:
                pg.text(xs[c] + 3, top + r * h + 11, text, 8)
            else:
                pg.text(xs[c], top + r * h + 11, text, 8, False, "r", xs[c + 1] - xs[c] - 4)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "pt", "de"])
def test_period_labels_over_figures_are_a_header_row(tmp_path: Path, lang: str) -> None:
    groups, periods = PERIODS[lang]
    (t,) = tables_of(period_table(tmp_path / "periods.pdf", lang))
    assert t.columns == ("PRODUCT", *[f"{g} {p}" for g, p in zip(groups, periods, strict=True)])
    assert [r[0] for r in t.rows] == NAMES

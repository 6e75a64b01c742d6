"""A header over figures written with a decimal comma ("1.393,4", "(35,8)") found as a header:
the header rule tells figures with either mark (transforms/headers._numeric), since the
document's decimal mark is not known yet when headers are read."""

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

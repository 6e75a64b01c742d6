"""A key a little too long for its ruled column runs over the column rule: it stays whole in
its cell and its value keeps its own (finder/rule_crossers.py through the PyMuPDF layer)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page, put, width

ENGLISH = [("Quote no.", "Q-2026-0412"), ("Customer", "Müller GmbH"), ("Valid until", "31.12.2026"),
           ("Payment terms", "30 days net"), ("Contact", "Anna Weiß")]
GERMAN = [("Angebotsnummer", "A-2026-118"), ("Kunde", "Bäckerei Weiß"), ("Gültigkeitsdatum", "15.01.2027"),
          ("Zahlungsbedingungen", "14 Tage netto"), ("Ansprechpartner", "Jürgen Öztürk")]


def _form(path: Path, rows: list[tuple[str, str]], over: float) -> list[list[list[str]]]:
    """A ruled two-column form; the longest key runs `over` points past the column rule, each
    value starts 4 points right of it."""
    doc = pymupdf.open()
    page = new_page(doc)
    longest = max(width(k) for k, _ in rows)
    x1 = 72 + 4 + longest - over
    xs, ys = (72, x1, x1 + 120), [100 + 16 * i for i in range(len(rows) + 1)]
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for i, (key, value) in enumerate(rows):
        put(page, xs[0] + 4, ys[i] + 11, key)
        put(page, xs[1] + 4, ys[i] + 11, value)
    return grids(doc, path)


@pytest.mark.parametrize("rows", [ENGLISH, GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("over", [1.5, 3.0])  # at 3.0 the key's end and its value are one word
def test_key_over_the_column_rule_stays_whole(tmp_path: Path, rows: list[tuple[str, str]], over: float) -> None:
    (grid,) = _form(tmp_path / "form.pdf", rows, over)
    assert [tuple(r) for r in grid] == rows


def test_keys_inside_their_column_read_as_before(tmp_path: Path) -> None:
    (grid,) = _form(tmp_path / "form.pdf", ENGLISH, -6.0)
    assert [tuple(r) for r in grid] == ENGLISH

"""Group labels centred over pairs of year columns, with a title ending in a colon set in the
label column on the same line (transforms/spanners.span_group_labels): the title is no key of a
data row, each group label names the two year columns under it."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import TransformConfig
from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.assemble import assemble_tables
from tests.transforms.builders import pages
from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

DOCS = {
    "en": ("World capacity:", ["Fused oxide", "Silicon carbide"], ["2009", "2010"],
           ["United States", "Argentina", "Australia", "Brazil", "China", "France", "Germany"]),
    "de": ("Weltkapazität:", ["Schmelzkorund", "Siliziumkarbid"], ["2019", "2020"],
           ["Österreich", "Belgien", "Dänemark", "Spanien", "Italien", "Ungarn", "Polen"]),
}


def titled_pairs(path: Path, lang: str) -> Path:
    """A borderless table under a rule: the title at the label column's left, each group label
    centred over its pair of year columns on the title's line, the years under them, then
    names with figures set flush right (a dash where there is none)."""
    title, groups, years, names = DOCS[lang]
    rnd = random.Random(3)
    doc = pymupdf.open()
    pg = Page(doc)
    xs = [50.0, 200.0, 290.0, 380.0, 470.0, 560.0]
    top = 150.0
    pg.rule(xs[0], top - 12, xs[-1])
    pg.text(xs[0], top, title, 9)
    for g, label in enumerate(groups):
        pg.text(xs[1 + 2 * g], top, label, 9, False, "c", xs[3 + 2 * g] - xs[1 + 2 * g])
    for c in range(4):
        pg.text(xs[1 + c], top + 13, years[c % 2], 9, False, "r", xs[2 + c] - xs[1 + c] - 10)
    pg.rule(xs[0], top + 17, xs[-1])
    for r, name in enumerate(names):
        y = top + 31 + 13 * r
        pg.text(xs[0], y, name, 9)
        for c in range(4):
            v = "—" if (r + c) % 5 == 0 else f"{rnd.randint(5, 900) * 1000:,}"
            pg.text(xs[1 + c], y, v, 9, False, "r", xs[2 + c] - xs[1 + c] - 10)
    pg.rule(xs[0], top + 35 + 13 * len(names), xs[-1])
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_group_labels_beside_a_titled_label_column_name_their_pairs(tmp_path: Path, lang: str) -> None:
    title, groups, years, names = DOCS[lang]
    (t,) = tables_of(titled_pairs(tmp_path / "pairs.pdf", lang))
    assert t.columns[1:] == tuple(f"{g} {y}" for g in groups for y in years)
    assert [r[0] for r in t.rows] == names


# The same header as a table finder hands it with the group labels in the second column of
# their pair (a centred label's text falls mostly there) and every header cell flagged: the
# labels are moved over their pairs from where they stand, the title notwithstanding.
EDGES = [45.0, 196.0, 292.0, 392.0, 483.0, 545.0]
LABEL_X = [(275.0, 365.0), (460.0, 518.0)]


def _finder_piece(lang: str) -> tuple[RawTable, list[TextLine]]:
    title, groups, years, names = DOCS[lang]
    top, mid, bottom, h = 202.0, 223.0, 234.0, 11.0
    lines = [TextLine(page=1, bbox=(48.0, 205.0, 150.0, 216.0), text=title)]
    lines += [TextLine(page=1, bbox=(a, 205.0, b, 216.0), text=g) for g, (a, b) in zip(groups, LABEL_X, strict=True)]
    cells = [Cell(row=0, col=c, page=1, is_header=True, text={0: title, 2: groups[0], 4: groups[1]}.get(c, ""),
                  bbox=(EDGES[c], top, EDGES[c + 1], mid)) for c in range(5)]
    cells += [Cell(row=1, col=c, page=1, is_header=True, text=years[(c - 1) % 2] if c else "",
                   bbox=(EDGES[c], mid, EDGES[c + 1], bottom)) for c in range(5)]
    lines += [TextLine(page=1, bbox=(EDGES[c + 1] - 30.0, 224.0, EDGES[c + 1] - 8.0, 233.0), text=years[(c - 1) % 2])
              for c in range(1, 5)]
    rnd = random.Random(4)
    for r, name in enumerate(names):
        y = bottom + r * h
        values = [name, *[f"{rnd.randint(5, 900) * 1000:,}" for _ in range(4)]]
        for c, v in enumerate(values):
            cells.append(Cell(row=r + 2, col=c, page=1, text=v, bbox=(EDGES[c], y, EDGES[c + 1], y + h)))
            x0 = EDGES[0] + 3.0 if c == 0 else EDGES[c + 1] - 8.0 - 5.0 * len(v)
            lines.append(TextLine(page=1, bbox=(x0, y + 1, x0 + 5.0 * len(v), y + 10), text=v))
    piece = RawTable(piece_id="e" * 12 + ":p1.1", doc_id="e" * 64, page=1,
                     bbox=(EDGES[0], top, EDGES[-1], bottom + len(names) * h), n_rows=2 + len(names),
                     n_cols=5, cells=tuple(cells), extractor="pymupdf", extractor_version="0")
    return piece, lines


@pytest.mark.parametrize("lang", ["en", "de"])
def test_group_labels_read_into_the_second_column_of_their_pair_name_it(lang: str) -> None:
    title, groups, years, names = DOCS[lang]
    piece, lines = _finder_piece(lang)
    (t,) = assemble_tables("e" * 64, "x.pdf", [piece], lines, pages(1), TransformConfig())
    assert t.columns == (title, *[f"{g} {y}" for g in groups for y in years])
    assert [r[0] for r in t.rows] == names

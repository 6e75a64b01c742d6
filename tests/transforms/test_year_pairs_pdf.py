"""A two-row header ruled as boxes over a body ruled between rows only (no column rules): years centred over
`N` / `% Pos` pairs, the first columns' labels centred down both rows, the later years' figures given
as dashes (transforms/stacked_labels.py, figures.figure_columns): each year names its pair."""

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

LABELS = {
    "en": (["Country", "Sample unit", "Sample size"], ["N", "% Pos"],
           ["Austria", "Germany", "Spain", "Italy", "Hungary", "Romania"]),
    "de": (["Land", "Einheit", "Menge"], ["N", "% pos."],
           ["Österreich", "Deutschland", "Spanien", "Italien", "Ungarn", "Rumänien"]),
}
YEARS = ["2007", "2006", "2005", "2004", "2003"]


def year_pairs(path: Path, lang: str, dashes: bool) -> Path:
    """Three label columns, then an `N` / `% Pos` pair per year; the header ruled as boxes
    (the first labels' boxes down both rows, a year's box over its pair), the body framed and
    ruled between rows, no rule between its columns, its figures set flush right."""
    firsts, subs, names = LABELS[lang]
    rnd = random.Random(5)
    doc = pymupdf.open()
    pg = Page(doc)
    xs = [85.0, 135.0, 180.0, 225.0] + [225.0 + 28.5 * (k + 1) for k in range(2 * len(YEARS))]
    top, band, h = 123.0, 22.5, 14.0
    for c in range(3):  # the first labels fill both header rows, centred down them
        pg.box(xs[c], top, xs[c + 1], top + 2 * band)
        words = firsts[c].split()
        for i, w in enumerate(words):
            pg.text(xs[c], top + band + 3 + 9 * (i - (len(words) - 1) / 2), w, 8, True, "c", xs[c + 1] - xs[c])
    for k, year in enumerate(YEARS):
        x0, x1 = xs[3 + 2 * k], xs[5 + 2 * k]
        pg.box(x0, top, x1, top + band)
        pg.text(x0, top + 14, year, 8, True, "c", x1 - x0)
        for s, sub in enumerate(subs):
            a, b = xs[3 + 2 * k + s], xs[4 + 2 * k + s]
            pg.box(a, top + band, b, top + 2 * band)
            pg.text(a, top + band + 14, sub, 8, True, "c", b - a)
    y = top + 2 * band
    for r, name in enumerate(names):
        cells = [name, "Single", "25g"]
        for k in range(len(YEARS)):
            gone = dashes and k >= 3 and r % 3 != 1  # most of the later years not surveyed
            cells += ["-", "-"] if gone else [str(rnd.randint(30, 460)), f"{rnd.uniform(0, 3):.1f}"]
        for c, text in enumerate(cells):
            if c == 0:
                pg.text(xs[0] + 3, y + 10, text, 8)
            else:
                pg.text(xs[c], y + 10, text, 8, False, "r", xs[c + 1] - xs[c] - 4)
        pg.rule(xs[0], y + h, xs[-1])
        for x in (xs[0], xs[-1]):  # the frame's sides; no rule between the body's columns
            pg.page.draw_line((x, y), (x, y + h), width=0.5)
        y += h
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("dashes", [False, True])
def test_years_name_their_pairs(tmp_path: Path, lang: str, dashes: bool) -> None:
    firsts, subs, names = LABELS[lang]
    (t,) = tables_of(year_pairs(tmp_path / "years.pdf", lang, dashes))
    assert t.columns == (*firsts, *[f"{y} {s}" for y in YEARS for s in subs])
    assert [r[0] for r in t.rows] == names


# The same header as a text reader hands it when the body has no column rules: the columns
# come from the body's text, the first pair's column is read as one cell down both header rows
# ("2007" over "N"), the later years land in the second column of their pair, and most of their
# figures are dashes. Geometry as printed (x of each column edge, each label's line).
EDGES = [85, 142, 183, 222, 263, 284, 320, 341, 377, 396, 421, 453, 477, 510]
YEAR_X = [(245, 263), (302, 319), (359, 376), (415, 433), (472, 490)]
SUB_X = [(237, 242), (257, 278), (294, 299), (314, 335), (350, 356), (371, 392), (407, 413), (428, 449),
         (464, 470), (485, 506)]


def _text_read_piece(lang: str) -> tuple[RawTable, list[TextLine]]:
    firsts, subs, names = LABELS[lang]
    top, mid, bottom, h = 123.0, 145.0, 168.0, 14.0
    lines = [TextLine(page=1, bbox=(float(a), 129.0, float(b), 139.0), text=y, bold=True)
             for y, (a, b) in zip(YEARS, YEAR_X, strict=True)]
    lines += [TextLine(page=1, bbox=(float(a), 152.0, float(b), 162.0), text=subs[k % 2], bold=True)
              for k, (a, b) in enumerate(SUB_X)]
    lines += [TextLine(page=1, bbox=(EDGES[c] + 8.0, 140.0, EDGES[c] + 40.0, 150.0), text=t, bold=True)
              for c, t in enumerate(firsts)]
    head = {3: f"{YEARS[0]} {subs[0]}", 5: YEARS[1], 7: YEARS[2], 10: YEARS[3], 12: YEARS[4]}
    cells = [Cell(row=0, col=c, row_span=2 if c <= 3 else 1, page=1, is_header=True,
                  text=firsts[c] if c < 3 else head.get(c, ""),
                  bbox=(EDGES[c], top, EDGES[c + 1], bottom if c <= 3 else mid)) for c in range(13)]
    cells += [Cell(row=1, col=c, page=1, is_header=True, text=subs[(c - 3) % 2],
                   bbox=(EDGES[c], mid, EDGES[c + 1], bottom)) for c in range(4, 13)]
    rnd = random.Random(2)
    for r, name in enumerate(names):
        y = bottom + r * h
        values = [name, "Single", "25g"]
        for k in range(len(YEARS)):
            values += ["-", "-"] if k >= 3 and r % 3 != 1 else [str(rnd.randint(30, 460)), f"{rnd.uniform(0, 3):.1f}"]
        for c, v in enumerate(values):
            cells.append(Cell(row=r + 2, col=c, page=1, text=v, bbox=(EDGES[c], y, EDGES[c + 1], y + h)))
            x1 = EDGES[c + 1] - 3.0
            lines.append(TextLine(page=1, bbox=(x1 - 5.0 * len(v), y + 2, x1, y + 12), text=v))
    piece = RawTable(piece_id="d" * 12 + ":p1.1", doc_id="d" * 64, page=1,
                     bbox=(85.0, top, 510.0, bottom + len(names) * h), n_rows=2 + len(names),
                     n_cols=13, cells=tuple(cells), extractor="pymupdf", extractor_version="0")
    return piece, lines


@pytest.mark.parametrize("lang", ["en", "de"])
def test_years_read_into_the_wrong_cells_name_their_pairs(lang: str) -> None:
    firsts, subs, names = LABELS[lang]
    piece, lines = _text_read_piece(lang)
    (t,) = assemble_tables("d" * 64, "x.pdf", [piece], lines, pages(1), TransformConfig())
    assert t.columns == (*firsts, *[f"{y} {s}" for y in YEARS for s in subs])
    assert [r[0] for r in t.rows] == names and t.rows[0][-1] == "-"

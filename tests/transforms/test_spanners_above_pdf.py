"""Group labels set over a ruled table's header, outside its rules (transforms/spanner_above.py),
and a header box over two columns holding one label for each (transforms/spanned_labels.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

HEADS = {
    "es": ("Partida", "Descripción", ["TM", "M.U$S"], ["2021", "2022", "2023", "2024"]),
    "en": ("Code", "Description", ["Tonnes", "USD k"], ["2021", "2022", "2023", "2024"]),
    "de": ("Nr.", "Bezeichnung", ["Menge", "Wert"], ["Nord", "Süd", "Ost", "West"]),
}


def year_pairs(path: Path, lang: str, groups_above: bool = True, one_header_box: bool = True) -> Path:
    """A ruled table: a code and a description column, then a pair of sub-columns per group;
    the group labels stand over the pairs above the table's top rule (`groups_above`); the
    code and description labels share one header box (`one_header_box`)."""
    code, desc, subs, groups = HEADS[lang]
    rnd = random.Random(7)
    doc = pymupdf.open()
    pg = Page(doc)
    xs = [40.0, 80.0, 200.0] + [200.0 + 48.0 * (k + 1) for k in range(2 * len(groups))]
    top, h = 120.0, 16.0
    if groups_above:
        for g, label in enumerate(groups):
            pg.text(xs[2 + 2 * g], top - 5, label, 8, True, "c", xs[4 + 2 * g] - xs[2 + 2 * g])
    body = [[f"{301 + i:04d}", f"Item {chr(65 + i)} goods", *[f"{rnd.randint(1, 999)}" for _ in subs * len(groups)]]
            for i in range(6)]
    rows = [[code, desc, *subs * len(groups)], *body]
    for r, row in enumerate(rows):
        y0 = top + r * h
        for c in range(len(xs) - 1):
            if r == 0 and one_header_box and c == 1:
                continue
            x1 = xs[2] if r == 0 and one_header_box and c == 0 else xs[c + 1]
            pg.box(xs[c], y0, x1, y0 + h)
        for c, text in enumerate(row):
            right = c >= 2
            pg.text(xs[c] + (0 if right else 3), y0 + 11.5, text, 8, r == 0, "r" if right else "l",
                    xs[c + 1] - xs[c] - 3)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["es", "en", "de"])
def test_group_labels_over_unit_pairs_fold_into_the_names(tmp_path: Path, lang: str) -> None:
    code, desc, subs, groups = HEADS[lang]
    (t,) = tables_of(year_pairs(tmp_path / "pairs.pdf", lang))
    assert t.columns == (code, desc, *[f"{g} {s}" for g in groups for s in subs])
    assert len(t.rows) == 6 and t.rows[0][:2] == ("0301", "Item A goods")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_without_group_labels_the_pairs_keep_their_own_names(tmp_path: Path, lang: str) -> None:
    code, desc, subs, groups = HEADS[lang]
    (t,) = tables_of(year_pairs(tmp_path / "pairs.pdf", lang, groups_above=False))
    assert t.columns == (code, desc, *subs * len(groups))


def test_a_header_box_over_two_labelled_columns_is_two_names(tmp_path: Path) -> None:
    (t,) = tables_of(year_pairs(tmp_path / "pairs.pdf", "en", groups_above=False, one_header_box=True))
    assert t.columns[:2] == ("Code", "Description")
    (u,) = tables_of(year_pairs(tmp_path / "boxes.pdf", "en", groups_above=False, one_header_box=False))
    assert u.columns[:2] == ("Code", "Description")


def one_group(path: Path, label: str | None, title: str | None = None) -> Path:
    """A ruled table: a row-label column and three figure columns with two-line headers; one
    group `label` centred over the three figure columns above the top rule; a short `title`
    centred over the whole table above that."""
    doc = pymupdf.open()
    pg = Page(doc)
    xs = [60.0, 260.0, 340.0, 420.0, 500.0]
    top, h = 140.0, 16.0
    if title:
        pg.text(xs[0], top - 30, title, 9, True, "c", xs[-1] - xs[0])
    if label:
        pg.text(xs[1], top - 5, label, 8, False, "c", xs[-1] - xs[1])
    head = [("", ""), ("Preparation and", "planning"), ("Production of", "materials"), ("Presentation", "and review")]
    body = [["Knowledge of other cultures", "0,2885", "0,3974", "0,3904"],
            ["Foreign language competence", "0,3057", "0,4184", "0,3899"],
            ["Social skills and abilities", "0,3416", "0,3369", "0,4303"],
            ["Self competence", "0,3791", "0,3320", "0,4617"]]
    for c in range(4):
        pg.box(xs[c], top, xs[c + 1], top + 2 * h)
        for k, line in enumerate(head[c]):
            pg.text(xs[c], top + 11.5 + 10 * k, line, 8, False, "c", xs[c + 1] - xs[c])
    for r, row in enumerate(body):
        y0 = top + 2 * h + r * h
        for c, text in enumerate(row):
            pg.box(xs[c], y0, xs[c + 1], y0 + h)
            pg.text(xs[c] + 3, y0 + 11.5, text, 8, False, "l" if c == 0 else "c", xs[c + 1] - xs[c] - 3)
    return _save(doc, path)


SUBS = ("Preparation and planning", "Production of materials", "Presentation and review")


def test_one_group_label_over_all_figure_columns_folds_into_their_names(tmp_path: Path) -> None:
    (t,) = tables_of(one_group(tmp_path / "one.pdf", "Involvement of pupils in"))
    assert t.columns == ("", *[f"Involvement of pupils in {s}" for s in SUBS])
    assert len(t.rows) == 4 and t.rows[0] == ("Knowledge of other cultures", "0,2885", "0,3974", "0,3904")


def test_a_title_over_the_whole_table_is_no_group_label(tmp_path: Path) -> None:
    (t,) = tables_of(one_group(tmp_path / "title.pdf", None, "Table 5. Outcomes"))
    assert t.columns == ("", *SUBS)

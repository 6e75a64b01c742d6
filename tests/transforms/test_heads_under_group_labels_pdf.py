"""A header's second row of heads that read like figures, under group labels centred over
them: grade or age ranges (`PK–12 | PK–8 | 9–12`, `0-4 | 5-14`) where `9–12` reads like a
code, and numeric heads sorted ascending (`1.0 | 1.1 | ... | 1.6`) over a body of other figures.
Each row is the header's, the group labels head their own sub-columns, and the stub (the
first column, its name beside the heads and its row keys figures: years, proportions) stays
out of every group."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save, group_columns, group_labels

RANGES = {
    "grades": ("Year", ["Total", "Public", "Private"], ["PK–12", "PK–8", "9–12"]),
    "ages": ("Year", ["Both sexes", "Men", "Women"], ["0-4", "5-14", "15-64"]),
}


def grouped_table(path: Path, stub: str, groups: list[str], heads: list[str],
                  body: list[list[str]], width: float = 52.0, section: str = "") -> Path:
    """A borderless table under booktabs rules: group labels centred over their sub-columns
    (a short rule under each), a row of heads in the body's regular type, the stub's name
    beside them, a blank line over the stub (nothing spans it); `section`, a line centred
    over the figure columns before the body's rows."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 80, "Table 3. Enrollment by group", 10, True)
    per = len(heads) // len(groups)
    cols = group_columns(70, len(groups), per, width, 8)
    right = cols[-1][1]
    pg.rule(LEFT, 90, right, 1.0)
    group_labels(pg, cols, groups, per, 103, 8, False)
    y = 119
    for i, label in enumerate([stub, *heads]):
        a, b = cols[i]
        pg.text(a, y, label, 8, False, "l" if i == 0 else "r", b - a - 6)
    pg.rule(LEFT, y + 5, right)
    if section:
        y += 13
        pg.text(cols[1][0], y, section, 8, False, "c", right - cols[1][0])
    for row in body:
        y += 13
        for i, t in enumerate(row):
            a, b = cols[i]
            pg.text(a, y, t, 8, False, "l" if i == 0 else "r", b - a - 6)
    pg.rule(LEFT, y + 6, right, 1.0)
    return _save(doc, path)


@pytest.mark.parametrize("kind", sorted(RANGES))
def test_range_heads_under_group_labels(tmp_path: Path, kind: str) -> None:
    """Ranges name their columns, each under its own group label; `Year` heads the stub alone."""
    stub, groups, ranges = RANGES[kind]
    rnd = random.Random(3)
    years = [str(1996 + i) for i in range(8)]
    body = [[y, *[f"{rnd.randint(1000, 60000):,}" for _ in range(9)]] for y in years]
    (t,) = tables_of(grouped_table(tmp_path / "ranges.pdf", stub, groups, ranges * 3, body))
    assert t.columns == (stub, *[f"{g} {r}" for g in groups for r in ranges])
    assert [r[0] for r in t.rows] == years
    assert t.rows[0][1:] == tuple(body[0][1:])


@pytest.mark.parametrize("label", ["Design effect", "Design         effect"])
def test_sorted_numeric_heads_under_a_group_label(tmp_path: Path, label: str) -> None:
    """`Proportion | 1.0 | 1.1 | ... | 1.6` under `Design effect`, over rows keyed by other
    figures (`0.99`, `0.95`): the heads' row is the header's, the group label whole over all
    seven heads, also when set wide (its words fall in two columns with an empty one between)."""
    heads = [f"1.{k}" for k in range(7)]
    keys = ["0.99", "0.95", "0.90", "0.85", "0.80", "0.75"]
    base = [800, 160, 71, 40, 26, 18]
    body = [[k, *[f"{round(b * (1 + i / 10)):,}" for i in range(7)]] for k, b in zip(keys, base, strict=True)]
    (t,) = tables_of(grouped_table(tmp_path / "heads.pdf", "Proportion", [label], heads, body, 40.0))
    assert t.columns == ("Proportion", *[f"Design effect {h}" for h in heads])
    assert [r[0] for r in t.rows] == keys
    assert t.rows[0][1] == "800"


def test_a_row_of_rising_figures_like_the_body_stays_data(tmp_path: Path) -> None:
    """A first body row whose figures happen to rise (`80 | 170 | 2500 | 2700`), under period
    labels shared by pairs of columns, is data: its figures are written as those under them."""
    groups, heads = ["Franchisors", "Franchisees"], ["1993", "1994", "1993", "1994"]
    body = [["Austria", "80", "170", "2500", "2700"], ["Belgium", "90", "135", "3200", "2495"],
            ["Denmark", "42", "42", "500", "500"], ["France", "500", "500", "30000", "30000"]]
    (t,) = tables_of(grouped_table(tmp_path / "pairs.pdf", "Country", groups, heads, body))
    assert t.columns == ("Country", *[f"{g} {h}" for g in groups for h in heads[:2]])
    assert [r[0] for r in t.rows] == [r[0] for r in body]


def test_a_line_under_numeric_heads_opens_the_body(tmp_path: Path) -> None:
    """`Source | 1 | 2 | 3 | 4` under `Lead time (years)`, then a line centred over the figure
    columns that names what the rows below hold: the heads end the header, the line is no
    header row (its words fold into no column name)."""
    heads = ["1", "2", "3", "4"]
    keys = ["Projections to 2017", "Projections to 2018", "Projections to 2019", "Projections to 2020"]
    body = [[k, *[f"{0.3 * (i + 1) + j / 10:.1f}" for i in range(4)]] for j, k in enumerate(keys)]
    line = "Absolute difference in percent"
    (t,) = tables_of(grouped_table(tmp_path / "lead.pdf", "Source", ["Lead time (years)"], heads, body, 60.0, line))
    assert t.columns == ("Source", *[f"Lead time (years) {h}" for h in heads])
    assert [r[0] for r in t.rows if r[0]] == keys

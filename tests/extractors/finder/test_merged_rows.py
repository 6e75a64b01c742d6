"""Tables ruled between their rows only, with cells merged down over several rows (the rule
between them left out under the merged column) and words merged across the amount columns:
each merged text is repeated into every row and column it covers (CONTRACT, tables.jsonl),
whether printed at the top of its rows or centred on them; a value alone in its own column,
and labels beside a subtotal rule drawn over the amounts only, stay where they are."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

COLS = [(60, 170), (170, 290), (290, 380), (380, 470), (470, 550)]
HEAD = ["Benefit", "Item", "Margin", "Volume", "Score"]
# (benefit, item, figures or one word merged across the figures); a benefit None: merged from above
ROWS = [("Dental", "fillings", ("51,507", "29,364", "3,081")),
        (None, "crowns", ("76,234", "90,303", "98,001")),
        (None, "cleaning", "on request"),
        (None, "bridges", ("35,745", "3,563", "13,037")),
        ("Hospital", "surgery", ("2,016", "34,162", "25,011")),
        (None, "outpatient", ("27,612", "5,102", "18,789")),
        ("Maternity", "delivery", ("29,247", "26,040", "52,481"))]
STEP = 16.0
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"


def _rules_between_rows(path: Path, centred: bool) -> Path:
    """The schedule: a rule under every row, left out under a benefit merged down into the
    next; a benefit printed in its first row or centred on its rows."""
    doc = pymupdf.open()
    pg = Page(doc)
    top = 100.0
    for (a, b), h in zip(COLS, HEAD, strict=True):
        pg.text(a + 4, top + 11, h, 8, True, "l" if a < 290 else "r", b - a - 8)
    pg.rule(COLS[0][0], top, COLS[-1][1], 0.8)
    pg.rule(COLS[0][0], top + STEP, COLS[-1][1], 0.8)
    starts = [i for i, r in enumerate(ROWS) if r[0]]
    for i, (benefit, item, figs) in enumerate(ROWS):
        y = top + STEP * (i + 1)
        if benefit:
            end = next((s for s in starts if s > i), len(ROWS))
            mid = y + STEP * (end - i) / 2 + 3 if centred else y + 11
            pg.text(COLS[0][0] + 4, mid, benefit, 8)
        pg.text(COLS[1][0] + 4, y + 11, item, 8)
        if isinstance(figs, str):
            pg.text(COLS[2][0], y + 11, figs, 8, False, "c", COLS[-1][1] - COLS[2][0])
        else:
            for (a, b), f in zip(COLS[2:], figs, strict=True):
                pg.text(a + 4, y + 11, f, 8, False, "r", b - a - 8)
        merged_on = i + 1 < len(ROWS) and ROWS[i + 1][0] is None
        pg.rule(COLS[1][0] if merged_on else COLS[0][0], y + STEP, COLS[-1][1], 0.5)
    return _save(doc, path)


def _expected() -> list[tuple[str, ...]]:
    out, benefit = [], ""
    for b, item, figs in ROWS:
        benefit = b or benefit
        out.append((benefit, item, *((figs,) * 3 if isinstance(figs, str) else figs)))
    return out


def test_merged_benefit_printed_at_the_top_is_repeated_down(tmp_path: Path) -> None:
    (t,) = tables_of(_rules_between_rows(tmp_path / "top.pdf", centred=False))
    assert t.columns == tuple(HEAD)
    assert list(t.rows) == _expected()


def test_merged_benefit_centred_on_its_rows_is_repeated_down(tmp_path: Path) -> None:
    (t,) = tables_of(_rules_between_rows(tmp_path / "centred.pdf", centred=True))
    assert t.columns == tuple(HEAD)
    assert list(t.rows) == _expected()


def test_labels_beside_a_subtotal_rule_and_a_lone_value_stay_put(tmp_path: Path) -> None:
    """A rule over the amounts only (a subtotal line) leaves the labels column open between two
    labelled rows: two texts, two cells. A value alone in its row sits right-aligned like its
    column's others: it is that column's value, not a word merged across the row."""
    doc = pymupdf.open()
    pg = Page(doc)
    cols = [(60, 200), (200, 300), (300, 400), (400, 500)]
    rows = [["Region", "Q1", "Q2", "Q3"], ["North", "1,204", "1,388", "1,412"],
            ["South", "", "2,051", ""], ["West", "3,310", "3,004", "3,118"], ["Total", "7,920", "8,443", "8,102"]]
    top = 100.0
    pg.rule(60, top, 500, 0.8)
    for i, row in enumerate(rows):
        y = top + STEP * i
        for (a, b), text in zip(cols, row, strict=True):
            pg.text(a + 4, y + 11, text, 8, i == 0, "l" if a == 60 else "r", b - a - 8)
        pg.rule(200 if i == len(rows) - 2 else 60, y + STEP, 500, 0.5)
    (t,) = tables_of(_save(doc, tmp_path / "subtotal.pdf"))
    assert t.columns == tuple(rows[0])
    assert [list(r) for r in t.rows] == rows[1:]


SITES = [("North Ridge store", [("Outpatient", ["diagnostics", "consultation", "medication"]),
                                ("Hospital", ["ambulance"])]),
         ("Millbrook office", [("Maternity", ["prenatal care", "delivery"])])]


def test_two_merged_columns_centred_under_rules_drawn_a_piece_per_column(tmp_path: Path) -> None:
    """A site merged over its categories, each category over its items, every text centred on
    its rows; the rules between rows drawn a piece per column, the pieces under merged cells
    left out. The site column, empty but for two texts, stays a column of its own (the rule
    pieces end at its edge), and a text centred on a rule (read as a line of its own) is no row."""
    cols = [(60, 170), (172, 262), (264, 364), (366, 446)]
    doc = pymupdf.open()
    pg = Page(doc)
    top = 100.0
    for (a, b), h in zip(cols, ["Site", "Section", "Detail", "Volume"], strict=True):
        pg.text(a + 2, top + 11, h, 8, True, "r" if a == 366 else "l", b - a - 4)
    for a, b in cols:
        pg.rule(a, top, b, 0.8)
        pg.rule(a, top + STEP, b, 0.8)
    rows, y, n = [], top + STEP, 0
    for site, groups in SITES:
        items = sum(len(i) for _, i in groups)
        pg.text(cols[0][0] + 2, y + STEP * items / 2 + 3, site, 8)
        for k, (section, details) in enumerate(groups):
            pg.text(cols[1][0] + 2, y + STEP * len(details) / 2 + 3, section, 8)
            for m, detail in enumerate(details):
                n += 1
                volume = f"{n * 1117:,}"
                pg.text(cols[2][0] + 2, y + 11, detail, 8)
                pg.text(cols[3][0] + 2, y + 11, volume, 8, False, "r", cols[3][1] - cols[3][0] - 4)
                rows.append([site, section, detail, volume])
                last_item, last_group = m == len(details) - 1, k == len(groups) - 1
                for j, (a, b) in enumerate(cols):
                    if j == 0 and not (last_item and last_group) or j == 1 and not last_item:
                        continue
                    pg.rule(a, y + STEP, b, 0.5)
                y += STEP
    (t,) = tables_of(_save(doc, tmp_path / "sites.pdf"))
    assert t.columns == ("Site", "Section", "Detail", "Volume")
    assert [list(r) for r in t.rows] == rows


def test_stub_at_the_foot_of_a_spanned_header_stays_in_its_row(tmp_path: Path) -> None:
    """Group labels underlined over their columns, not over the stub: the stub column runs on
    unruled between the two header rows, but its name printed in the lower row is where it
    stays (no merged cell printed at its foot)."""
    from tests.transforms.surroundings_docs import spanner_table

    (t,) = tables_of(spanner_table(tmp_path / "spanner.pdf", "en"))
    assert len(t.header_grid) == 2
    assert t.header_grid[0][0] == ""
    assert t.header_grid[1][0] == t.columns[0] != ""


def _site_over_categories(path: Path) -> tuple[Path, list[list[str]]]:
    """A site merged over two categories of three items, each text centred on its rows: the
    site's line lands on the rule under the first category, so its row reaches past that rule;
    the rules run from the item column, the one under a category from the category column.
    The last row's `included in price` is centred over the two figure columns and starts level
    with the percents above it (all of one width, set right)."""
    from tests.transforms.surroundings_docs import DEJAVU

    font = pymupdf.Font(fontfile=str(DEJAVU))
    pct_right, merged = 420.0, "included in price"
    pct_left = pct_right - font.text_length("54.7 %", fontsize=8)
    # the figure columns from 340: their middle puts the merged word's left edge on the percents'
    right_end = 2 * (pct_left + font.text_length(merged, fontsize=8) / 2) - 340
    cols = [(60, 160), (160, 240), (240, 340), (340, pct_right + 4), (pct_right + 4, right_end)]
    groups = [("Dental", ["screening", "braces", "crowns"]), ("Stationery", ["labels", "toner", "pens"])]
    doc = pymupdf.open()
    pg = Page(doc)
    top = 100.0
    for (a, b), h in zip(cols, ["Site", "Category", "Detail", "Margin", "Revenue"], strict=True):
        pg.text(a + 4, top + 11, h, 8, True, "l" if a < 340 else "r", b - a - 8)
    pg.rule(cols[0][0], top, cols[-1][1], 0.8)
    pg.rule(cols[0][0], top + STEP, cols[-1][1], 0.8)
    pg.text(cols[0][0] + 4, top + STEP * 4 + 3, "Summit plant 1628", 8)
    rows, y, n = [], top + STEP, 0
    for g, (category, items) in enumerate(groups):
        pg.text(cols[1][0] + 4, y + STEP * len(items) / 2 + 3, category, 8)
        for m, item in enumerate(items):
            n += 1
            last = g == len(groups) - 1 and m == len(items) - 1
            figs = [merged, merged] if last else [f"{10 + 7.3 * n:.1f} %", f"{n * 7919:,}"]
            pg.text(cols[2][0] + 4, y + 11, item, 8)
            if last:
                pg.text(cols[3][0], y + 11, merged, 8, False, "c", cols[4][1] - cols[3][0])
            else:
                pg.text(cols[3][0], y + 11, figs[0], 8, False, "r", pct_right - cols[3][0])
                pg.text(cols[4][0], y + 11, figs[1], 8, False, "r", cols[4][1] - cols[4][0] - 4)
            rows.append(["Summit plant 1628", category, item, *figs])
            x0 = cols[0][0] if last else cols[1][0] if m == len(items) - 1 else cols[2][0]
            pg.rule(x0, y + STEP, cols[-1][1], 0.8 if last else 0.5)
            y += STEP
    return _save(doc, path), rows


def test_categories_merged_beside_a_site_centred_on_a_rule(tmp_path: Path) -> None:
    """Each category spans its three rows (the rule its site's line reaches past is not the
    one between the rows), and the last row's word spans both figure columns although it
    starts level with the percents: a column of one width does not show which edge it keeps.
    The two figure columns type by their values."""
    path, rows = _site_over_categories(tmp_path / "site.pdf")
    (t,) = tables_of(path)
    assert t.columns == ("Site", "Category", "Detail", "Margin", "Revenue")
    assert [list(r) for r in t.rows] == rows
    assert t.column_types[3:] == ("percent", "integer")


# a statement ruled under every row, its euro signs set apart at the first and the last row
# (zoo dev15 financial-263-de), in DejaVu Sans Mono: (x, baseline, text, bold)
STATEMENT = [
    (182.8, 164.6, 'Anhang', True),
    (265.5, 164.6, '2024', True),
    (339.2, 164.6, '2023', True),
    (80.0, 177.0, 'Umsatzerlöse', False),
    (191.8, 177.0, '28', False),
    (221.9, 177.0, '€', False),
    (242.9, 177.0, '2.406.485', False),
    (295.5, 177.0, '€', False),
    (316.6, 177.0, '(569.867)', False),
    (80.0, 189.4, 'Herstellungskosten', False),
    (191.8, 189.4, '19', False),
    (242.9, 189.4, '1.034.248', False),
    (316.6, 189.4, '1.936.181', False),
    (66.0, 201.7, 'Bruttoergebnis', True),
    (191.8, 201.7, '19', True),
    (242.9, 201.7, '2.006.633', True),
    (325.6, 201.7, '989.944', True),
    (94.0, 214.1, 'Vertriebskosten', False),
    (191.8, 214.1, '12', False),
    (251.9, 214.1, '808.711', False),
    (316.6, 214.1, '(866.529)', False),
    (94.0, 226.5, 'Verwaltungskosten', False),
    (191.8, 226.5, '29', False),
    (242.9, 226.5, '(599.158)', False),
    (316.6, 226.5, '(372.770)', False),
    (66.0, 238.9, 'Sonstige Erträge', True),
    (191.8, 238.9, '19', True),
    (242.9, 238.9, '1.126.753', True),
    (316.6, 238.9, '1.269.142', True),
    (94.0, 251.2, 'Betriebsergebnis', False),
    (191.8, 251.2, '25', False),
    (242.9, 251.2, '(654.593)', False),
    (325.6, 251.2, '218.145', False),
    (80.0, 263.6, 'Finanzaufwand', False),
    (194.0, 263.6, '9', False),
    (242.9, 263.6, '1.256.293', False),
    (316.6, 263.6, '2.135.732', False),
    (66.0, 276.0, 'Steuern', True),
    (242.9, 276.0, '(859.912)', True),
    (325.6, 276.0, '527.872', True),
    (66.0, 288.4, 'Summe', True),
    (221.9, 288.4, '€', True),
    (242.9, 288.4, '6.525.460', True),
    (295.5, 288.4, '€', True),
    (316.6, 288.4, '5.267.850', True),
]
STATEMENT_RULES = [169.6, 182.0, 194.4, 206.8, 219.1, 231.5, 243.9, 256.3, 268.6, 281.0, 293.4]


def test_a_narrower_figure_among_figures_of_one_width_stays_in_its_column(tmp_path: Path) -> None:
    """`808.711` under `2.406.485` and `1.034.248` (figures of one width, set flush right) with
    the euro columns beside it empty in its row, centred over them by chance: a figure among
    figures is its column's own, whichever edge the column keeps; no word merged across."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="mono", fontfile=MONO)
    page.insert_font(fontname="monob", fontfile=MONO_BOLD)
    for x, y, text, bold in STATEMENT:
        page.insert_text((x, y), text, fontsize=7.5, fontname="monob" if bold else "mono")
    for y in STATEMENT_RULES:
        page.draw_line((60, y), (363, y), width=0.5)
    (t,) = tables_of(_save(doc, tmp_path / "statement.pdf"))
    assert t.columns == ("", "Anhang", "2024", "2023")
    assert t.rows[3] == ("Vertriebskosten", "12", "808.711", "(866.529)")

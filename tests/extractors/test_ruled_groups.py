"""Ruled tables whose rules frame groups only, white cell patches, and column gaps a few rows cross."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.projection import projection_gaps as _projection_gaps
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for

BODY = [("1-2", "2,586,688", "2,568,738", "647,701", "639,327", "8,002,463"),
        ("3-5", "3,867,692", "3,576,723", "935,862", "938,510", "11,654,990"),
        ("6-11", "7,808,033", "7,401,349", "1,770,525", "1,732,954", "22,527,176"),
        ("12-19", "9,795,497", "9,208,607", "2,191,327", "2,218,406", "28,381,514")]


def test_open_body_under_a_group_ruled_header_is_split_by_its_text(tmp_path: Path) -> None:
    """Vertical rules between column groups only, reaching through an unruled body: each ruled
    cell stacks several rows of two columns of figures. The rows and the columns inside the
    groups come from the text, the rules stay."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=400)
    xs = [72, 150, 290, 430, 520]  # frame and group rules
    top, mid, bottom = 100, 130, 130 + 14 * len(BODY) + 4
    for y in (top, mid, bottom):
        page.draw_line((xs[0], y), (xs[-1], y), width=0.8)
    for x in xs:
        page.draw_line((x, top), (x, bottom), width=0.8)
    page.insert_text((76, 112), "Age", fontsize=9)
    for g, head in ((1, "White"), (2, "Black")):
        page.insert_text((xs[g] + 45, 112), head, fontsize=9)
        page.insert_text((xs[g] + 30, 125), "Male", fontsize=9)
        page.insert_text((xs[g] + 85, 125), "Female", fontsize=9)
    page.insert_text((xs[3] + 40, 125), "Total", fontsize=9)
    for i, row in enumerate(BODY):
        y = mid + 14 * (i + 1)
        page.insert_text((76, y), row[0], fontsize=9)
        for j, text in enumerate(row[1:5]):
            right = xs[1 + j // 2] + (65 if j % 2 == 0 else 130)
            page.insert_text((right - pymupdf.get_text_length(text, fontsize=9), y), text, fontsize=9)
        page.insert_text((xs[-1] - 5 - pymupdf.get_text_length(row[5], fontsize=9), y), row[5], fontsize=9)
    path = tmp_path / "group_rules.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    grid = [tuple(r) for r in table.grid()]
    assert table.n_cols == 6
    assert grid[-len(BODY):] == BODY


def test_white_patches_behind_cells_are_no_rules(tmp_path: Path) -> None:
    """A white box behind every cell (invisible on the page) draws no column rules: the table
    keeps one column per column of text, not a column per patch edge."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=400)
    rows = [("Country", "2009", "2010"), ("Portugal", "0.33", "0.51"), ("Greece", "-0.01", "0.45"),
            ("Spain", "0.17", "0.70")]
    xs = [70, 250, 330, 410]
    page.draw_line((xs[0], 98), (xs[-1], 98), width=1)
    for i, row in enumerate(rows):
        y = 100 + 18 * i
        for j in range(3):
            page.draw_rect(pymupdf.Rect(xs[j] - 4, y, xs[j + 1] - 2, y + 18), color=None, fill=(1, 1, 1))
            page.draw_rect(pymupdf.Rect(xs[j] + 2, y + 3, xs[j + 1] - 8, y + 15), color=None, fill=(1, 1, 1))
            page.insert_text((xs[j] + 4, y + 13), row[j], fontsize=10)
    page.draw_line((xs[0], 172), (xs[-1], 172), width=1)
    path = tmp_path / "white_patches.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == rows


def test_a_bold_total_row_set_wider_does_not_fuse_two_columns() -> None:
    """Two figure columns one space apart; the total row's figures, set wider, cross the gap.
    One row in ten may cross a gap with figures; a long label may not (it ends its column)."""
    words = []
    for k in range(12):
        y = 100 + 12 * k
        words += [(72, y, 110, y + 9, f"row{k}"), (150, y, 192, y + 9, "1,249,752"), (197, y, 239, y + 9, "1,364,492")]
    words += [(72, 256, 100, 265, "All"), (150, 256, 199, 265, "9,619,653"), (203, 256, 245, 265, "9,965,622")]
    assert len(_projection_gaps(words)) == 2
    long_label = [(72, 268, 160, 277, "Weapons;"), (200, 268, 240, 277, "12.0")]
    assert len(_projection_gaps(words + long_label)) == 1  # the label column reaches 160 now


def _zero_width_leaders_pdf(path: Path, rows: list[tuple[str, str, str]]) -> None:
    """Labels, then dot leaders in a font that sets "." and " " at width 0 (they collapse onto
    the figure that follows, as some report writers emit them), then two figure columns."""
    widths = [556] * 95
    widths[ord(".") - 32] = widths[ord(" ") - 32] = 0
    ops = []
    for i, (label, a, b) in enumerate(rows):
        y = 700 - 14 * i
        leaders = 72 + 5.56 * len(label) + 2  # right after the label
        ops.append(f"BT /F1 10 Tf 72 {y} Td ({label}) Tj ET BT /F1 10 Tf {leaders} {y} Td ( . . . . . .) Tj ET")
        ops.append(f"BT /F1 10 Tf {230 - 5.56 * len(a.replace('.', ''))} {y} Td ({a}) Tj ET")
        ops.append(f"BT /F1 10 Tf {300 - 5.56 * len(b.replace('.', ''))} {y} Td ({b}) Tj ET")
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=800)
    font = doc.get_new_xref()
    doc.update_object(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 "
                            f"/LastChar 126 /Widths [{' '.join(map(str, widths))}] >>")
    content = doc.get_new_xref()
    doc.update_object(content, "<<>>")
    doc.update_stream(content, "\n".join(ops).encode())
    doc.xref_set_key(page.xref, "Contents", f"{content} 0 R")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /F1 {font} 0 R >> >>")
    doc.save(path)


def test_zero_width_leaders_do_not_widen_the_figures_next_to_them(tmp_path: Path) -> None:
    """PyMuPDF draws a word's box round its zero-width glyphs too, so "102.1" would start
    under the leaders and close the gap to the label column; the box is drawn round the glyphs
    that have a width."""
    rows = [("Total", "1062.6", "154.0"), ("Robbery", "102.1", "25.5"), ("Arson", "9.8", "4.3"),
            ("Fraud", "173.7", "5.1"), ("Vagrancy", "26.6", "2.2")]
    path = tmp_path / "leaders.pdf"
    _zero_width_leaders_pdf(path, rows)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == rows


def test_label_column_left_open_by_the_row_rules_keeps_one_label_per_row(tmp_path: Path) -> None:
    """Rules between rows drawn across the figure columns only: the label column is one ruled
    cell over all body rows, and each of its lines goes to the row it sits in."""
    rows = [("Cost", "Total", "Direct"), ("Salaries", "1,314,000", "940,750"),
            ("Fringe Benefits", "352,000", "252,012"), ("Staff Travel", "94,000", "74,000"),
            ("Office Rent", "170,000", "150,000")]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=400)
    xs, top, pitch = [72, 200, 300, 400], 100, 16
    bottom = top + pitch * len(rows)
    for x in xs:
        page.draw_line((x, top), (x, bottom), width=0.6)
    for k in range(len(rows) + 1):
        y = top + pitch * k
        page.draw_line((xs[0] if k in (0, 1, len(rows)) else xs[1], y), (xs[-1], y), width=0.6)
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 4, top + pitch * i + 12), text, fontsize=9)
    path = tmp_path / "open_labels.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == rows


def test_a_shaded_box_inside_a_ruled_cell_is_no_cell(tmp_path: Path) -> None:
    """A tinted box behind each label, inside the label column's ruled cells, would give a
    column rule at each of its edges; inside a cell of drawn rules it is shading, not a cell."""
    rows = [("Region", "Units", "Revenue"), ("North", "120", "4,300"), ("South", "95", "3,150"),
            ("East", "240", "8,020")]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=400)
    xs, top, pitch = [72, 200, 300, 400], 100, 20
    for k in range(len(rows) + 1):
        page.draw_line((xs[0], top + pitch * k), (xs[-1], top + pitch * k), width=0.6)
    for x in xs:
        page.draw_line((x, top), (x, top + pitch * len(rows)), width=0.6)
    for i, row in enumerate(rows):
        y = top + pitch * i
        if i:
            page.draw_rect(pymupdf.Rect(xs[0] + 6, y + 3, xs[1] - 40, y + pitch - 3), color=None,
                           fill=(0.8, 1.0, 0.8))
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 8, y + 14), text, fontsize=9)
    path = tmp_path / "shaded.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == rows


def test_rows_parted_by_a_blank_line_inside_a_ruled_group_are_rows(tmp_path: Path) -> None:
    """Rules round groups of rows only: the group's label on a line of its own, then one block
    of wrapped lines per row, parted by a blank line across every cell."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=400)
    xs, top, bottom, lh = [72, 160, 330, 480], 100, 250, 11.5
    for y in (top, top + 16, bottom):
        page.draw_line((xs[0], y), (xs[-1], y), width=0.6)
    for x in xs:
        page.draw_line((x, top), (x, bottom), width=0.6)
    for j, head in enumerate(("Source", "Definition", "Examples")):
        page.insert_text((xs[j] + 4, top + 12), head, fontsize=9)
    blocks = [(128, ["Stationary:"], [], []),
              (155, ["Major"], ["Emissions of 10 tons per year", "or more of any one toxic"],
               ["Utilities, refineries,", "steel manufacturers"]),
              (203, ["Area"], ["Emissions of less than 10", "tons per year"],
               ["Dry cleaners,", "gas stations"])]
    for y, *cols in blocks:
        for j, lines in enumerate(cols):
            for k, line in enumerate(lines):
                page.insert_text((xs[j] + 4, y + k * lh), line, fontsize=9)
    path = tmp_path / "paragraph_rows.pdf"
    doc.save(path)
    (table,) = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == [
        ("Source", "Definition", "Examples"), ("Stationary:", "", ""),
        ("Major", "Emissions of 10 tons per year or more of any one toxic",
         "Utilities, refineries, steel manufacturers"),
        ("Area", "Emissions of less than 10 tons per year", "Dry cleaners, gas stations")]

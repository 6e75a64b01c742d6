"""The tagged layer on PDFs a browser prints (headless Chromium, tests/chromium_pdf.py): the
shapes bench/exporters.py found misread, each printed from HTML and read back."""

from __future__ import annotations

from pathlib import Path

from rowkeeper.api import extract
from tests.chromium_pdf import needs_chromium, print_html, rows_html

HEAD = ["Site", "Orders", "Revenue (EUR)"]


def _long_rows(n: int) -> list[list[str]]:
    return [[f"Depot {i:03d}", f"{(i * 37) % 900 + 100}", f"{(i * 7919) % 90000 + 1000:,}"] for i in range(n)]


@needs_chromium
def test_a_table_the_browser_runs_over_three_pages_is_one_table(tmp_path: Path) -> None:
    # Chromium (Skia) lists, among the Table's kids, a marked-content reference (an /MCR
    # dictionary) for each page the table runs onto; PyMuPDF gives the /K array compact, the
    # dictionary right after an object reference (`386 0 R<</Type/MCR ...>>`): rewritten as a
    # bare MCID it ran into that reference and broke the open document (read by pdfium, no
    # table at all) or the table's rows (pieces with no header, not joined)
    rows = _long_rows(100)
    body = (f"<h2>Orders by site</h2><table><caption>Table 4: Orders by site</caption>"
            f"<thead>{rows_html([HEAD], 'th')}</thead><tbody>{rows_html(rows)}</tbody></table>")
    rec = extract(print_html(body, tmp_path / "long.pdf"))
    assert rec.status == "ok" and rec.document.pages[-1].page >= 3
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == tuple(HEAD)
    assert len(table.rows) == 100 and table.pages[0] == 1 and len(table.pages) >= 3
    assert table.rows[99] == tuple(rows[99]) and table.rows[0] == tuple(rows[0])
    assert table.caption == "Table 4: Orders by site"


@needs_chromium
def test_a_caption_paragraph_centred_over_the_value_columns_stays_the_caption(tmp_path: Path) -> None:
    # LibreOffice writes an HTML <caption> as a centred paragraph before the Table element: it
    # stood clear of the first column, centred over the others, and the finder's rule for a
    # group label over the value columns (transforms/spanner_above) took it in as a header row
    # (columns '', caption, caption, caption; the real header row read as the first body row)
    head = ["Kategória", "Mennyiség", "Szállítási idő", "Árbevétel"]
    rows = [["1724 Malomárok sor", "107 044", "591 849", "79 463,1"],
            ["570 Hegyalja egység", "915 115", "13 278", "67 726,5"],
            ["6338 Dunapart egység", "310 371", "845 332", "17 426,7"]]
    cols = '<col style="width:150pt"><col style="width:90pt"><col style="width:90pt"><col style="width:90pt">'
    body = ("<h2>Melléklet</h2><p>Az értékek kerekítettek.</p>"
            '<p style="margin:0 0 4pt 150pt;width:270pt;text-align:center">1. táblázat: Szállítói áttekintés</p>'
            f'<table style="table-layout:fixed">{cols}{rows_html([head], "th")}{rows_html(rows)}</table>')
    rec = extract(print_html(body, tmp_path / "centred.pdf", lang="hu"))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == tuple(head)
    assert table.rows == tuple(tuple(r) for r in rows)
    assert table.caption == "1. táblázat: Szállítói áttekintés"


@needs_chromium
def test_a_footer_the_browser_repeats_on_every_page_is_one_row_at_the_end(tmp_path: Path) -> None:
    # Chromium prints a TFoot at the foot of every page a table runs over and tags each print
    # as the same TR (its index after the rows of later pages): the total row stood at the end
    # of each page's piece, so the merged table held it in the middle too
    rows = _long_rows(90)
    total = ["Total", "45,000", "4,500,000"]
    body = (f"<table><thead>{rows_html([HEAD], 'th')}</thead><tbody>{rows_html(rows)}</tbody>"
            f"<tfoot>{rows_html([total])}</tfoot></table>")
    rec = extract(print_html(body, tmp_path / "foot.pdf"))
    (table,) = rec.tables
    assert len(table.pages) >= 2 and table.columns == tuple(HEAD)
    assert len(table.rows) == 91 and table.rows[-1] == tuple(total)
    assert [r[0] for r in table.rows].count("Total") == 1
    assert table.rows[:90] == tuple(tuple(r) for r in rows)


@needs_chromium
def test_a_row_the_page_break_cuts_is_one_row(tmp_path: Path) -> None:
    # a row too tall for what is left of the page: the browser prints its cells' first lines
    # at the foot of one page and the rest under the repeated header of the next, the same TR
    # tagged on both pages; it was read as two rows, the remark cut in two
    remark = "The figures were checked by the controlling team and rounded to the unit. " * 6
    rows = [[f"Depot {i:03d}", f"{100 + i}", remark.strip()] for i in range(24)]
    body = (f"<table><thead>{rows_html([['Site', 'Orders', 'Remark']], 'th')}</thead>"
            f"<tbody>{rows_html(rows)}</tbody></table>")
    rec = extract(print_html(body, tmp_path / "cut.pdf", css="td:last-child { width: 320pt; }"))
    (table,) = rec.tables
    assert len(table.pages) >= 2 and table.columns == ("Site", "Orders", "Remark")
    assert len(table.rows) == 24
    assert all(r[2] == remark.strip() for r in table.rows)


@needs_chromium
def test_a_last_row_alone_on_the_next_page_stays_in_the_table(tmp_path: Path) -> None:
    # no thead to repeat: the table's last row alone on the next page was a piece of one row,
    # refused (fewer than 2 rows), and the row lost; a piece of a Table begun on the page
    # before may hold one row
    rows = _long_rows(12)
    body = (f"<table><tbody>{rows_html([HEAD], 'th')}{rows_html(rows[:-1])}"
            f'<tr style="break-before: page">{"".join(f"<td>{c}</td>" for c in rows[-1])}</tr></tbody></table>')
    rec = extract(print_html(body, tmp_path / "last.pdf"))
    (table,) = rec.tables
    assert table.pages == (1, 2) and table.columns == tuple(HEAD)
    assert len(table.rows) == 12 and table.rows[-1] == tuple(rows[-1])


@needs_chromium
def test_japanese_wrapped_in_a_narrow_cell_joins_without_a_space(tmp_path: Path) -> None:
    # a narrow column wraps Japanese text between any two characters; the lines were joined
    # by a space (`札幌セン ター`); a break between two CJK characters now joins by none, and a
    # space stays where the text had one (`センター 5106`)
    rows = [["札幌センター 5106", "835,596"], ["富山店舗の第二倉庫 9127", "776,114"]]
    body = (f"<table><thead>{rows_html([['施設', '数量']], 'th')}</thead><tbody>{rows_html(rows)}</tbody></table>")
    rec = extract(print_html(body, tmp_path / "ja.pdf", css="td:first-child { width: 40pt; }", lang="ja"))
    (table,) = rec.tables
    assert table.columns == ("施設", "数量")
    assert table.rows == tuple(tuple(r) for r in rows)

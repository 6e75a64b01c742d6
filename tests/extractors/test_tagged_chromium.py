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

"""The tagged layer on PDFs LibreOffice Writer prints from HTML (tests/libreoffice_pdf.py): the
shapes bench/exporters.py found misread in its `libreoffice` exporter, each printed and read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.api import extract
from tests.chromium_pdf import rows_html
from tests.libreoffice_pdf import needs_libreoffice, print_html
from tests.tagged_pdf import TCell, TPara, TTable, write_tagged_pdf


@needs_libreoffice
def test_a_caption_centred_beside_a_narrow_table_is_its_caption(tmp_path: Path) -> None:
    # Writer prints an HTML <caption> as a paragraph centred on the page, just before the Table
    # element; over a narrow table set at the left it stands clear of the table's columns, where
    # the caption finder (which asks for overlap in x) does not look. The paragraph reads as a
    # caption and the tags set it next to the table. Writer also sets a quarter em between `表`
    # and `1` (Asian and Western text), which is no word space.
    head = ["施設", "出力", "数量"]
    rows = [["盛岡倉庫 3484", "835,596", "896,190"], ["富山店舗 9127", "776,114", "250,328"],
            ["松山店舗 8776", "150,781", "357,801"]]
    body = ("<h2>地域別売上</h2><p>数値は四捨五入しているため、合計が各行の和と一致しない場合がある。</p>"
            f"<table><caption>表1：主要指標</caption><thead>{rows_html([head], 'th')}</thead>"
            f"<tbody>{rows_html(rows)}</tbody></table>")
    rec = extract(print_html(body, tmp_path / "caption.pdf", lang="ja"))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == tuple(head)
    assert table.rows == tuple(tuple(r) for r in rows)
    assert table.caption == "表1：主要指標"


def _tr(cells: list[str], tag: str = "td") -> str:
    """A TR of cells given as HTML (a <br>, a list)."""
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


PROSE = ("<h2>Evaluation</h2><p>Values are rounded; totals may differ slightly from the sum of the rows. "
         "The figures below cover the reporting period and were checked by the controlling team.</p>")


@needs_libreoffice
def test_a_word_broken_in_a_narrow_column_is_one_word(tmp_path: Path) -> None:
    # Writer keeps its columns' widths and breaks a word too wide for one at the last character
    # that fits (`33,484.3 | 8`, `Headcoun | t`): read line by line the cell held two words. A
    # wrap at a space shows its space at the line's end on this layout (`Stone Bridge | plant`),
    # and a <br> leaves room in the column: both keep their space.
    head = ["Site", "Headcount", "Revenue", "Remarks"]
    rows = [["Lakeside store 405", "711", "33,484.38", "Stone Bridge plant"],
            ["Riverside depot 8971", "785", "39,681.22", "Lakeside<br>Redwood"],
            ["Kingsway office 5296", "228", "88,641.41", "Harbor View"]]
    cols = '<col width="160"><col width="50"><col width="60"><col width="90">'
    body = f"{PROSE}<table>{cols}<thead>{_tr(head, 'th')}</thead><tbody>{''.join(map(_tr, rows))}</tbody></table>"
    rec = extract(print_html(body, tmp_path / "broken.pdf"))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == tuple(head)
    assert [r[2] for r in table.rows] == ["33,484.38", "39,681.22", "88,641.41"]
    assert [r[3] for r in table.rows] == ["Stone Bridge plant", "Lakeside Redwood", "Harbor View"]


@needs_libreoffice
def test_figures_broken_in_a_narrow_japanese_column_are_whole(tmp_path: Path) -> None:
    # Japanese text wraps with no space to show, so the page does not tell a wrap at a space
    # from a word broken; the column does: its figures broken at one edge, no room left there
    # for the next digit (Writer sizes the columns under a two-level head from the group labels)
    rows = [["松山店舗 9179", "82,772.30", "942,966", "59,900.70", "201,602"],
            ["熊本工場 7108", "16,418.47", "798,915", "48,891.05", "988,389"],
            ["札幌店舗 1145", "15,016.17", "1,715", "30,825.24", "982,493"]]
    head = ('<tr><th rowspan="2">施設</th><th colspan="2">2019</th><th colspan="2">2024</th></tr>'
            "<tr><th>売上</th><th>評点</th><th>売上</th><th>評点</th></tr>")
    body = (f"<h2>人員</h2><p>本節では主な結果をまとめる。</p><table><thead>{head}</thead>"
            f"<tbody>{''.join(map(_tr, rows))}</tbody></table>")
    rec = extract(print_html(body, tmp_path / "broken-ja.pdf", lang="ja"))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("施設", "2019 売上", "2019 評点", "2024 売上", "2024 評点")
    assert table.rows == tuple(tuple(r) for r in rows)


@needs_libreoffice
def test_list_markers_writer_draws_in_a_cell_are_no_words(tmp_path: Path) -> None:
    # Writer draws a list item's bullet as text inside the item's LBody (a browser draws it as a
    # path; the HTML holds no marker): the list's mark, not the cell's words
    head = ["Site", "Owners"]
    rows = [["Lakeside store 405", "<ul><li>Lakeside</li><li>Redwood</li></ul>"],
            ["Riverside depot 8971", "Cedar Park"]]
    body = f"{PROSE}<table><thead>{_tr(head, 'th')}</thead><tbody>{''.join(map(_tr, rows))}</tbody></table>"
    rec = extract(print_html(body, tmp_path / "list.pdf"))
    (table,) = rec.tables
    assert table.extractor == "tagged"
    assert table.rows == (("Lakeside store 405", "Lakeside Redwood"), ("Riverside depot 8971", "Cedar Park"))


def test_a_header_label_broken_in_a_narrow_column_stays_one_word(tmp_path: Path) -> None:
    # Writer's shape written by hand (runs without soffice): `Headcoun | t` in a TH, on a page
    # whose wrapped paragraph keeps the space at its wrap. The tags give the label whole; the
    # header labels were then read again from the page's lines (a finder's cut labels), which
    # put the space back: a tagged table's labels stand as its tags give them
    xs = [60, 200, 262, 330]
    head = [TCell(t, x, 160, tag="TH") for t, x in zip(["Site", "Headcoun\nt", "Revenue", "Lead time"], xs, strict=True)]
    body = [[TCell(t, x, 190 + i * 14) for t, x in zip([f"Depot {i}", f"{700 + i * 13:,}", f"{(i * 7919) % 90000 + 1000:,}",
                                                        f"{i * 3 + 5}"], xs, strict=True)] for i in range(5)]
    prose = TPara(["Values are rounded; totals may differ slightly from the sum of the ",
                   "rows. The figures cover the reporting period."], 60, 100)
    rec = extract(write_tagged_pdf(tmp_path / "label.pdf", [TTable([head, *body], head_rows=1)], [prose]))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("Site", "Headcount", "Revenue", "Lead time")
    assert table.rows[1] == ("Depot 1", "713", "8,919", "8")


def test_a_list_items_label_holding_a_bullet_is_no_word_of_the_cell(tmp_path: Path) -> None:
    # ISO 32000's list shape (L > LI > Lbl + LBody, written by hand): the Lbl holding a bullet
    # is the item's mark; a label that holds anything else (`2,` of a figure split over kids)
    # stays text (tests/extractors/test_tagged_tables.py)
    head = [TCell("Site", 60, 160, tag="TH"), TCell("Owners", 220, 160, tag="TH")]
    bullet = "\x95"  # WinAnsi's bullet in the writer's Helvetica: MuPDF reads it as `•`
    rows = [[TCell("Depot 1", 60, 180), TCell(f"{bullet}|Lakeside\n{bullet}|Redwood", 220, 180,
                                              kids=("L/LI/Lbl", "L/LI/LBody", "L/LI2/Lbl", "L/LI2/LBody"))],
            [TCell("Depot 2", 60, 210), TCell("Cedar Park", 220, 210)]]
    rec = extract(write_tagged_pdf(tmp_path / "lbl.pdf", [TTable([head, *rows], head_rows=1)]))
    (table,) = rec.tables
    assert table.extractor == "tagged" and table.columns == ("Site", "Owners")
    assert table.rows == (("Depot 1", "Lakeside Redwood"), ("Depot 2", "Cedar Park"))


@pytest.mark.parametrize("space", [" ", ""])
def test_a_word_broken_on_a_tables_next_page_is_one_word(tmp_path: Path, space: str) -> None:
    # (written by hand) the table's second page holds no wrapped paragraph to show that the
    # layout keeps the space at its wraps, and one cell of its column broken: the first page
    # shows the wrap's space (where the layout keeps it) and a cell broken at the same edge,
    # for the whole Table
    xs = [60, 200, 262]

    def row(texts: list[str], top: float, page: int, tag: str = "TD") -> list[TCell]:
        return [TCell(t, x, top, page=page, tag=tag) for t, x in zip(texts, xs, strict=True)]

    head = row(["Site", "Revenue", "Orders"], 100, 0, "TH")
    first = [row([f"Depot {i}", f"{(i * 7919) % 90000 + 1000:,}", f"{i * 3 + 5}"], 120 + 14 * i, 0) for i in range(6)]
    first.append(row(["Depot 6", "33,484.3\n8", "23"], 204, 0))
    second = [row([f"Depot {i}", "13,048.6\n5" if i == 9 else f"{(i * 7919) % 90000 + 1000:,}", f"{i * 3 + 5}"],
                  40 + 14 * (i - 7) + (14 if i > 9 else 0), 1) for i in range(7, 12)]
    prose = TPara([f"Values are rounded; totals may differ slightly from the sum of the{space}",
                   "rows. The figures cover the reporting period."], 60, 40)
    pdf = write_tagged_pdf(tmp_path / "two.pdf", [TTable([head, *first, *second], head_rows=1)], [prose], pages=2,
                           height=260)
    (table,) = extract(pdf).tables
    assert table.extractor == "tagged" and table.pages == (1, 2)
    assert [r[1] for r in table.rows if r[0] in ("Depot 6", "Depot 9")] == ["33,484.38", "13,048.65"]


def test_a_word_broken_where_the_page_break_cuts_its_row_is_one_word(tmp_path: Path) -> None:
    # (written by hand) Writer cuts a row too tall for the page: the cell's first line
    # (`13,048.6`) at the page's foot, its last (`5`) on the next page, the same TD; the word
    # goes on over the page break as over a line break (the column's edge shown by another cell)
    xs = [60, 200, 262]
    head = [TCell(t, x, 100, tag="TH") for t, x in zip(["Site", "Revenue", "Orders"], xs, strict=True)]
    rows = [[TCell(f"Depot {i}", 60, 120 + 14 * i), TCell(f"{(i * 7919) % 90000 + 1000:,}", 200, 120 + 14 * i),
             TCell(f"{i * 3 + 5}", 262, 120 + 14 * i)] for i in range(5)]
    rows.append([TCell("Depot 5", 60, 190), TCell("33,484.3\n8", 200, 190), TCell("20", 262, 190)])
    rows.append([TCell("Depot 6", 60, 222), TCell("13,048.6", 200, 222, rest=TPara(["5"], 200, 40, page=1)),
                 TCell("23", 262, 222)])
    rows += [[TCell(f"Depot {i}", 60, 60 + 14 * i, page=1), TCell(f"{i * 1000 + 17:,}", 200, 60 + 14 * i, page=1),
              TCell(f"{i * 3 + 5}", 262, 60 + 14 * i, page=1)] for i in range(7, 10)]
    pdf = write_tagged_pdf(tmp_path / "cut.pdf", [TTable([head, *rows], head_rows=1)], pages=2, height=240)
    (table,) = extract(pdf).tables
    assert table.extractor == "tagged" and table.pages == (1, 2) and len(table.rows) == 10
    assert [r[1] for r in table.rows if r[0] in ("Depot 5", "Depot 6")] == ["33,484.38", "13,048.65"]


def test_words_a_browser_wraps_at_its_columns_edge_keep_their_space(tmp_path: Path) -> None:
    # (written by hand) a browser sizes a column to its text and wraps at spaces it does not
    # show: one-word lines end at the column's edge in two cells (`Lindenhof | Büro`), as a
    # word broken would; with no space shown at the page's wraps only figures are read broken
    xs = [60, 200, 262]
    head = [TCell(t, x, 100, tag="TH") for t, x in zip(["Site", "Revenue", "Orders"], xs, strict=True)]
    names = ["Lindenhof\nBüro", "Depot 2", "Lindenhof\nHalle", "Depot 4"]
    rows = [[TCell(n, 60, 120 + 30 * i), TCell(f"{(i * 7919) % 90000 + 1000:,}", 200, 120 + 30 * i),
             TCell(f"{i * 3 + 5}", 262, 120 + 30 * i)] for i, n in enumerate(names)]
    prose = TPara(["Values are rounded; totals may differ slightly from the sum of the",
                   "rows. The figures cover the reporting period."], 60, 40)
    (table,) = extract(write_tagged_pdf(tmp_path / "wrap.pdf", [TTable([head, *rows], head_rows=1)], [prose])).tables
    assert table.extractor == "tagged"
    assert [r[0] for r in table.rows] == ["Lindenhof Büro", "Depot 2", "Lindenhof Halle", "Depot 4"]

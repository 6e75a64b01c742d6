"""A caption set over two or three lines (transforms/captions.py): the whole caption goes to
its table, and its second line is no section heading for the tables after it."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save, ruled_grid

CAPTIONS = {
    "en": (["Table 1: Operating costs per region and", "quarter, in thousands of US dollars"],
           "Table 1: Operating costs per region and quarter, in thousands of US dollars"),
    "de": (["Tabelle 1: Betriebskosten je Region und", "Quartal in Tausend Euro, ohne",
            "Abschreibungen"],
           "Tabelle 1: Betriebskosten je Region und Quartal in Tausend Euro, ohne Abschreibungen"),
    "hu": (["1. táblázat", "Negyedéves adatok telephelyenként és régiónként"],
           "1. táblázat Negyedéves adatok telephelyenként és régiónként"),
    "ja": (["表1：地域別・四半期別の運営費（単位：千", "円、減価償却費を除く）"],
           "表1：地域別・四半期別の運営費（単位：千円、減価償却費を除く）"),
}
PROSE = "The figures cover the reporting period and were checked by the controlling team."


def _rows(k: int) -> list[list[str]]:
    return [["Region", "2025", "2026"]] + [[f"Region {k}.{i}", f"{120 * i + k}", f"{131 * i + k}"]
                                           for i in range(1, 5)]


def wrapped_caption_doc(path: Path, lang: str, below: bool) -> Path:
    """A heading, then two ruled tables; the first has a caption wrapped over several lines
    (above or below it, in bold like the caption of the second), prose after each table."""
    lines, _ = CAPTIONS[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "2. Costs", 14, True)
    y = 90.0
    if not below:
        for ln in lines:
            pg.text(LEFT, y, ln, 10, True)
            y += 12.5
        y -= 6
    y = ruled_grid(pg, y, _rows(1), [150, 110, 110], bold_first=True)
    if below:
        y += 14
        for ln in lines:
            pg.text(LEFT, y, ln, 10, True)
            y += 12.5
    pg.text(LEFT, y + 22, PROSE, 10)
    y += 50
    second = {"de": "Tabelle 2: Personal", "ja": "表2：人員", "hu": "2. táblázat Personal"}.get(lang, "Table 2: Staff")
    if not below:
        pg.text(LEFT, y, second, 10, True)
        y += 6
    y = ruled_grid(pg, y, _rows(2), [150, 110, 110], bold_first=True)
    if below:
        pg.text(LEFT, y + 14, second, 10, True)
    return _save(doc, path)


@pytest.mark.parametrize("below", [False, True])
@pytest.mark.parametrize("lang", ["en", "de", "hu", "ja"])
def test_a_wrapped_caption_is_read_whole(tmp_path: Path, lang: str, below: bool) -> None:
    first, second = tables_of(wrapped_caption_doc(tmp_path / "cap.pdf", lang, below))
    assert first.caption == CAPTIONS[lang][1]
    assert second.caption.endswith(("Staff", "Personal", "人員"))
    assert first.columns == ("Region", "2025", "2026") and len(first.rows) == 4
    # the caption's second line, bold at body size, opens no section
    assert first.section_path == second.section_path == ("2. Costs",)


def test_a_paragraph_after_a_caption_below_stays_out(tmp_path: Path) -> None:
    """Bold text a paragraph's distance under a one-line caption is not part of it."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "2. Costs", 14, True)
    y = ruled_grid(pg, 90, _rows(1), [150, 110, 110], bold_first=True)
    pg.text(LEFT, y + 14, "Table 1: Operating costs", 10, True)
    pg.text(LEFT, y + 36, "Staff and budget", 10, True)
    pg.text(LEFT, y + 52, PROSE, 10)
    ruled_grid(pg, y + 64, _rows(2), [150, 110, 110], bold_first=True)
    first, second = tables_of(_save(doc, tmp_path / "para.pdf"))
    assert first.caption == "Table 1: Operating costs"
    assert second.section_path == ("2. Costs", "Staff and budget")


def tight_caption_over_borderless(path: Path, lang: str) -> Path:
    """A caption over two lines set 2 points above a borderless table of two columns inside
    the left half of the page, its bold labels right under the caption's last line."""
    lines, _ = CAPTIONS[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "2. Costs", 14, True)
    y = 100.0
    for ln in lines:
        pg.text(LEFT, y, ln, 9.5, True)
        y += 11.9
    y += 6
    rows = [["Telephely", "Szállítási idő"]] + [[f"{4127 + 97 * i} Vörösfenyő sor", f"{781 + 13 * i} 324"]
                                                 for i in range(7)]
    for j, row in enumerate(rows):
        pg.text(LEFT + 3, y, row[0], 9.5, j == 0)
        pg.text(LEFT + 158, y, row[1], 9.5, j == 0, "r", 76)
        y += 16.9
    pg.text(LEFT, y + 20, PROSE, 10)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_wrapped_caption_read_into_the_header_leaves_it(tmp_path: Path, lang: str) -> None:
    (t,) = tables_of(tight_caption_over_borderless(tmp_path / "tight.pdf", lang))
    assert t.columns == ("Telephely", "Szállítási idő") and len(t.rows) == 7
    assert t.caption == CAPTIONS[lang][1]


def test_a_wrapped_caption_read_into_the_header_cell_leaves_it() -> None:
    """A finder read a two-line caption and the label under it as one header cell (the page
    lines as the text layer gives them): the caption leaves the cell whole, the label stays."""
    from rowkeeper.config import TransformConfig
    from rowkeeper.models import Cell, PageInfo, RawTable, TextLine
    from rowkeeper.transforms.assemble import assemble_tables

    def line(text: str, x0: float, y0: float, x1: float, bold: bool = False) -> TextLine:
        return TextLine(page=1, bbox=(x0, y0, x1, y0 + 10.0), text=text, font_size=9.5, bold=bold)

    cap = ["1. táblázat Negyedéves adatok", "telephelyenként"]
    lines = [line(cap[0], 50, 589, 208, True), line(cap[1], 50, 601, 126, True),
             line("Telephely", 53, 622, 105, True), line("Szállítási idő", 216, 622, 285, True)]
    body = [(f"{4127 + 97 * i} Vörösfenyő sor", f"{781 + 13 * i} 324") for i in range(6)]
    cells = [Cell(row=0, col=0, text="\n".join([*cap, "Telephely"]), bbox=(50, 588, 208, 633), bold=True, font_size=9.5),
             Cell(row=0, col=1, text="Szállítási idő", bbox=(208, 588, 285, 633), bold=True, font_size=9.5)]
    for i, (a, b) in enumerate(body):
        y = 639.0 + 17 * i
        lines += [line(a, 53, y, 160), line(b, 246, y, 285)]
        cells += [Cell(row=i + 1, col=0, text=a, bbox=(50, y - 1, 208, y + 11), font_size=9.5),
                  Cell(row=i + 1, col=1, text=b, bbox=(208, y - 1, 285, y + 11), font_size=9.5)]
    piece = RawTable(piece_id="p1", doc_id="d", page=1, bbox=(50, 588, 285, 742), n_rows=7, n_cols=2,
                     cells=tuple(cells), extractor="test", extractor_version="0")
    info = [PageInfo(page=1, kind="text", chars=1, image_coverage=0.0, width=595, height=842)]
    (t,) = assemble_tables("d", "s", [piece], lines, info, TransformConfig())
    assert t.columns == ("Telephely", "Szállítási idő") and len(t.rows) == 6
    assert t.caption == "1. táblázat Negyedéves adatok telephelyenként"

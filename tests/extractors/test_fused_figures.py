"""Two figures of tight neighbouring columns read as one word (extractors/fused_figures.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.extractors.fused_figures import fused_at, with_fused_gaps
from rowkeeper.extractors.ocr_engines import OcrBox
from samples.pdfgen import scanned_twin


def _tight_page(rows: list[list[str]]) -> bytes:
    """A borderless table: a site, then four figure columns right-aligned, the first two set
    one gap of 7 pt apart (the first's figures as wide as its column), drawn with PyMuPDF."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((50, 60), "1. Sites", fontsize=13, fontname="hebo")
    page.insert_text((50, 95), "Table 1 Output per site", fontsize=10, fontname="hebo")
    rights = (235, 278, 380, 470)
    for k, label in enumerate(("Site", "Amount", "Cost", "Weight", "Revenue")):
        x = 50 if k == 0 else rights[k - 1] - pymupdf.get_text_length(label, fontname="hebo", fontsize=10)
        page.insert_text((x, 120), label, fontsize=10, fontname="hebo")
    for r, row in enumerate(rows):
        y = 140 + r * 17
        page.insert_text((50, y), row[0], fontsize=10, fontname="helv")
        for k, text in enumerate(row[1:]):
            page.insert_text((rights[k] - pymupdf.get_text_length(text, fontname="helv", fontsize=10), y), text,
                             fontsize=10, fontname="helv")
    return doc.tobytes()


def _rows() -> list[list[str]]:
    rng = random.Random(5)
    sites = ("Eichenau", "Altstadt", "Lindenhof", "Weidenhof", "Bergheim", "Birkenweg", "Mühlbach", "Buchenallee")
    return [[s, f"{rng.randint(10, 99)}.{rng.randint(100, 999)},{rng.randint(10, 99)}",
             f"{rng.randint(100, 999)}.{rng.randint(100, 999)}", f"{rng.randint(100, 999)}.{rng.randint(100, 999)}",
             f"{rng.randint(1, 9)}.{rng.randint(100, 999)}.{rng.randint(100, 999)}"] for s in sites]


def test_tight_figure_columns_read_as_one_word_stay_two_columns(tmp_path: Path) -> None:
    """Figures of two tight columns that the recogniser reads as one word on most rows
    ("21.395,41832.425"): the two columns stay two, each figure in its own."""
    pytest.importorskip("rapidocr")
    from rowkeeper.flows.pipeline import load_document, process_document

    rows = _rows()
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(_tight_page(rows), dpi=200, noise=0.02, rotate_deg=0.2, seed=2))
    tables = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out"))).tables
    assert len(tables) == 1
    assert tables[0].columns == ("Site", "Amount", "Cost", "Weight", "Revenue")
    got = [[c.text for c in sorted(r, key=lambda c: c.col)] for r in _body(tables[0])]
    assert sum(g[1:3] == r[1:3] for g, r in zip(got, rows, strict=False)) >= len(rows) - 1


def _body(table) -> list[list]:
    by_row: dict[int, list] = {}
    for c in table.cells:
        if c.row >= 1:
            by_row.setdefault(c.row, []).append(c)
    return [by_row[r] for r in sorted(by_row)]


def test_two_figures_read_as_one_word_part_where_each_is_well_formed() -> None:
    """A word of two figures parts where both halves are figures with their marks; a figure,
    a year or a figure without marks does not."""
    assert [("9.353,4688.977"[:i], "9.353,4688.977"[i:]) for i in fused_at("9.353,4688.977")][0] == ("9.353,4", "688.977")
    assert fused_at("8.819.62822.485") == [9]
    assert fused_at("5.588.166") == fused_at("2024") == fused_at("123456") == []


def _word(text: str, x0: float, x1: float) -> OcrBox:
    return OcrBox(text, (x0, 0, x1, 30), 0.9, ((text, x0, x1),))


def test_a_gap_under_fused_words_parts_their_footprint() -> None:
    """One row reads the two figures apart, the others as one word each: the gap of that row,
    where every fused word parts as two figures, is a column boundary. Without the row, or
    where a fused word does not part there, the footprint stays one."""
    fused = [_word("21.395,41832.425", 503, 747), _word("83.215,29563.188", 502, 747)]
    apart = [_word("7.125,29", 519, 627), _word("19.241", 664, 745)]
    assert with_fused_gaps([(500.0, 750.0)], [*fused, *apart], 10.0) == [(500.0, 627.0), (664.0, 750.0)]
    assert with_fused_gaps([(500.0, 750.0)], fused, 10.0) == [(500.0, 750.0)]
    elsewhere = [_word("21.395,41832.425", 300, 747), *apart]
    assert with_fused_gaps([(290.0, 750.0)], elsewhere, 10.0) == [(290.0, 750.0)]

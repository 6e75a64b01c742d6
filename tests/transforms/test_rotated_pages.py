"""Tables on pages with a /Rotate (landscape statements stored portrait, scans turned by the
viewer): the continuation on the next page still merges, headings above still give the section,
and every box comes back in the page's unrotated coordinates, where its text is."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from rowkeeper.transforms.orientation import turn_bbox
from samples.pdfgen import build_pdf
from tests.transforms.pdf_docs import two_tables_split_by_heading


def _turned(data: bytes, rotation: int) -> bytes:
    """The same pages as shown, stored turned the other way with a /Rotate that shows them upright."""
    src = pymupdf.open("pdf", data)
    out = pymupdf.open()
    for p in src:
        w, h = p.rect.width, p.rect.height
        page = out.new_page(width=h if rotation in (90, 270) else w, height=w if rotation in (90, 270) else h)
        page.show_pdf_page(page.rect, src, p.number, rotate=rotation)
        page.set_rotation(rotation)
    return out.tobytes()


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_table_continued_over_turned_pages_merges(tmp_path: Path, rotation: int) -> None:
    path = tmp_path / f"rot{rotation}.pdf"
    path.write_bytes(_turned(build_pdf(two_tables_split_by_heading()), rotation))
    result = process_document(load_document(str(path)), load_config(None))
    a, b = result.tables
    assert (a.pages, len(a.rows), a.columns) == ((1, 2), 44, ("Part", "Price", "Count"))
    assert a.section_path == ("Inventory", "1. Warehouse A")
    assert (b.pages, len(b.rows), b.section_path[-1]) == ((2,), 6, "2. Warehouse B")
    with pymupdf.open(path) as pdf:  # the first and the last row's labels lie in their regions
        for region, label in ((a.regions[0], a.rows[0][0]), (a.regions[-1], a.rows[-1][0])):
            (hit,) = pdf[region.page - 1].search_for(label)
            x0, y0, x1, y1 = region.bbox
            assert x0 - 1 <= (hit.x0 + hit.x1) / 2 <= x1 + 1 and y0 - 1 <= (hit.y0 + hit.y1) / 2 <= y1 + 1


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_turn_bbox_matches_pymupdf_rotation_matrix(rotation: int) -> None:
    page = pymupdf.open().new_page(width=842, height=595)
    page.set_rotation(rotation)
    turn = (rotation, page.rect.width, page.rect.height)
    box = (100.0, 40.0, 180.0, 62.5)
    assert turn_bbox(box, turn) == pytest.approx(tuple(pymupdf.Rect(box) * page.rotation_matrix), abs=0.01)
    assert turn_bbox(turn_bbox(box, turn), turn, back=True) == pytest.approx(box, abs=0.01)


PROSE = ("Tenants pay the management fee on the first working day of each month. "
         "Late payments carry interest at the statutory rate, and repeated late payment "
         "may end the lease after a written warning. The fees below include VAT.")


@pytest.mark.parametrize("rotation", [90, 270])
def test_text_chunks_on_turned_pages_read_in_shown_order(tmp_path: Path, rotation: int) -> None:
    from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec

    spec = DocSpec(blocks=[Heading("Fees"), Paragraph(PROSE),
                           TableSpec(header=[["Unit", "Fee"]], rows=[["A1", "1,200"], ["A2", "1,350"]])])
    path = tmp_path / f"prose{rotation}.pdf"
    path.write_bytes(_turned(build_pdf(spec), rotation))
    result = process_document(load_document(str(path)), load_config(None))
    (text,) = [c for c in result.chunks if c.kind == "text"]
    assert text.text == "Fees\n" + PROSE
    region = text.metadata["regions"][0]
    with pymupdf.open(path) as pdf:
        (hit,) = pdf[0].search_for("Tenants")
    x0, y0, x1, y1 = region["bbox"]
    assert x0 - 1 <= (hit.x0 + hit.x1) / 2 <= x1 + 1 and y0 - 1 <= (hit.y0 + hit.y1) / 2 <= y1 + 1


def test_outline_entries_into_turned_pages_start_at_the_page_top() -> None:
    from rowkeeper.models import OutlineEntry
    from rowkeeper.transforms.orientation import shown_outline

    outline = [OutlineEntry(level=1, title="Upright", page=1, top=300.0),
               OutlineEntry(level=1, title="Landscape", page=2, top=300.0)]
    assert [e.top for e in shown_outline(outline, {2: (90, 595.0, 842.0)})] == [300.0, 0.0]

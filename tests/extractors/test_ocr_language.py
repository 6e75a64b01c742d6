"""OCR engine per language: a Vietnamese scan is re-read by Tesseract's vie pack automatically."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from samples.pdfgen import TableSpec
from tests.extractors.ocr_fixtures import has_lang, write_pair

pytest.importorskip("rapidocr")

VIETNAMESE = TableSpec(
    caption="Bảng 3 Thiết bị đã mua",
    header=[["Mã hàng", "Tên sản phẩm", "Đơn giá", "Số lượng"]],
    rows=[["01-001", "Bàn làm việc", "1.250.000", "12"], ["01-002", "Ghế văn phòng", "890.000", "30"],
          ["01-003", "Đèn bàn", "245.000", "18"], ["02-001", "Tủ hồ sơ", "3.100.000", "4"]],
    col_widths=[80, 200, 120, 95],
)



@pytest.mark.skipif(not has_lang("vie"), reason="tesseract with the vie pack is not installed")
def test_vietnamese_scan_keeps_its_tone_marks(tmp_path: Path) -> None:
    """Default options: RapidOCR's first reading says Vietnamese, Tesseract vie reads the cells."""
    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    _, scan = write_pair(tmp_path, "vi", VIETNAMESE, dpi=200, rotate_deg=0.4)
    tables = OcrExtractor(OcrOptions()).extract(scan, [1]).tables
    assert len(tables) == 1
    grid = tables[0].grid()
    assert grid[0][3] == "Số lượng"  # RapidOCR alone reads "Sô luong" at best
    assert [r[1] for r in grid[1:]] == [r[1] for r in VIETNAMESE.rows]
    assert [r[2] for r in grid[1:]] == [r[2] for r in VIETNAMESE.rows]


def _blurred_line(text: str, dpi: int = 130, blur: float = 1.0) -> np.ndarray:
    """A line of Japanese printed small, scanned soft (blur, JPEG) and shown at 200 dpi."""
    import cv2
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=400, height=60)
    page.insert_text((10, 35), text, fontname="japan", fontsize=10)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    img = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    _, jpg = cv2.imencode(".jpg", cv2.GaussianBlur(img, (0, 0), blur), [cv2.IMWRITE_JPEG_QUALITY, 60])
    return cv2.resize(cv2.imdecode(jpg, 0), None, fx=200 / dpi, fy=200 / dpi)


def test_japanese_reading_has_no_simplified_chinese_forms() -> None:
    """Configured for ja (not zh), the recogniser reads 単位 and 項目, never the simplified 单位/项目
    a soft scan otherwise gives: characters no configured language writes are masked out."""
    from rowkeeper.extractors.ocr_engines import RapidOcrEngine

    engine = RapidOcrEngine(det_side=960, threads=1, languages=("en", "ja"))
    texts = [b.text for b in engine.read(_blurred_line("単価  単位  金額  項目  簡単"))]
    assert texts == ["単価", "単位", "金額", "項目", "簡単"]


SALES = TableSpec(
    caption="表1 売上高の推移", header=[["店舗", "売上高", "前年売上高", "売上比"]],
    rows=[["松山店舗", "13,000", "11,500", "売上増"], ["神戸店舗", "15,200", "12,000", "売上減"],
          ["岡山店舗", "9,800", "8,700", "売上増"], ["大阪店舗", "21,400", "18,250", "売上減"]],
    col_widths=[130, 120, 130, 110], row_height=17)


def test_japanese_scan_reads_no_forms_outside_jis_x_0208(tmp_path: Path) -> None:
    """A Japanese scan's 売 and 減 read as printed (base: 壳上比, 壳上减: simplified forms that
    JIS X 0213 holds, so the Japanese mask let them through)."""
    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    _, scan = write_pair(tmp_path, "sales", SALES, dpi=200)
    tables = OcrExtractor(OcrOptions()).extract(scan, [1]).tables
    assert len(tables) == 1
    grid = tables[0].grid()
    assert grid[0][1:] == SALES.header[0][1:] and [r[3] for r in grid[1:]] == [r[3] for r in SALES.rows]


def test_han_allowed_follows_the_configured_languages() -> None:
    """Japanese writes 単 and 額, not 单 or 额; Chinese writes both; Latin-only settings mask nothing."""
    from rowkeeper.extractors.ocr_language import han_allowed

    assert han_allowed("単", ("en", "ja")) and han_allowed("額", ("ja",))
    assert not han_allowed("单", ("en", "ja")) and not han_allowed("额", ("ja",))
    assert not han_allowed("壳", ("ja",)) and han_allowed("売", ("ja",))  # 壳: JIS X 0213 only
    assert han_allowed("单", ("ja", "zh")) and han_allowed("单", ("en",))
    assert han_allowed("ー", ("ja",)) and han_allowed("ő", ("ja",))  # only ideographs are checked


VIETNAMESE_BORDERLESS = TableSpec(
    caption="Bảng 4 Thiết bị đã mua trong quý",
    header=[["Mã hàng", "Tên sản phẩm", "Đơn giá", "Số lượng"]],
    rows=[["69-361", "Ngăn kéo bàn 38", "300.000", "39"], ["92-371", "Giá treo áo 39", "2.298.000", "101"],
          ["82-662", "Tủ hồ sơ 81", "1.874.000", "113"], ["20-357", "Đèn bàn 37", "1.507.000", "152"],
          ["71-391", "Bàn làm việc 42", "4.138.000", "162"]],
    col_widths=[80, 200, 120, 95],
    ruled=False,
)


@pytest.mark.skipif(not has_lang("vie"), reason="tesseract with the vie pack is not installed")
def test_vietnamese_words_join_in_reading_order(tmp_path: Path) -> None:
    """Tone marks and descenders move word boxes up and down: the words of a cell still join
    left to right ("Ngăn kéo bàn 38"), and each stays in its column."""
    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    _, scan = write_pair(tmp_path, "vib", VIETNAMESE_BORDERLESS, dpi=200, rotate_deg=0.3)
    tables = OcrExtractor(OcrOptions()).extract(scan, [1]).tables
    assert len(tables) == 1
    grid = tables[0].grid()
    assert [r[1] for r in grid[-5:]] == [r[1] for r in VIETNAMESE_BORDERLESS.rows]
    assert [r[2] for r in grid[-5:]] == [r[2] for r in VIETNAMESE_BORDERLESS.rows]
    # Tesseract reads the bold "Mã hàng" plain ("Ma hang"); RapidOCR's first reading has the marks
    assert grid[-6][0] == "Mã hàng"


@pytest.mark.skipif(not has_lang("vie"), reason="tesseract with the vie pack is not installed")
def test_vietnamese_page_is_told_from_its_widest_lines_and_read_by_tesseract(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """RapidOCR stops once its widest lines settle the page as Vietnamese (it reads fewer lines
    than the page holds); Tesseract vie reads every cell."""
    import pymupdf

    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    _, scan = write_pair(tmp_path, "vis", VIETNAMESE, dpi=200, rotate_deg=0.4)
    ocr = OcrExtractor(OcrOptions())
    gray, _, _ = ocr._render(scan, pymupdf.open(scan.path)[0], 1)  # noqa: SLF001
    rapid = ocr.engine
    whole = rapid.read(gray)
    first: list = []
    read = rapid.read
    monkeypatch.setattr(rapid, "read", lambda img, enough=None: first.extend(read(img, enough=enough)) or first)
    tables, _, engine = ocr.read_image(gray)
    assert engine.name == "tesseract"
    assert 0 < len(first) < len(whole)
    texts = [c.text for c in tables[0].cells]
    assert all(r[1] in texts and r[2] in texts for r in VIETNAMESE.rows), texts


HU_PROSE = ("Az értékek kerekítettek; az összesen sor kissé eltérhet a sorok összegétől. "
            "Ez a fejezet összefoglalja a fő eredményeket, és összeveti őket az előző évvel.")


@pytest.mark.skipif(not has_lang("hun"), reason="tesseract with the hun pack is not installed")
def test_a_hungarian_scan_reads_its_double_acutes(tmp_path: Path) -> None:
    """RapidOCR reads the bold heading's ű and the header's ő as ü, ö on a 150 dpi scan; its
    reading of the page's ő tells the page Hungarian, and Tesseract hun's marks replace them."""
    from rowkeeper.config import load_config
    from rowkeeper.flows.pipeline import load_document, process_document
    from samples.pdfgen import DocSpec, Heading, Paragraph, build_pdf, scanned_twin

    spec = DocSpec(title="Működési költségek régiónként", blocks=[
        Heading("1. Működési költségek"), Paragraph(HU_PROSE),
        TableSpec(caption="1. táblázat: Fő mutatók", header=[["Telephely", "Költség", "Létszám (fő)"]],
                  rows=[["Erdőszél üzem", "1 200", "31"], ["Tölgyes bolt", "2 340", "41"],
                        ["Mezőföld raktár", "880", "19"]])])
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(build_pdf(spec), dpi=150, noise=0.02, rotate_deg=0.5, seed=4))
    result = process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out")))
    table = result.tables[0]
    assert table.section_path == ("Működési költségek régiónként", "1. Működési költségek")
    assert table.columns[2] == "Létszám (fő)"


def test_adopt_marks_takes_a_mark_for_a_mark_only() -> None:
    from rowkeeper.extractors.ocr_language import adopt_marks

    assert adopt_marks("Müködési költségek 2024", "Működési költségek 2024 f étek") == "Működési költségek 2024"
    assert adopt_marks("az összesen", "áz összesen") == "az összesen"  # no mark added to a bare letter
    assert adopt_marks("Größe", "GröBe") == "Größe"                    # other letters: as read


def test_a_run_given_the_other_readings_marks_keeps_each_words_ink() -> None:
    """Column footprints are read from the words' ink: a run whose letters took the other
    reading's marks keeps its words' extents, each word with its marked letters."""
    from rowkeeper.extractors.ocr_engines import OcrBox
    from rowkeeper.extractors.ocr_extractor import with_marks
    from rowkeeper.extractors.ocr_language import adopt_marks

    read = OcrBox("Don gia 340 683", (100, 50, 420, 80), 0.9,
                  (("Don", 104, 150), ("gia", 162, 200), ("340 683", 330, 416)))
    [vi] = with_marks([read], [OcrBox("Đơn giá 340 683", (98, 48, 422, 82), 0.9)])
    assert vi.text == "Đơn giá 340 683"
    assert vi.words == (("Đơn", 104, 150), ("giá", 162, 200), ("340 683", 330, 416))

    read = OcrBox("Müködési költség", (100, 50, 420, 80), 0.9, (("Müködési", 104, 260), ("költség", 272, 416)))
    [hu] = with_marks([read], [OcrBox("Működési költség", (98, 48, 422, 82), 0.9)], adopt_marks)
    assert hu.words == (("Működési", 104, 260), ("költség", 272, 416))

"""OCR engine per language: a Vietnamese scan is re-read by Tesseract's vie pack automatically."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from samples.pdfgen import TableSpec
from tests.extractors.ocr_fixtures import write_pair

pytest.importorskip("rapidocr")

VIETNAMESE = TableSpec(
    caption="Bảng 3 Thiết bị đã mua",
    header=[["Mã hàng", "Tên sản phẩm", "Đơn giá", "Số lượng"]],
    rows=[["01-001", "Bàn làm việc", "1.250.000", "12"], ["01-002", "Ghế văn phòng", "890.000", "30"],
          ["01-003", "Đèn bàn", "245.000", "18"], ["02-001", "Tủ hồ sơ", "3.100.000", "4"]],
    col_widths=[80, 200, 120, 95],
)


def _has_vie() -> bool:
    exe = shutil.which("tesseract")
    if exe is None:
        return False
    out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, check=False)
    return "vie" in out.stdout.split()


@pytest.mark.skipif(not _has_vie(), reason="tesseract with the vie pack is not installed")
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

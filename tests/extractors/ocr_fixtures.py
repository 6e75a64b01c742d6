"""Generated text PDFs and their scanned twins for the scanned-page layers' tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput
from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf, scanned_twin

RULED = TableSpec(
    caption="Table 1 Equipment prices",
    header=[["Code", "Item", "Unit price", "Stock"]],
    rows=[
        ["01-001", "Desk lamp", "1,250.00", "42"],
        ["01-002", "Office chair", "14,900.00", "7"],
        ["01-003", "Standing desk", "38,500.00", "3"],
        ["02-001", "Monitor arm", "6,480.00", "18"],
    ],
    col_widths=[80, 200, 120, 95],
)
BORDERLESS = TableSpec(
    caption="Table 2 Revenue by region (EUR thousand)",
    header=[["Region", "Q1", "Q2", "Q3", "Q4"]],
    rows=[
        ["North", "1,200", "1,150", "1,080", "990"],
        ["South", "2,340", "2,410", "2,502", "2,620"],
        ["East", "880", "905", "940", "1,010"],
        ["West", "1,760", "1,802", "1,845", "1,930"],
    ],
    ruled=False,
)
JAPANESE = TableSpec(
    caption="表2 管理費一覧",
    header=[["物件名", "管理費", "修繕積立金"]],
    rows=[
        ["サンハイツ泉", "13,000", "11,500"],
        ["グランメゾン青葉", "15,200", "12,000"],
        ["パークサイド仙台", "9,800", "8,700"],
        ["中央ビル", "21,400", "18,250"],
    ],
    col_widths=[215, 140, 140],
    row_height=17,
)
SPANNED = TableSpec(
    header=[["Region", "2025", "", "2026", ""], ["", "H1", "H2", "H1", "H2"]],
    rows=[["North", "10", "11", "12", "13"], ["South", "20", "21", "22", "23"]],
    spans=[(0, 0, 2, 1), (0, 1, 1, 2), (0, 3, 1, 2)],
)


def doc_of(table: TableSpec, heading: str = "1. Prices") -> DocSpec:
    """A one-page document: title, heading, paragraph, then the table."""
    return DocSpec(title="Scanned sample", blocks=[
        Heading(heading), Paragraph("Figures below are monthly and exclude tax."), table])


def write_pair(folder: Path, name: str, table: TableSpec, *, dpi: int = 150,
               rotate_deg: float = 0.6, noise: float = 0.02) -> tuple[DocumentInput, DocumentInput]:
    """Write the text PDF and its scanned twin; their DocumentInputs (text, scanned)."""
    text = build_pdf(doc_of(table))
    scan = scanned_twin(text, dpi=dpi, noise=noise, rotate_deg=rotate_deg, seed=len(name))
    out = []
    for suffix, data in (("", text), ("_scanned", scan)):
        p = folder / f"{name}{suffix}.pdf"
        p.write_bytes(data)
        out.append(DocumentInput(path=str(p), source=p.name, doc_id=sha256_file(p)))
    return out[0], out[1]


def truth(table: TableSpec) -> list[list[str]]:
    """The printed grid (header rows then body), spans' covered slots empty."""
    return [list(r) + [""] * (table.n_cols - len(r)) for r in table.header + table.rows]


def has_lang(code: str) -> bool:
    """Whether Tesseract is installed with the `code` language pack."""
    exe = shutil.which("tesseract")
    if exe is None:
        return False
    out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, check=False)
    return code in out.stdout.split()


def scanned_rows(pdf: bytes, *, rotate_deg: float, seed: int, dpi: int = 200) -> list[list[list[str]]]:
    """The rows of each table the OCR layer reads (`OcrExtractor.read_image`) on the first
    page of `pdf`'s scanned twin (`dpi`, tilted `rotate_deg`), each row its cells' texts."""
    import numpy as np
    import pymupdf

    from rowkeeper.extractors.ocr_extractor import OcrExtractor

    scan = pymupdf.open(stream=scanned_twin(pdf, dpi=dpi, rotate_deg=rotate_deg, seed=seed), filetype="pdf")
    pix = scan[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    tables, _, _ = OcrExtractor().read_image(gray)
    return [[[c.text for c in t.cells if c.row == r] for r in range(t.n_rows)] for t in tables]

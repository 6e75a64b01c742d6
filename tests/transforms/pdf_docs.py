"""Generated documents with known structure, shared by the PDF tests and bench/structure.py."""

from __future__ import annotations

from pathlib import Path

from rowkeeper.config import TransformConfig
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput, PageInfo, Table
from samples.make_samples import sample_specs
from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf, numbers_rows


def hungarian() -> DocSpec:
    """Hungarian price list: space thousands, decimal comma, forint suffix, dotted dates."""
    rows = [[f"Termék {i}", f"{1000 + 137 * i:,}".replace(",", " ") + " Ft",
             f"{i},5", f"2026.03.{10 + i:02d}."] for i in range(1, 9)]
    return DocSpec(title="Árlista 2026", blocks=[
        Heading("2. Irodaszerek"),
        Paragraph("Az árak bruttó értékek, forintban értendők."),
        TableSpec(caption="1. táblázat Árak", header=[["Megnevezés", "Ár", "Súly (kg)", "Dátum"]],
                  rows=rows, footnotes=["* Az árak tájékoztató jellegűek."])])


def vietnamese() -> DocSpec:
    """Vietnamese fee table: dot thousands, đ suffix, decimal comma percentages, dd/mm/yyyy."""
    rows = [[f"Căn hộ {i}", f"{25000 * i:,}".replace(",", ".") + " đ", f"{i},25%",
             f"{i:02d}/03/2026"] for i in range(1, 8)]
    return DocSpec(title="Bảng phí quản lý", blocks=[
        Heading("1. Phí dịch vụ"),
        TableSpec(caption="Bảng 1 Phí quản lý hằng tháng",
                  header=[["Căn hộ", "Phí", "Tỷ lệ", "Ngày"]], rows=rows,
                  footnotes=["Ghi chú: Giá đã bao gồm VAT."])])


def german() -> DocSpec:
    """German table: '1.234' thousands with no decimal in the column, EUR amounts, dates."""
    rows = [[f"Artikel {i}", f"{1000 * i + 234:,}".replace(",", "."),
             f"{12 * i},50 €", f"{i:02d}.04.2026"] for i in range(1, 7)]
    return DocSpec(title="Preisliste", blocks=[
        Heading("3. Büromöbel"),
        Paragraph("Alle Preise verstehen sich zuzüglich Mehrwertsteuer und Versand."),
        TableSpec(caption="Tabelle 2 Lagerbestand", header=[["Artikel", "Menge", "Preis", "Datum"]],
                  rows=rows, footnotes=["Quelle: Lagerverwaltung"])])


def multi_header() -> DocSpec:
    """Two header rows with column-spanning group labels, and a row-spanning label in the body."""
    header = [["Model", "BLEU", "", "TER", ""], ["", "EN-DE", "EN-FR", "EN-DE", "EN-FR"]]
    rows = [["base", "27.3", "38.1", "55.0", "47.2"], ["", "28.4", "39.2", "53.1", "45.0"],
            ["big", "29.1", "41.0", "51.2", "44.3"], ["small", "25.0", "35.5", "58.9", "50.1"]]
    return DocSpec(title="Results", blocks=[
        Heading("4. Evaluation"),
        TableSpec(caption="Table 3 Translation quality", header=header, rows=rows,
                  spans=[(0, 0, 2, 1), (0, 1, 1, 2), (0, 3, 1, 2), (2, 0, 2, 1)])])


def two_tables_split_by_heading() -> DocSpec:
    """Two same-shaped tables on consecutive pages, the second under its own heading."""
    return DocSpec(title="Inventory", page_numbers=True, blocks=[
        Heading("1. Warehouse A"),
        TableSpec(header=[["Part", "Price", "Count"]], rows=numbers_rows(44, seed=1)),
        Heading("2. Warehouse B"),
        TableSpec(header=[["Part", "Price", "Count"]], rows=numbers_rows(6, seed=2)),
    ])


def caption_below() -> DocSpec:
    """Caption printed under the table, followed by a note."""
    return DocSpec(blocks=[
        Heading("Summary"),
        TableSpec(caption="Table 9 Totals", caption_below=True,
                  header=[["Quarter", "Revenue", "Margin"]],
                  rows=[["Q1", "1,200.5", "12.5%"], ["Q2", "1,310.0", "13.0%"],
                        ["Q3", "1,290.2", "12.1%"]], footnotes=["Note: unaudited."])])


def structure_specs() -> dict[str, DocSpec]:
    """Every generated test document by name (the bundled samples included)."""
    return {**sample_specs(), "hungarian": hungarian(), "vietnamese": vietnamese(),
            "german": german(), "multi_header": multi_header(),
            "split_by_heading": two_tables_split_by_heading(), "caption_below": caption_below()}


def write_pdf(spec: DocSpec, path: Path) -> Path:
    """Build `spec` into `path`."""
    path.write_bytes(build_pdf(spec))
    return path


def tables_of(path: Path, config: TransformConfig | None = None) -> tuple[Table, ...]:
    """Extract a PDF with the real PyMuPDF layer and text layer, then assemble its tables."""
    import pymupdf

    from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
    from rowkeeper.extractors.text_layer import read_lines
    from rowkeeper.transforms.assemble import assemble_tables

    doc = DocumentInput(path=str(path), source=str(path), doc_id=sha256_file(path))
    with pymupdf.open(path) as pdf:
        info = [PageInfo(page=i + 1, kind="text", chars=1, image_coverage=0.0,
                         width=p.rect.width, height=p.rect.height) for i, p in enumerate(pdf)]
    numbers = [p.page for p in info]
    pieces = PyMuPDFExtractor().extract(doc, numbers).tables
    lines = read_lines(doc, numbers)
    return assemble_tables(doc.doc_id, doc.source, pieces, lines, info, config or TransformConfig())

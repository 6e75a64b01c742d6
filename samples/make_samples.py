"""Write the bundled sample PDFs (python -m samples.make_samples [DIR], default samples/pdfs).

Each sample stands for a case rowkeeper must get right; tests assert their cell values.
"""

from __future__ import annotations

import sys
from pathlib import Path

from samples.pdfgen import (
    DocSpec,
    Heading,
    Paragraph,
    TableSpec,
    build_pdf,
    mixed,
    numbers_rows,
    scanned_twin,
)

PROPERTIES = [
    ["サンハイツ泉", "13,000", "11,500"],
    ["グランメゾン青葉", "15,200", "12,000"],
    ["パークサイド仙台", "9,800", "8,700"],
]


def _property_rows(n: int) -> list[list[str]]:
    rows = []
    for i in range(n):
        name, fee, reserve = PROPERTIES[i % len(PROPERTIES)]
        rows.append([f"{name}{i + 1}", f"{int(fee.replace(',', '')) + 100 * i:,}", reserve])
    return rows


ENGLISH_PROPERTIES = [
    ["Sun Heights Izumi", "13,000", "11,500"],
    ["Grand Maison Aoba", "15,200", "12,000"],
    ["Parkside Sendai", "9,800", "8,700"],
]


def _english_property_rows(n: int) -> list[list[str]]:
    rows = []
    for i in range(n):
        name, fee, reserve = ENGLISH_PROPERTIES[i % len(ENGLISH_PROPERTIES)]
        rows.append([f"{name} {i + 1}", f"{int(fee.replace(',', '')) + 100 * i:,}", reserve])
    return rows


def handbook_spec() -> DocSpec:
    """The English property handbook whose second page the `mixed` sample holds as a scan."""
    return DocSpec(
        title="Managed properties handbook",
        page_numbers=True,
        blocks=[
            Heading("3. Managed properties"),
            Paragraph("Management fees and repair reserves are monthly amounts in JPY."),
            TableSpec(
                caption="Table 3 Management fees",
                header=[["Property", "Management fee", "Repair reserve"]],
                rows=_english_property_rows(44),
                col_widths=[215, 140, 140],
            ),
        ],
    )


def sample_pdfs() -> dict[str, bytes]:
    """Every bundled sample by file stem: the text documents of `sample_specs`, a scanned twin
    of `ruled` (image only: OCR) and a handbook whose table runs from a text page onto a
    scanned one (`mixed`: escalation per page, one merged table)."""
    pdfs = {name: build_pdf(spec) for name, spec in sample_specs().items()}
    pdfs["ruled_scanned"] = scanned_twin(pdfs["ruled"], dpi=150, noise=0.01, rotate_deg=0.4, seed=1)
    handbook = build_pdf(handbook_spec())
    scan = scanned_twin(handbook, dpi=150, noise=0.01, rotate_deg=0.3, seed=2)
    pdfs["mixed"] = mixed(handbook, scan, {2})
    return pdfs


def sample_specs() -> dict[str, DocSpec]:
    """The sample documents by file stem."""
    return {
        "ruled": DocSpec(
            title="Equipment price list 2026",
            blocks=[
                Heading("1. Office equipment"),
                Paragraph("Prices below are net of VAT and valid from 1 April 2026."),
                TableSpec(
                    caption="Table 1 Equipment prices",
                    header=[["Code", "Item", "Unit price", "Stock"]],
                    rows=[
                        ["01-001", "Desk lamp", "1,250.00", "42"],
                        ["01-002", "Office chair", "14,900.00", "7"],
                        ["01-003", "Standing desk", "38,500.00", "3"],
                        ["02-001", "Monitor arm", "6,480.00", "18"],
                        ["02-002", "Docking station", "21,990.00", "11"],
                    ],
                    col_widths=[80, 200, 120, 95],
                    footnotes=["* Prices in JPY."],
                ),
            ],
        ),
        "borderless": DocSpec(
            title="Quarterly results",
            blocks=[
                Heading("2. Revenue by region"),
                Paragraph("Revenue grew in every region except the north."),
                TableSpec(
                    caption="Table 2 Revenue by region (EUR thousand)",
                    header=[["Region", "Q1", "Q2", "Q3", "Q4"]],
                    rows=[
                        ["North", "1,200", "1,150", "1,080", "990"],
                        ["South", "2,340", "2,410", "2,502", "2,620"],
                        ["East", "880", "905", "940", "1,010"],
                        ["West", "1,760", "1,802", "1,845", "1,930"],
                    ],
                    ruled=False,
                ),
            ],
        ),
        "two_page": DocSpec(
            title="管理物件ハンドブック",
            running_header="管理物件ハンドブック 2026",
            page_numbers=True,
            blocks=[
                Heading("3. 管理物件"),
                Paragraph("管理費と修繕積立金は月額です。"),
                TableSpec(
                    caption="表2 管理費一覧",
                    header=[["物件名", "管理費", "修繕積立金"]],
                    rows=_property_rows(40),
                    col_widths=[215, 140, 140],
                    row_height=17,
                ),
                Paragraph("以上。"),
            ],
        ),
        "repeated_header": DocSpec(
            title="Parts catalogue",
            page_numbers=True,
            blocks=[
                Heading("5. Spare parts"),
                TableSpec(
                    caption="Table 5 Spare parts",
                    header=[["Part", "Price", "Weight", "Count"]],
                    rows=numbers_rows(95, seed=5, cols=4),
                    repeat_header=True,
                    continued_caption="Table 5 (continued)",
                ),
            ],
        ),
    }


def main(argv: list[str] | None = None) -> int:
    """Write every sample PDF into the folder given (default samples/pdfs)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path(__file__).resolve().parent / "pdfs"
    out.mkdir(parents=True, exist_ok=True)
    for name, data in sample_pdfs().items():
        (out / f"{name}.pdf").write_bytes(data)
        print(f"wrote {out / name}.pdf")
    return 0


if __name__ == "__main__":
    sys.exit(main())

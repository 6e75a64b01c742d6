"""Structure benchmark: generated documents with known tables -> merge, header and type scores.

    python bench/structure.py [--keep DIR] [-v]

Each case is a pdfgen DocSpec plus the truth for each of its tables: folded column names,
header row count, body row count and column types. The PDFs go through the real pipeline
steps (classify -> extractor cascade -> transforms.assemble) and are scored on:

* merge precision / recall over joins: a join is two consecutive pieces of one logical table;
  a piece belongs to the truth table whose first-column labels it holds (labels are unique);
* header accuracy: tables whose `columns` and `header_rows` equal the truth;
* type accuracy: columns whose type equals the truth (over all truth tables' columns);
* row accuracy: tables whose body row count equals the truth.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf  # noqa: E402


@dataclass
class Truth:
    """What one TableSpec must come out as."""

    columns: tuple[str, ...]
    header_rows: int
    n_rows: int
    types: tuple[str, ...]
    labels: tuple[str, ...]


@dataclass
class Case:
    """A document and the truth of its tables, in reading order."""

    name: str
    spec: DocSpec
    truth: list[Truth]


def table(tag: str, header: list[list[str]], rows: list[list[str]], types: tuple[str, ...],
          columns: tuple[str, ...] | None = None, **kw) -> tuple[TableSpec, Truth]:
    """A TableSpec and its truth (columns default to the single header row)."""
    cols = columns if columns is not None else (tuple(header[0]) if header else ("",) * len(rows[0]))
    labels = tuple(r[0] for r in rows if r[0])
    return TableSpec(header=header, rows=rows, **kw), Truth(cols, len(header), len(rows), types, labels)


def _num(i: int, k: int, style: str) -> str:
    n = (i * 7919 + k * 104729) % 99000 + 1000
    if style == "en":
        return f"{n:,}"
    if style == "de":
        return f"{n:,}".replace(",", ".")
    return f"{n:,}".replace(",", " ")


def _rows(tag: str, n: int, cols: int = 3, style: str = "en") -> list[list[str]]:
    return [[f"{tag} {i + 1:03d}"] + [_num(i, k, style) for k in range(cols - 1)] for i in range(n)]


def _doc(name: str, blocks: list, truth: list[Truth], **kw) -> Case:
    return Case(name, DocSpec(blocks=blocks, **kw), truth)


def merge_cases() -> list[Case]:
    """Tables cut by page breaks (header once / repeated) and look-alikes that must stay apart."""
    out = []
    props = [[f"{nm}{i + 1}", f"{13000 + 100 * i:,}", f"{11500 + 50 * (i % 3):,}"]
             for i, nm in enumerate(["サンハイツ泉", "グランメゾン青葉", "パークサイド仙台"] * 15)]
    t, tr = table("JA", [["物件名", "管理費", "修繕積立金"]], props, ("text", "integer", "integer"),
                  caption="表2 管理費一覧", col_widths=[215, 140, 140], row_height=17)
    out.append(_doc("ja_two_page", [Heading("3. 管理物件"), Paragraph("管理費は月額です。"), t], [tr],
                    title="管理物件ハンドブック", running_header="管理物件ハンドブック 2026",
                    page_numbers=True))
    for n, rep in ((95, True), (120, True), (70, False), (150, False)):
        t, tr = table(f"P{n}", [["Part", "Price", "Weight", "Count"]], _rows(f"P{n}", n, 4),
                      ("text", "integer", "integer", "integer"), caption=f"Table {n} Spare parts",
                      repeat_header=rep, continued_caption=f"Table {n} (continued)" if rep else None)
        out.append(_doc(f"en_{n}_{'repeat' if rep else 'once'}", [Heading("5. Spare parts"), t],
                        [tr], title="Parts catalogue", page_numbers=True))
    for sep in ("heading", "caption", "paragraph"):
        a, ta = table("A", [["Part", "Price", "Count"]], _rows("A", 39), ("text",) + ("integer",) * 2)
        b, tb = table("B", [["Part", "Price", "Count"]], _rows("B", 6), ("text",) + ("integer",) * 2,
                      caption="Table 2 Warehouse B" if sep == "caption" else None)
        mid = {"heading": [Heading("2. Warehouse B")], "caption": [],
               "paragraph": [Paragraph("The second warehouse holds fewer parts, listed below.")]}[sep]
        out.append(_doc(f"apart_{sep}", [Heading("1. Warehouse A"), a, *mid, b], [ta, tb],
                        title="Inventory", page_numbers=True))
    d, td = table("DE", [["Artikel", "Menge", "Preis"]], _rows("DE", 80, 3, "de"),
                  ("text", "integer", "integer"), caption="Tabelle 4 Bestand", repeat_header=True)
    out.append(_doc("de_repeat", [Heading("4. Lager"), d], [td], title="Bestandsliste",
                    running_header="Bestandsliste 2026", page_numbers=True))
    return out


def header_cases() -> list[Case]:
    """Multi-row headers with group spans, years over amounts, headerless and text tables."""
    out = []
    t, tr = table("M", [["Model", "BLEU", "", "TER", ""], ["", "EN-DE", "EN-FR", "EN-DE", "EN-FR"]],
                  [["base", "27.3", "38.1", "55.0", "47.2"], ["big", "29.1", "41.0", "51.2", "44.3"],
                   ["small", "25.0", "35.5", "58.9", "50.1"]], ("text",) + ("decimal",) * 4,
                  columns=("Model", "BLEU EN-DE", "BLEU EN-FR", "TER EN-DE", "TER EN-FR"),
                  spans=[(0, 0, 2, 1), (0, 1, 1, 2), (0, 3, 1, 2)], caption="Table 3 Quality")
    out.append(_doc("two_row_header_spans", [Heading("4. Evaluation"), t], [tr]))
    t, tr = table("U", [["Region", "Umsatz", "Anteil"], ["", "EUR", "%"]],
                  [["Nord", "1.200,50", "12,5"], ["Süd", "2.340,00", "24,1"], ["Ost", "880,25", "9,0"],
                   ["West", "1.760,75", "18,2"]], ("text", "decimal", "decimal"),
                  columns=("Region", "Umsatz EUR", "Anteil %"), caption="Tabelle 1 Umsatz")
    out.append(_doc("units_row_header_de", [Heading("1. Ergebnisse"), t], [tr]))
    t, tr = table("Y", [["Item", "2025", "2024"]],
                  [["Sales", "1,200", "1,100"], ["Costs", "(800)", "(750)"], ["Profit", "400", "350"]],
                  ("text", "integer", "integer"), caption="Table 7 Income")
    out.append(_doc("years_header", [Heading("Income statement"), t], [tr]))
    t, tr = table("N", [], [["1", "12.5", "300"], ["2", "13.0", "310"], ["3", "12.9", "305"]],
                  ("integer", "decimal", "integer"))
    out.append(_doc("no_header_numeric", [Heading("Raw readings"), t], [tr]))
    t, tr = table("G", [["Term", "Meaning"]],
                  [["Lessee", "The party renting the equipment"], ["Lessor", "The owner"],
                   ["Term", "The rental period in months"]], ("text", "text"),
                  caption="Table 1 Glossary")
    out.append(_doc("text_table", [Heading("Definitions"), t], [tr]))
    t, tr = table("S", [["Group", "Item", "Qty"]],
                  [["Desks", "Desk A", "4"], ["", "Desk B", "2"], ["Chairs", "Chair A", "10"],
                   ["", "Chair B", "8"]], ("text", "text", "integer"),
                  spans=[(1, 0, 2, 1), (3, 0, 2, 1)], caption="Table 2 Furniture")
    out.append(_doc("row_spans_body", [Heading("Furniture"), t], [tr]))
    return out


def locale_cases() -> list[Case]:
    """Hungarian, Vietnamese, German, Japanese number/date formats; captions and footnotes."""
    hu, thu = table("HU", [["Megnevezés", "Ár", "Súly", "Dátum"]],
                    [[f"Termék {i}", f"{1000 + 137 * i:,}".replace(",", " ") + " Ft", f"{i},5",
                      f"2026.03.{10 + i:02d}."] for i in range(1, 9)],
                    ("text", "currency", "decimal", "date"), caption="1. táblázat Árak",
                    footnotes=["* Az árak tájékoztató jellegűek."])
    vi, tvi = table("VI", [["Căn hộ", "Phí", "Tỷ lệ", "Ngày"]],
                    [[f"Căn hộ {i}", f"{25000 * i:,}".replace(",", ".") + " đ", f"{i},25%",
                      f"{i:02d}/03/2026"] for i in range(1, 8)],
                    ("text", "currency", "percent", "date"), caption="Bảng 1 Phí quản lý",
                    footnotes=["Ghi chú: Giá đã bao gồm VAT."])
    de, tde = table("DE", [["Artikel", "Menge", "Preis", "Datum"]],
                    [[f"Artikel {i}", f"{1000 * i + 234:,}".replace(",", "."), f"{12 * i},50 €",
                      f"{i:02d}.04.2026"] for i in range(1, 7)],
                    ("text", "integer", "currency", "date"), caption="Tabelle 2 Lager",
                    footnotes=["Quelle: Lagerverwaltung"])
    ja, tja = table("JA", [["項目", "金額", "比率", "日付"]],
                    [[f"項目{i}", f"{3000 * i:,}円", f"{i}.5%", f"2026年3月{i}日"] for i in range(1, 7)],
                    ("text", "currency", "percent", "date"), caption="表1 費用",
                    footnotes=["※ 税込み金額です。"])
    en, ten = table("EN", [["Account", "Amount", "Change"]],
                    [["Cash", "$1,234.50", "-2.5%"], ["Receivables", "$(120.00)", "3.1%"],
                     ["Inventory", "$9,870.25", "−0.4%"]], ("text", "currency", "percent"),
                    caption="Table 4 Balances", caption_below=True, footnotes=["Note: unaudited."])
    return [
        _doc("hungarian", [Heading("2. Irodaszerek"), Paragraph("Az árak bruttó értékek."), hu], [thu],
             title="Árlista 2026"),
        _doc("vietnamese", [Heading("1. Phí dịch vụ"), vi], [tvi], title="Bảng phí quản lý"),
        _doc("german", [Heading("3. Büromöbel"), Paragraph("Alle Preise zuzüglich Versand."), de],
             [tde], title="Preisliste"),
        _doc("japanese_units", [Heading("第1章 費用"), ja], [tja], title="費用一覧"),
        _doc("english_caption_below", [Heading("Balances"), en], [ten]),
    ]


def cases() -> list[Case]:
    """All benchmark documents."""
    return merge_cases() + header_cases() + locale_cases()


def run_pipeline(path: Path):  # -> (pieces, tables)
    """classify -> cascade -> assemble, as flows.pipeline does (no chunks, no sinks)."""
    from rowkeeper.config import ClassifyConfig, ExtractConfig, TransformConfig
    from rowkeeper.extractors.cascade import run_cascade
    from rowkeeper.extractors.classify import classify_document
    from rowkeeper.ids import sha256_file
    from rowkeeper.models import DocumentInput
    from rowkeeper.transforms.assemble import assemble_tables
    from rowkeeper.transforms.validate import piece_validator

    tcfg = TransformConfig()
    doc = DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))
    pages = classify_document(doc, ClassifyConfig())
    cascade = run_cascade(doc, pages, ExtractConfig(), validate=piece_validator(tcfg))
    tables = assemble_tables(doc.doc_id, doc.source, cascade.tables, cascade.lines, pages, tcfg)
    return cascade.tables, tables


def _owner(first_col: list[str], truth: list[Truth]) -> int | None:
    votes = Counter(i for label in first_col for i, t in enumerate(truth) if label in t.labels)
    return votes.most_common(1)[0][0] if votes else None


def score_case(case: Case, pieces, tables) -> dict:
    """Joins (truth, predicted, correct), and per truth table: header, types, rows correct."""
    order = sorted(pieces, key=lambda p: (p.page, p.bbox[1], p.bbox[0]))
    owner = {p.piece_id: _owner([r[0] for r in p.grid() if r], case.truth) for p in order}
    truth_joins = {(a.piece_id, b.piece_id) for a, b in zip(order, order[1:], strict=False)
                   if owner[a.piece_id] is not None and owner[a.piece_id] == owner[b.piece_id]}
    pred_joins = {(a, b) for t in tables for a, b in zip(t.merged_from, t.merged_from[1:], strict=False)}
    out = {"truth_joins": len(truth_joins), "pred_joins": len(pred_joins),
           "correct_joins": len(pred_joins & truth_joins), "tables": [], "problems": []}
    for i, tr in enumerate(case.truth):
        best = max(tables, key=lambda t: sum(r[0] in tr.labels for r in t.rows if r), default=None)
        got_cols = tuple(best.columns) if best else ()
        ok_header = best is not None and got_cols == tr.columns and best.header_rows == tr.header_rows
        got_types = tuple(best.column_types) if best else ()
        type_hits = sum(a == b for a, b in zip(got_types, tr.types, strict=False))
        ok_rows = best is not None and len(best.rows) == tr.n_rows
        out["tables"].append((ok_header, type_hits, len(tr.types), ok_rows))
        if not ok_header:
            out["problems"].append(f"t{i}: columns {got_cols} hr={best and best.header_rows}, want {tr.columns}")
        if type_hits < len(tr.types):
            out["problems"].append(f"t{i}: types {got_types}, want {tr.types}")
        if not ok_rows:
            out["problems"].append(f"t{i}: {best and len(best.rows)} rows, want {tr.n_rows}")
    if pred_joins - truth_joins or truth_joins - pred_joins:
        out["problems"].append(f"joins: wrong {len(pred_joins - truth_joins)}, missed {len(truth_joins - pred_joins)}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Generate, run and score every case; print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", default=None, help="folder to keep the generated PDFs in")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--only", default=None, help="regex over case names")
    args = ap.parse_args(argv)
    folder = Path(args.keep or tempfile.mkdtemp(prefix="rk-structure-"))
    folder.mkdir(parents=True, exist_ok=True)
    all_cases = [c for c in cases() if not args.only or re.search(args.only, c.name)]
    totals = Counter()
    start = time.perf_counter()
    for case in all_cases:
        path = folder / f"{case.name}.pdf"
        path.write_bytes(build_pdf(case.spec))
        r = score_case(case, *run_pipeline(path))
        for k in ("truth_joins", "pred_joins", "correct_joins"):
            totals[k] += r[k]
        for ok_h, hits, n, ok_r in r["tables"]:
            totals["tables"] += 1
            totals["headers_ok"] += ok_h
            totals["rows_ok"] += ok_r
            totals["type_hits"] += hits
            totals["type_cols"] += n
        if r["problems"] and args.verbose:
            print(f"{case.name}: " + "; ".join(r["problems"]))
    seconds = time.perf_counter() - start
    prec = totals["correct_joins"] / totals["pred_joins"] if totals["pred_joins"] else 1.0
    rec = totals["correct_joins"] / totals["truth_joins"] if totals["truth_joins"] else 1.0
    print(f"documents {len(all_cases)}  tables {totals['tables']}  joins truth {totals['truth_joins']} "
          f"predicted {totals['pred_joins']}  seconds {seconds:.1f}")
    print(f"merge_precision {prec:.3f}")
    print(f"merge_recall {rec:.3f}")
    print(f"header_accuracy {totals['headers_ok'] / totals['tables']:.3f}")
    print(f"type_accuracy {totals['type_hits'] / totals['type_cols']:.3f}")
    print(f"row_count_accuracy {totals['rows_ok'] / totals['tables']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

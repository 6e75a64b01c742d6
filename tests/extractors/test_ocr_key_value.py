"""Header rows on scanned pages come from the one header model (transforms/headers.py), as on
text pages: a key-value table read from a scan keeps its first pair as a row."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import load_config
from samples.pdfgen import DocSpec, Heading, TableSpec, build_pdf, scanned_twin

pytest.importorskip("rapidocr")


def _tables_of_scan(tmp_path: Path, spec: DocSpec) -> list:
    from rowkeeper.flows.pipeline import load_document, process_document

    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_twin(build_pdf(spec), dpi=150, noise=0.02, rotate_deg=0.5, seed=7))
    return process_document(load_document(str(path)), load_config().with_out(str(tmp_path / "out"))).tables


@pytest.mark.parametrize("pairs", [
    [["Customer", "Northgate"], ["Address", "Hill Road 21"], ["Valid until", "11.08.2020"], ["Phone", "762-3748"]],
    [["Ügyfél", "Dunapart 21"], ["Cím", "Hegyalja 79"], ["Érvényes", "2022.04.14."], ["Telefon", "954-4151"]],
], ids=["en", "hu"])
def test_a_scanned_key_value_table_keeps_its_first_pair_as_a_row(tmp_path: Path, pairs: list[list[str]]) -> None:
    """Keys beside values of mixed kinds (a name, an address, a date, a phone number), no header:
    the first pair is no column names (the OCR layer flagged a label row over a number below)."""
    spec = DocSpec(title="Supplier overview", blocks=[
        Heading("1. Contract"), TableSpec(header=[], rows=pairs, ruled=False, bold_header=False)])
    (t,) = _tables_of_scan(tmp_path, spec)
    assert [r[0] for r in t.rows] == [k for k, _ in pairs]
    assert not any(t.columns)


def test_a_scanned_label_row_over_figures_stays_the_header(tmp_path: Path) -> None:
    spec = DocSpec(title="Supplier overview", blocks=[
        Heading("1. Costs"), TableSpec(header=[["Site", "Rent", "Energy"]], rows=[
            ["North", "1,200", "310"], ["South", "2,340", "415"], ["East", "880", "190"]], ruled=False)])
    (t,) = _tables_of_scan(tmp_path, spec)
    assert t.columns == ("Site", "Rent", "Energy")
    assert [r[0] for r in t.rows] == ["North", "South", "East"]

"""Output per document bounded by its own text, by default (issue 15 item 3): a table whose
column names dwarf its values loses its `row` chunks past chunk.max_output_ratio (10), with a
warning, and every value stays answerable from a `row_group` chunk that names its row key and
column; an ordinary table, a table of short rows under a long context and a table of pictures
keep all their chunk kinds."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import Config
from rowkeeper.flows.pipeline import load_document, process_document
from samples import pdfgen
from samples.make_samples import sample_specs

NAMES = ["Unit", "Maintenance reserve (EUR/yr)", "Inspection surcharge (EUR/qtr)",
         "Call-out allowance (EUR/visit)"]


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ruled table of 12 units: long column names over one-digit values."""
    rows = [[f"U{i}", str(i % 10), str((i * 3) % 10), str((i * 7) % 10)] for i in range(1, 13)]
    spec = pdfgen.DocSpec(title="Reserves", blocks=[
        pdfgen.Heading("Building reserves"),
        pdfgen.TableSpec(header=[NAMES], rows=rows, caption="Table 1 Reserves per unit",
                         col_widths=[40, 150, 150, 150], font_size=7)])
    path = tmp_path_factory.mktemp("bound") / "long_names.pdf"
    path.write_bytes(pdfgen.build_pdf(spec))
    return path


def _ratio(result) -> float:
    return sum(len(c.text) for c in result.chunks) / sum(p.chars for p in result.document.pages)


def test_a_table_whose_names_dwarf_its_values_keeps_row_groups_and_drops_row_chunks(long_names: Path):
    unbounded = process_document(load_document(str(long_names)), Config.model_validate(
        {"chunk": {"max_output_ratio": 0}}))
    result = process_document(load_document(str(long_names)), Config())  # the default bound
    assert result.document.status == "ok"
    (table,) = result.tables
    assert list(table.columns) == NAMES and len(table.rows) == 12
    kinds = {c.kind for c in result.chunks if c.table_id == table.table_id}
    assert kinds == {"table", "row_group"}
    assert "row" in {c.kind for c in unbounded.chunks}
    groups = "\n".join(c.text for c in result.chunks if c.kind == "row_group")
    assert "Row 7: Unit=U7 / Maintenance reserve (EUR/yr)=7 / Inspection surcharge (EUR/qtr)=1 / " \
           "Call-out allowance (EUR/visit)=9" in groups
    assert any("row chunks left out" in w and "chunk.max_output_ratio=10" in w for w in result.document.warnings)
    assert _ratio(result) < 0.6 * _ratio(unbounded)  # 21.9x -> 11.4x when written


def test_an_ordinary_table_keeps_its_row_chunks(tmp_path: Path):
    path = tmp_path / "ruled.pdf"
    path.write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    result = process_document(load_document(str(path)), Config())
    assert {c.kind for c in result.chunks} >= {"table", "row_group", "row"}
    assert not [w for w in result.document.warnings if "row chunks left out" in w]
    assert _ratio(result) < 10


def test_short_rows_under_a_long_context_and_pictures_keep_their_row_chunks(tmp_path: Path):
    """Over 10x as written (each row chunk repeats the section path and caption CONTRACT.md
    requires, and the picture sentences), within it as measured: every kind stays."""
    from rowkeeper.transforms.bounds import measured_chars

    rows = [[f"Part {i:02d}", f"{100 + i}", "ok"] for i in range(1, 31)]
    spec = pdfgen.DocSpec(title="Inspection report of the north building", blocks=[
        pdfgen.Heading("1. Findings of the quarterly inspection"),
        pdfgen.TableSpec(caption="Table 1 Parts inspected in the third quarter", header=[["Part", "Weight", "Status"]],
                         rows=rows, images={(6, 2): pdfgen.Image(), (25, 1): pdfgen.Image()})])
    path = tmp_path / "parts.pdf"
    path.write_bytes(pdfgen.build_pdf(spec))
    result = process_document(load_document(str(path)), Config().with_out(str(tmp_path / "out")))
    (table,) = result.tables
    rows_out = [c for c in result.chunks if c.kind == "row"]
    assert len(rows_out) == 30 and {c.kind for c in result.chunks} >= {"table", "row_group", "row"}
    assert "in row 7, column Status" in rows_out[6].text
    assert _ratio(result) > 10  # as written
    assert measured_chars(result.chunks, result.tables, Config().chunk) < 10 * sum(
        p.chars for p in result.document.pages)
    assert not [w for w in result.document.warnings if "row chunks left out" in w]

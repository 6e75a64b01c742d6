"""`rowkeeper inspect` and the chunk stages on real generated PDFs (no mocks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rowkeeper.cli import main
from rowkeeper.config import Config
from rowkeeper.flows.inspector import Stages, run_stages
from rowkeeper.transforms.selfcontained import measure_self_contained
from samples.pdfgen import DocSpec, Heading, Image, Paragraph, TableSpec, build_pdf


@pytest.fixture(scope="module")
def two_page(pdf_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Stages:
    return run_stages(pdf_dir / "two_page.pdf", Config(), tmp_path_factory.mktemp("crops"))


def test_two_page_property_table_row_groups_each_name_the_columns(two_page: Stages) -> None:
    [table] = two_page.tables
    assert len(table.rows) == 40 and table.pages == (1, 2)
    groups = [c for c in two_page.chunks if c.kind == "row_group"]
    assert groups and all("Columns: 物件名 / 管理費 / 修繕積立金" in g.text for g in groups)
    assert groups[-1].metadata["row_end"] == 39 and 2 in groups[-1].metadata["pages"]


def test_every_row_chunk_of_the_real_table_holds_key_column_value(two_page: Stages) -> None:
    [table] = two_page.tables
    rows = [c for c in two_page.chunks if c.kind == "row"]
    assert len(rows) == 40
    for chunk, row in zip(rows, table.rows, strict=True):
        assert f"物件名: {row[0]}" in chunk.text
        assert f"管理費: {row[1]}" in chunk.text and f"修繕積立金: {row[2]}" in chunk.text
    assert "物件名: サンハイツ泉40 | 管理費: 16,900" in rows[39].text
    assert measure_self_contained(two_page.tables, two_page.chunks).fraction == 1.0


def test_text_chunks_hold_the_prose_and_never_a_table_row(two_page: Stages) -> None:
    texts = [c for c in two_page.chunks if c.kind == "text"]
    joined = "\n".join(c.text for c in texts)
    assert "管理費と修繕積立金は月額です。" in joined and "以上。" in joined
    for c in texts:
        assert not any(row[0] in c.text for row in two_page.tables[0].rows)
        assert "表2 管理費一覧" not in c.text  # the caption belongs to the table's chunks
        assert "- 1 -" not in c.text and "2026" not in c.text  # page furniture is not prose
    # the paragraph before the table and the one after it are never one chunk
    assert not any("月額" in c.text and "以上" in c.text for c in texts)


def _image_doc() -> DocSpec:
    rows = [[f"Part {i:02d}", f"{100 + i}", "ok"] for i in range(1, 31)]
    return DocSpec(title="Inspection report", blocks=[
        Heading("1. Findings"),
        Paragraph("Photos of damaged parts are shown in the table."),
        Image(width=80, height=30),  # a free-floating picture: not evidence for any row
        TableSpec(caption="Table 1 Parts", header=[["Part", "Weight", "Status"]], rows=rows,
                  images={(6, 2): Image(), (25, 1): Image()}),
    ])


def test_an_image_inside_a_table_lands_in_its_row_group_and_row(tmp_path: Path) -> None:
    pdf = tmp_path / "photos.pdf"
    pdf.write_bytes(build_pdf(_image_doc()))
    st = run_stages(pdf, Config().model_copy(update={"chunk": Config().chunk.model_copy(
        update={"max_chars": 500})}), tmp_path / "out")
    assert len(st.images) == 3
    evidence = {c.chunk_id: c.metadata.get("visual_evidence", []) for c in st.chunks}
    rows = {c.metadata["row_start"]: c for c in st.chunks if c.kind == "row"}
    assert [e["column"] for e in rows[6].metadata["visual_evidence"]] == ["Status"]
    assert [e["column"] for e in rows[25].metadata["visual_evidence"]] == ["Weight"]
    assert "in row 7, column Status" in rows[6].text
    assert sum(bool(v) for k, v in evidence.items() if ":r" in k and ":rg" not in k) == 2
    for g in (c for c in st.chunks if c.kind == "row_group"):
        holds = {e["row"] for e in g.metadata.get("visual_evidence", [])}
        span = range(g.metadata["row_start"], g.metadata["row_end"] + 1)
        assert holds == {r for r in (6, 25) if r in span}
    crop = rows[6].metadata["visual_evidence"][0]["crop_path"]
    assert (tmp_path / "out" / crop).read_bytes()[:4] == b"\x89PNG"


def test_inspect_cli_dumps_every_stage(pdf_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "dump"
    assert main(["inspect", str(pdf_dir / "ruled.pdf"), "--dump", str(out)]) == 0
    names = {p.name for p in out.iterdir()}
    for stem in ("01_pages", "02_extracted", "03_tables", "04_chunks"):
        assert {f"{stem}.jsonl", f"{stem}.md"} <= names
    pages = [json.loads(x) for x in (out / "01_pages.jsonl").read_text().splitlines()]
    assert pages[0]["kind"] == "text" and pages[0]["chars"] > 50
    raw = [json.loads(x) for x in (out / "02_extracted.jsonl").read_text().splitlines()]
    assert raw and raw[0]["attempt"]["accepted"] and raw[0]["grid"][1][1] == "Desk lamp"
    assert "| 01-002 | Office chair | 14,900.00 | 7 |" in (out / "03_tables.md").read_text()
    chunks_md = (out / "04_chunks.md").read_text()
    assert "Self-contained: 1.000" in chunks_md
    assert "Item: Desk lamp" in chunks_md or "Item=Desk lamp" in chunks_md


def test_inspect_of_a_broken_pdf_says_why(pdf_dir: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(pdf_dir / "corrupt.pdf"), "--dump", str(tmp_path / "d")]) == 1
    assert "corrupt.pdf" in capsys.readouterr().out


def test_inspect_of_a_missing_file_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "missing.pdf"
    assert main(["inspect", str(missing), "--dump", str(tmp_path / "dump")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"rowkeeper inspect: {missing}: no such file"]
    assert main(["inspect", str(tmp_path), "--dump", str(tmp_path / "dump")]) == 2
    assert capsys.readouterr().err.strip().endswith("is a folder, not a PDF file")
    assert not (tmp_path / "dump").exists()

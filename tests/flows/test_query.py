"""`rowkeeper query`: BM25 over chunks.jsonl with citations and the k/n table expansion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rowkeeper.cli import main
from rowkeeper.config import Config
from rowkeeper.flows.inspector import run_stages
from rowkeeper.flows.query import ChunkIndex, citation, load_chunks
from rowkeeper.models import Chunk
from rowkeeper.transforms.retrieval import Hit, expand_to_tables, tokenize


@pytest.fixture(scope="module")
def run_dir(pdf_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding chunks.jsonl for the ruled and two-page samples (real stages)."""
    out = tmp_path_factory.mktemp("run")
    with (out / "chunks.jsonl").open("w", encoding="utf-8") as f:
        for name in ("ruled.pdf", "two_page.pdf"):
            for c in run_stages(pdf_dir / name, Config()).chunks:
                f.write(c.model_dump_json() + "\n")
    return out


def test_a_row_question_is_answered_by_its_row_with_a_citation(
        run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", str(run_dir), "What is the Unit price of Office chair?", "-k", "3"]) == 0
    out = capsys.readouterr().out
    first = out.split("\n\n")[0]
    assert "[row]" in first and "Unit price: 14,900.00" in first
    assert 'ruled.pdf p.1, table' in first and '"Table 1 Equipment prices", row 2' in first


def test_japanese_row_key_finds_its_row(run_dir: Path) -> None:
    hits = ChunkIndex(load_chunks(run_dir)).ask("サンハイツ泉13の管理費は?", k=3)
    assert hits[0].chunk.kind == "row" and "管理費: 14,200" in hits[0].chunk.text
    assert hits[0].chunk.metadata["pages"] == [1]


def test_hits_over_most_rows_expand_to_the_whole_table(
        run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", str(run_dir), "Desk lamp chair desk monitor docking", "-k", "6",
                 "--json"]) == 0
    hits = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert hits[0]["kind"] == "table" and len(hits[0]["expanded_from"]) >= 3
    assert "| 02-002 | Docking station | 21,990.00 | 11 |" in hits[0]["text"]


def test_query_without_a_run_folder_is_a_clear_error(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", str(tmp_path), "anything"]) == 2
    assert "no chunks.jsonl" in capsys.readouterr().err


def _chunk(cid: str, kind: str, start: int | None, end: int | None, n: int = 10) -> Chunk:
    return Chunk(chunk_id=cid, doc_id="d", source="s.pdf", table_id="t1", kind=kind,  # type: ignore[arg-type]
                 text=cid, metadata={"row_start": start, "row_end": end, "n_body_rows": n,
                                     "pages": [3], "caption": "Table 1 Fees"})


def test_expansion_rule_counts_rows_of_row_hits() -> None:
    table = _chunk("t1:table", "table", 0, 9)
    rows = [Hit(_chunk(f"t1:r{i}", "row", i, i), 1.0) for i in range(6)]
    assert expand_to_tables(rows[:5], {"t1": table}, 0.6) == rows[:5]  # 5/10 < 0.6
    [hit] = expand_to_tables(rows, {"t1": table}, 0.6)  # 6/10
    assert hit.chunk.kind == "table" and len(hit.expanded_from) == 6
    group = Hit(_chunk("t1:rg1", "row_group", 0, 8), 2.0)  # one group hit is not 9 matched rows
    assert expand_to_tables([group, rows[0]], {"t1": table}, 0.6)[0] is group


def test_citation_reads_like_a_reference() -> None:
    assert citation(_chunk("t1:r4", "row", 4, 4)) == 's.pdf p.3, table t1 "Table 1 Fees", row 5'


@given(st.text(max_size=60))
def test_tokenize_never_yields_empty_or_spaced_tokens(text: str) -> None:
    assert all(t and not any(ch.isspace() for ch in t) for t in tokenize(text))


def test_tokenize_matches_numbers_with_and_without_separators() -> None:
    assert "13000" in tokenize("13,000") and "13000" in tokenize("１３０００")
    assert tokenize("管理費") == ["管理", "理費"]


def test_pipeline_writes_the_crop_an_in_table_image_chunk_cites(tmp_path: Path) -> None:
    from rowkeeper.flows.pipeline import load_document, process_document
    from samples.pdfgen import build_pdf
    from tests.flows.test_inspect import _image_doc

    pdf = tmp_path / "photos.pdf"
    pdf.write_bytes(build_pdf(_image_doc()))
    result = process_document(load_document(str(pdf)), Config().with_out(str(tmp_path / "out")))
    [row7] = [c for c in result.chunks if c.kind == "row" and c.metadata["row_key"] == "Part 07"]
    [ev] = row7.metadata["visual_evidence"]
    assert ev["column"] == "Status" and ev["page"] == 1
    assert (tmp_path / "out" / ev["crop_path"]).read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_run_then_query_end_to_end_with_image_evidence(pdf_dir: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from samples.pdfgen import build_pdf
    from tests.flows.test_inspect import _image_doc

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "photos.pdf").write_bytes(build_pdf(_image_doc()))
    out = tmp_path / "out"
    assert main(["run", str(tmp_path / "in"), "--out", str(out), "--no-progress"]) == 0
    chunks = load_chunks(out)
    [row7] = [c for c in chunks if c.kind == "row" and c.metadata["row_key"] == "Part 07"]
    [ev] = row7.metadata["visual_evidence"]
    assert ev["column"] == "Status" and (out / ev["crop_path"]).stat().st_size > 0
    report = json.loads((out / "report.json").read_text())
    assert report["totals"]["self_contained_rate"] == 1.0
    capsys.readouterr()
    assert main(["query", str(out), "What is the Weight of Part 26?", "-k", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Part: Part 26 | Weight: 126" in printed and "photos.pdf p.1" in printed
    assert "in row 26, column Weight" in printed

"""Every store lands in the run folder unless its config gives a path: a LanceDB-only or
DuckDB-only config written with --out (or with `out:` in the config) leaves nothing in the
working directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.ingest import ingest_plain


@pytest.fixture()
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


def test_duckdb_only_config_writes_under_out(pdf_dir: Path, tmp_path: Path, elsewhere: Path) -> None:
    import duckdb

    cfg = tmp_path / "duck.yaml"
    cfg.write_text("sinks:\n  - type: duckdb\n")
    out = tmp_path / "run"
    ingest_plain([str(pdf_dir / "ruled.pdf")], load_config(cfg).with_out(str(out)))  # as --out does
    assert list(elsewhere.iterdir()) == []
    con = duckdb.connect(str(out / "rowkeeper.duckdb"), read_only=True)
    items = con.execute("SELECT text FROM cells WHERE \"column\" = 'Item' ORDER BY row").fetchall()
    assert [r[0] for r in items][:2] == ["Desk lamp", "Office chair"]


def test_lancedb_only_config_writes_under_its_out_key(pdf_dir: Path, tmp_path: Path,
                                                      elsewhere: Path) -> None:
    import lancedb

    out = tmp_path / "nightly"
    cfg = tmp_path / "lance.yaml"
    cfg.write_text(f"out: {out}\nsinks:\n  - type: lancedb\n    embedding: hashing\n")
    ingest_plain([str(pdf_dir / "ruled.pdf")], load_config(cfg))  # no --out: the config's `out:`
    assert list(elsewhere.iterdir()) == []
    assert (out / "report.json").exists()
    chunks = lancedb.connect(str(out / "lancedb")).open_table("chunks")
    hits = chunks.search("Standing desk", query_type="fts").limit(3).to_list()
    assert hits and "38,500.00" in hits[0]["text"]


def test_an_explicit_store_path_is_kept(tmp_path: Path) -> None:
    cfg = tmp_path / "mixed.yaml"
    cfg.write_text(f"sinks:\n  - type: folder\n  - type: duckdb\n    path: {tmp_path}/keep.duckdb\n")
    config = load_config(cfg).with_out(str(tmp_path / "run"))
    assert [s.model_dump()["path"] for s in config.sinks] == [str(tmp_path / "run"),
                                                             f"{tmp_path}/keep.duckdb"]

"""Sink fixtures: each sink opened on real storage in a temp dir (a real server for Postgres)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rowkeeper.registry import resolve
from tests.sinks.pg_server import start_server

SinkFactory = Callable[[], Any]


def folder_options(tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, Any]:
    """Options of a folder sink in a temp dir."""
    return {"path": str(tmp_path / "out")}


def duckdb_options(tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, Any]:
    """Options of a DuckDB sink with its file in a temp dir."""
    return {"path": str(tmp_path / "out" / "rowkeeper.duckdb")}


def lancedb_options(tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, Any]:
    """Options of a LanceDB sink in a temp dir, vectors from the hashing embedder (no extra)."""
    return {"path": str(tmp_path / "out" / "lancedb"), "embedding": "hashing", "hashing_dim": 64}


@pytest.fixture(scope="session")
def pg_dsn() -> Iterator[str]:
    """ROWKEEPER_TEST_PG_DSN, or a throwaway server started for this session; skip if neither."""
    if os.environ.get("ROWKEEPER_TEST_PG_DSN"):
        yield os.environ["ROWKEEPER_TEST_PG_DSN"]
        return
    try:
        server = start_server()
    except RuntimeError as e:
        pytest.skip(f"no Postgres server for the postgres sink tests: {e}")
    yield server.dsn
    server.stop()


def postgres_options(tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, Any]:
    """Options of a Postgres sink in a schema of its own (one per test)."""
    schema = "t_" + hashlib.sha1(str(tmp_path).encode()).hexdigest()[:12]
    return {"dsn": request.getfixturevalue("pg_dsn"), "schema_name": schema, "embedding": "hashing",
            "hashing_dim": 64}


OPTIONS: dict[str, Callable[..., dict[str, Any]]] = {
    "postgres": postgres_options,
    "duckdb": duckdb_options,
    "lancedb": lancedb_options,
    "folder": folder_options,
}


@pytest.fixture(params=[pytest.param(k, marks=[pytest.mark.postgres] if k == "postgres" else [])
                        for k in sorted(OPTIONS)])
def open_sink(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SinkFactory]:
    """A factory opening the parametrised sink on the same storage each time (like a new run)."""
    kind = request.param
    options = OPTIONS[kind](tmp_path, request)
    opened: list[Any] = []

    def factory() -> Any:
        cls = resolve("sink", kind)
        sink = cls(cls.Options(**options))
        opened.append(sink)
        return sink

    yield factory
    for s in opened:
        s.close()

"""Sink fixtures: each sink opened on real storage in a temp dir (a real server for Postgres)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rowkeeper.registry import resolve

SinkFactory = Callable[[], Any]


def folder_options(tmp_path: Path) -> dict[str, Any]:
    """Options of a folder sink in a temp dir."""
    return {"path": str(tmp_path / "out")}


def duckdb_options(tmp_path: Path) -> dict[str, Any]:
    """Options of a DuckDB sink with its file in a temp dir."""
    return {"path": str(tmp_path / "out" / "rowkeeper.duckdb")}


def lancedb_options(tmp_path: Path) -> dict[str, Any]:
    """Options of a LanceDB sink in a temp dir, vectors from the hashing embedder (no extra)."""
    return {"path": str(tmp_path / "out" / "lancedb"), "embedding": "hashing", "hashing_dim": 64}


OPTIONS: dict[str, Callable[[Path], dict[str, Any]]] = {
    "duckdb": duckdb_options,
    "lancedb": lancedb_options,
    "folder": folder_options,
}


@pytest.fixture(params=sorted(OPTIONS))
def open_sink(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SinkFactory]:
    """A factory opening the parametrised sink on the same storage each time (like a new run)."""
    kind = request.param
    opened: list[Any] = []

    def factory() -> Any:
        cls = resolve("sink", kind)
        sink = cls(cls.Options(**OPTIONS[kind](tmp_path)))
        opened.append(sink)
        return sink

    yield factory
    for s in opened:
        s.close()

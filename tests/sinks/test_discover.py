"""Input discovery over local folders and fsspec URLs."""

from __future__ import annotations

import uuid

import fsspec
import pytest

from rowkeeper.discover import discover_pdfs, read_bytes, sha256_url
from rowkeeper.errors import ConfigError


def test_local_folders_are_searched_recursively_any_case(tmp_path, monkeypatch):
    (tmp_path / "in" / "sub").mkdir(parents=True)
    for name in ("in/a.pdf", "in/sub/B.PDF", "in/notes.txt", "in/.hidden.pdf"):
        (tmp_path / name).write_bytes(b"%PDF-1.4")
    monkeypatch.chdir(tmp_path)
    assert discover_pdfs(["in", "in/a.pdf"]) == ["in/a.pdf", "in/sub/B.PDF"]


def test_memory_urls():
    root = f"memory://rk-{uuid.uuid4().hex[:8]}"
    fs = fsspec.filesystem("memory")
    fs.pipe(f"{root}/x/one.pdf", b"%PDF-1.7 one")
    fs.pipe(f"{root}/x/deep/two.Pdf", b"%PDF-1.7 two")
    found = discover_pdfs([f"{root}/x"])
    assert found == [f"{root}/x/deep/two.Pdf", f"{root}/x/one.pdf"]
    assert read_bytes(found[1]) == b"%PDF-1.7 one"
    assert len(sha256_url(found[0])) == 64


def test_missing_input_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        discover_pdfs([str(tmp_path / "nope")])

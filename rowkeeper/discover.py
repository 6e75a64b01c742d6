"""Input discovery: PDF files under paths or fsspec URLs (local, memory://, s3://, ...)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from rowkeeper.errors import BadInput, ConfigError

_BLOCK = 1 << 20


def _fs(url: str, storage_options: dict[str, Any] | None) -> tuple[Any, str]:
    """The fsspec filesystem and the bare path of a URL (plain paths are local)."""
    from fsspec.core import url_to_fs

    try:
        return url_to_fs(url, **(storage_options or {}))
    except (ImportError, ValueError) as e:
        raise ConfigError(f"cannot open input {url!r}: {e}") from e


def _as_url(path: str, root: str, given: str) -> str:
    """A found path in the form the input was given: relative stays relative, URLs keep protocol."""
    if path == root:
        return given
    return given.rstrip("/") + "/" + path[len(root):].lstrip("/")


def discover_pdfs(inputs: Iterable[str], storage_options: dict[str, Any] | None = None) -> list[str]:
    """Every PDF named by `inputs`: files as given, folders searched recursively for `*.pdf`
    (any case), hidden files skipped; sorted, without duplicates. A missing input is an error."""
    found: dict[str, None] = {}
    for given in inputs:
        fs, path = _fs(given, storage_options)
        if fs.isfile(path):
            found[_as_url(path, path, given)] = None
            continue
        if not fs.isdir(path):
            raise ConfigError(f"input not found: {given}")
        hits = []
        for p in fs.find(path):
            name = p.rsplit("/", 1)[-1]
            if name.lower().endswith(".pdf") and not name.startswith("."):
                hits.append(_as_url(p, path.rstrip("/"), given))
        for p in sorted(hits):
            found[p] = None
    return list(found)


def read_bytes(url: str, storage_options: dict[str, Any] | None = None) -> bytes:
    """The bytes of an input (path or fsspec URL); unreadable input is `BadInput`."""
    fs, path = _fs(url, storage_options)
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise BadInput(f"cannot read {url}: {e}") from e


def sha256_url(url: str, storage_options: dict[str, Any] | None = None) -> str:
    """sha256 hex of an input's bytes (the document id), streamed in 1 MiB blocks."""
    fs, path = _fs(url, storage_options)
    h = hashlib.sha256()
    try:
        with fs.open(path, "rb") as f:
            while block := f.read(_BLOCK):
                h.update(block)
    except OSError as e:
        raise BadInput(f"cannot read {url}: {e}") from e
    return h.hexdigest()

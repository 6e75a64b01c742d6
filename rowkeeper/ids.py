"""Stable identifiers: document ids from bytes, table and chunk ids from document ids."""

from __future__ import annotations

import hashlib
from pathlib import Path

_BLOCK = 1 << 20


def sha256_file(path: str | Path) -> str:
    """sha256 hex of a file's bytes, read in 1 MiB blocks (the document id)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            h.update(block)
    return h.hexdigest()


def table_id(doc_id: str, n: int) -> str:
    """`<doc_id[:12]>:t<n>`, the id of the n-th logical table of a document (1-based)."""
    return f"{doc_id[:12]}:t{n}"


def piece_id(doc_id: str, page: int, n: int) -> str:
    """Id of the n-th raw table piece found on a page, before merging."""
    return f"{doc_id[:12]}:p{page}.{n}"

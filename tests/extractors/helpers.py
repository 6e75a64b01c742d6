"""Small helpers for extractor tests: a DocumentInput for a generated PDF."""

from __future__ import annotations

from pathlib import Path

from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput


def doc_for(path: Path, password: str | None = None) -> DocumentInput:
    """A DocumentInput for a file on disk."""
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path),
                         size=path.stat().st_size, password=password)

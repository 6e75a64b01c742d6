"""The two plug-in shapes: an extractor layer and a sink."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel

from rowkeeper.models import DocumentInput, DocumentRecord, DocumentResult, Extraction, PageKind


@runtime_checkable
class Extractor(Protocol):
    """A table layer. Writes nothing, keeps no per-document state (a loaded model is fine).

    Library failures become `BadInput` (terminal) or `TransientError` (network, 429, 5xx),
    raised `from` the original. A layer that cannot run here raises `LayerUnavailable`.
    """

    name: ClassVar[str]
    handles: ClassVar[frozenset[PageKind]]
    Options: ClassVar[type[BaseModel]]

    def __init__(self, options: BaseModel) -> None: ...

    @property
    def version(self) -> str:
        """Version of the library doing the work (part of the pipeline fingerprint)."""
        ...

    def extract(self, doc: DocumentInput, pages: Sequence[int]) -> Extraction:
        """Tables (and, for OCR-like layers, text lines) found on `pages` (1-based)."""
        ...


@runtime_checkable
class Sink(Protocol):
    """A destination. `write` replaces everything stored for the batch's doc_id, atomically."""

    name: ClassVar[str]
    Options: ClassVar[type[BaseModel]]

    def __init__(self, options: BaseModel) -> None: ...

    def write(self, batch: DocumentResult) -> None:
        """Replace all records of `batch.document.doc_id` with this batch, in one atomic step."""
        ...

    def read(self, doc_id: str) -> DocumentResult | None:
        """What is stored for `doc_id` (document, tables, chunks), or None: for diffs and tests."""
        ...

    def documents(self) -> dict[str, DocumentRecord]:
        """The stored document records by doc_id: the manifest for incremental runs."""
        ...

    def delete(self, doc_id: str) -> None:
        """Remove everything stored for `doc_id` (for --prune), atomically."""
        ...

    def close(self) -> None:
        """Flush and release resources (the folder sink consolidates its top-level files here)."""
        ...

"""rowkeeper: business PDFs to tables and self-contained retrieval chunks.

`rowkeeper.ingest`, `extract`, `read_tables` and `read_chunks` (rowkeeper/api.py) are imported
on first use, so that `import rowkeeper` (done by every worker and CLI call) stays cheap.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.2.0"

_API = ("ingest", "extract", "read_tables", "read_chunks", "Table", "RunSummary", "DocumentStatus",
        "Extracted")
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        import importlib

        return getattr(importlib.import_module("rowkeeper.api"), name)
    raise AttributeError(f"module 'rowkeeper' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})

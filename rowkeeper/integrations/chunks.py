"""What both framework loaders share: which chunks to yield, and their metadata."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator
from typing import Any

from rowkeeper.api import ConfigLike, PathLike, extract, read_chunks
from rowkeeper.models import Chunk

log = logging.getLogger("rowkeeper.integrations")

KINDS = ("table", "row_group", "row", "text")


def iter_chunks(paths: PathLike | Iterable[PathLike] | None, run_dir: PathLike | None,
                config: ConfigLike, kinds: Iterable[str] | None) -> Iterator[Chunk]:
    """Chunks of PDFs (files or folders, extracted in this process) or of a run folder's
    chunks.jsonl, keeping only `kinds`. A PDF that cannot be read is logged and skipped."""
    if (paths is None) == (run_dir is None):
        raise ValueError("give PDF paths or a run folder (run_dir=...), not both or neither")
    wanted = set(kinds or KINDS)
    if unknown := wanted - set(KINDS):
        raise ValueError(f"unknown chunk kinds {sorted(unknown)}; known: {', '.join(KINDS)}")
    if run_dir is not None:
        yield from (c for c in read_chunks(run_dir) if c.kind in wanted)
        return
    from rowkeeper.discover import discover_pdfs

    given = [os.fspath(paths)] if isinstance(paths, str | os.PathLike) else [os.fspath(p) for p in paths]
    for pdf in discover_pdfs(given):
        result = extract(pdf, config, raise_on_error=False)
        if result.status == "failed":
            log.warning("rowkeeper: skipped %s: %s", pdf, result.document.error)
        yield from (c for c in result.chunks if c.kind in wanted)


def chunk_metadata(chunk: Chunk, flat: bool = False) -> dict[str, Any]:
    """The chunk's metadata plus its ids, kind and `bbox` (the region on its first page).

    `flat=True` JSON-encodes lists and dicts, for vector stores that take only scalars."""
    meta = dict(chunk.metadata)
    meta.update(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, source=chunk.source,
                table_id=chunk.table_id, kind=chunk.kind)
    pages = meta.get("pages") or []
    regions = meta.get("regions") or []
    on_page = [r for r in regions if pages and r.get("page") == pages[0]] or regions
    meta["bbox"] = list(on_page[0]["bbox"]) if on_page else None
    if flat:
        meta = {k: json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict | tuple) else v
                for k, v in meta.items()}
    return meta

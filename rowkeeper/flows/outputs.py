"""The configured sinks, opened once per run, and the writes the flows make to all of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from rowkeeper.config import Config
from rowkeeper.errors import ConfigError, OutputError, TransientError
from rowkeeper.models import DocumentRecord, DocumentResult
from rowkeeper.registry import resolve


def open_sinks(config: Config) -> list[Any]:
    """One instance per `sinks:` entry, options validated by the sink's own Options model."""
    out = []
    for entry in config.sinks:
        cls = resolve("sink", entry.type)
        data = entry.model_dump()
        data.pop("type", None)
        try:
            options = cls.Options.model_validate(data)
        except ValidationError as e:
            raise ConfigError(f"invalid options for sink {entry.type!r}:\n{e}") from e
        try:
            out.append(cls(options))
        except OSError as e:  # an unusable output folder means the run cannot happen: exit 2
            raise ConfigError(f"cannot open sink {entry.type!r}: {e}") from e
    return out


def manifests(sinks: Sequence[Any]) -> list[dict[str, DocumentRecord]]:
    """Each sink's stored document records (the state incremental runs decide on); a store
    locked by another process is an OutputError: the run cannot start."""
    try:
        return [s.documents() for s in sinks]
    except TransientError as e:
        raise OutputError(str(e).splitlines()[0]) from None


def write_all(sinks: Sequence[Any], result: DocumentResult, stale: Sequence[str] = ()) -> None:
    """Replace the document in every sink, then drop the ids of its previous versions."""
    try:
        for s in sinks:
            s.write(result)
            for old in stale:
                if old != result.document.doc_id:
                    s.delete(old)
    except OSError as e:  # full disk, read-only: every later document would fail the same way
        from rowkeeper.flows.guard import describe_os_error

        raise OutputError(describe_os_error(e, getattr(s.options, "path", s.name))) from None


def delete_all(sinks: Sequence[Any], doc_ids: Sequence[str]) -> None:
    """Remove documents from every sink (--prune)."""
    for s in sinks:
        for doc_id in doc_ids:
            s.delete(doc_id)


def must_close(sinks: Sequence[Any]) -> bool:
    """True when a sink's consolidated files are missing, stale or littered with a killed run's
    temp files, so the run must close (rebuild) them although no document changed."""
    return any(getattr(s, "needs_consolidation", lambda: False)() for s in sinks)


def close_all(sinks: Sequence[Any]) -> None:
    """Close every sink, even when one fails, then raise the first failure."""
    first: BaseException | None = None
    for s in sinks:
        try:
            s.close()
        except Exception as e:  # noqa: BLE001 - the others must still be closed
            first = first or e
    if first is not None:
        raise first

"""Run configuration: loaded once from YAML, validated, passed in (never read at import time)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rowkeeper.errors import ConfigError

DEFAULT_CONFIG = Path(__file__).resolve().parent / "configs" / "default.yaml"


class Section(BaseModel):
    """A config section: immutable, unknown keys are errors (typos fail loudly)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ClassifyConfig(Section):
    """Thresholds deciding whether a page is text or scanned (see tests/extractors/test_classify.py)."""

    min_text_chars: int = 20
    """A page with fewer real characters than this and an image on it is scanned."""
    scanned_image_coverage: float = 0.5
    """A page whose images cover at least this fraction and that has few chars is scanned."""
    max_garbled_ratio: float = 0.1
    """A text layer with more than this fraction of (cid:x)/U+FFFD/private-use chars is garbage."""
    min_chars_with_image: int = 200
    """With image coverage above the threshold, at least this many real chars make it text."""


class ExtractConfig(Section):
    """Which layers run, in which order, and each layer's options."""

    text_layers: tuple[str, ...] = ("pymupdf", "pdfplumber", "camelot")
    scanned_layers: tuple[str, ...] = ("ocr", "docling", "azure", "textract")
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Per-layer options, validated by each extractor's own `Options` model."""
    passwords: tuple[str, ...] = ()
    """Passwords to try on encrypted PDFs (prefer the ROWKEEPER_PDF_PASSWORDS env var)."""
    max_pages: int = 2000
    """Documents longer than this are processed in page ranges of `page_batch` pages."""
    page_batch: int = 200


class TransformConfig(Section):
    """Structure restoration: merge, headers, types, validation."""

    merge_x_tolerance: float = 12.0
    merge_max_gap_ratio: float = 0.35
    """A piece must end in the bottom / start in the top this fraction of the page to merge."""
    min_type_conformity: float = 0.9
    max_empty_ratio: float = 0.6
    locale: str = "auto"
    max_column_name_chars: int = 500
    """Longer column names are cut; a table whose names are mostly over 4x as long or mostly
    non-word characters (OCR noise) is rejected and its lines read as text (transforms/bounds.py)."""
    max_cell_chars: int = 5000
    """Longer cell texts are cut (with a warning in documents.jsonl)."""


class ChunkConfig(Section):
    """Chunk sizes and which chunk kinds to emit."""

    max_chars: int = 1500
    row_chunks: bool = True
    row_group_chunks: bool = True
    table_chunks: bool = True
    text_chunks: bool = True
    text_max_chars: int = 1500
    size_unit: Literal["chars", "tokens"] = "chars"
    """What `max_chars` / `text_max_chars` count: characters, or approximate tokens
    (a word, a number or one CJK character each)."""
    key_column: int | None = None
    """Force the row-key column (0-based); None detects it (first unique text column)."""
    expand_ratio: float = 0.6
    """`rowkeeper query` answers with the whole table when hits cover k/n rows >= this."""
    hard_max_chars: int = 20000
    """No chunk is longer: a longer one is cut, with a warning (budgets above are soft)."""


class SinkConfig(BaseModel):
    """One destination: `type` is a registry name or 'package.module:Class'; the rest are its options."""

    model_config = ConfigDict(frozen=True, extra="allow")
    type: str


class RunnerConfig(Section):
    """Where per-document tasks run: in-process, a process pool, Dask or Ray (via Prefect)."""

    type: Literal["local", "process", "dask", "ray"] = "local"
    workers: int = 1
    address: str | None = None
    """An existing Dask scheduler / Ray cluster address; None starts a local one."""
    document_timeout_s: float = 600.0
    memory_limit_mb: int = 4096
    fallback_timeout_s: float = 120.0
    """When a document's worker hangs past document_timeout_s, crashes or runs out of memory,
    the document is read once more text-only (text lines, no table layer) within this budget:
    it is `failed` only when nothing could be read."""
    retry_failed: bool = False
    """Reprocess documents that failed last time although their bytes and the pipeline are
    unchanged (e.g. after adding a PDF password; CLI `--retry-failed`). Off by default so a
    permanently broken or hanging PDF does not cost its timeout every night; failures that
    gave up on transient errors are always retried."""


class Config(Section):
    """The whole run configuration."""

    classify: ClassifyConfig = ClassifyConfig()
    extract: ExtractConfig = ExtractConfig()
    transform: TransformConfig = TransformConfig()
    chunk: ChunkConfig = ChunkConfig()
    sinks: tuple[SinkConfig, ...] = (SinkConfig.model_validate({"type": "folder", "path": "out"}),)
    runner: RunnerConfig = RunnerConfig()
    out: str = "out"
    """The run's folder: report.json / report.html, and the default folder sink."""

    def fingerprint(self) -> str:
        """Hash of the settings that change output (not sinks, runner or out folder)."""
        relevant = self.model_dump(mode="json", include={"classify", "extract", "transform", "chunk"})
        relevant["extract"].pop("passwords", None)
        blob = json.dumps(relevant, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def with_out(self, out: str) -> Config:
        """This config writing to `out`: the run folder and every folder sink without its own path."""
        sinks = tuple(_sink_under(s, out) for s in self.sinks)
        return self.model_copy(update={"out": out, "sinks": sinks})


# Embedded stores whose files belong in the run folder unless the config gives a path.
_EMBEDDED_FILES = {"duckdb": "rowkeeper.duckdb", "lancedb": "lancedb"}


def _sink_under(sink: SinkConfig, out: str) -> SinkConfig:
    """`sink` writing under `out`: folder sinks always, embedded stores when they have no path."""
    data = sink.model_dump()
    if sink.type == "folder":
        data["path"] = out
    elif sink.type in _EMBEDDED_FILES and "path" not in data:
        data["path"] = f"{out.rstrip('/')}/{_EMBEDDED_FILES[sink.type]}"
    return SinkConfig.model_validate(data)


def load_config(path: str | os.PathLike[str] | None = None, **overrides: Any) -> Config:
    """Read and validate a YAML config (default: rowkeeper/configs/default.yaml); errors name the key."""
    cfg_path = Path(path) if path else DEFAULT_CONFIG
    try:
        data = yaml.safe_load(cfg_path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError as e:
        raise ConfigError(f"config file not found: {cfg_path}") from e
    except yaml.YAMLError as e:
        raise ConfigError(f"config file {cfg_path} is not valid YAML: {e}") from e
    if not isinstance(data, dict):
        raise ConfigError(f"config file {cfg_path} must hold a mapping at the top level")
    data.update(overrides)
    try:
        return Config.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"invalid config {cfg_path}:\n{e}") from e


def env_passwords() -> tuple[str, ...]:
    """PDF passwords from ROWKEEPER_PDF_PASSWORDS (comma-separated); secrets stay out of files."""
    raw = os.environ.get("ROWKEEPER_PDF_PASSWORDS", "")
    return tuple(p for p in raw.split(",") if p)

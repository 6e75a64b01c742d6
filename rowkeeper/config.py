"""Run configuration: loaded once from YAML, validated, passed in (never read at import time)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rowkeeper.config_errors import component_problems, one_line
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

    text_layers: tuple[str, ...] = ("tagged", "pymupdf", "pdfplumber", "camelot")
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
    max_output_ratio: float = 10.0
    """A document's chunks at most this many times its PDF text (characters; 0: no bound).
    Counted without the image-evidence sentences and without the section path and caption each
    row chunk must repeat (transforms.bounds.measured_chars). Past it the `row` chunks of its
    most multiplying tables are left out, with a warning; their `row_group` chunks still hold
    every row with its key and column names."""
    max_context_chars: int = 300
    """Each context line (section path, caption, notes) that row and row-group chunks repeat is
    cut to this many characters; the table chunk keeps it whole (0: no cut)."""


class SinkConfig(BaseModel):
    """One destination: `type` is a registry name or 'package.module:Class'; the rest are its options."""

    model_config = ConfigDict(frozen=True, extra="allow")
    type: str


class RunnerConfig(Section):
    """Where per-document tasks run: in-process, a process pool, Dask or Ray (via Prefect)."""

    type: Literal["local", "process", "dask", "ray"] = "local"
    workers: int | Literal["auto"] = "auto"
    """How many documents are worked on at once (isolated worker processes of a local run,
    processes, Dask workers, Ray CPUs). auto: one per usable CPU, no more than the available
    memory holds at memory_limit_mb each, at least one (`worker_count`)."""
    address: str | None = None
    """An existing Dask scheduler / Ray cluster address; None starts a local one."""
    document_timeout_s: float = 600.0
    """One document's limit in its worker; each page's budget per layer is derived from it
    (extract.options.cascade: page_budget_share, min_page_budget_s; README "Time limits")."""
    memory_limit_mb: int = 4096
    flow_memory_limit_mb: int = 4096
    """The run process's own cap (resident MB; past it the run stops with one line, exit 2, and
    a rerun resumes). Workers have memory_limit_mb each; 0: no cap on the run process."""
    fallback_timeout_s: float = 120.0
    """When a document's worker hangs past document_timeout_s, crashes or runs out of memory,
    the document is read once more text-only (text lines, no table layer) within this budget:
    it is `failed` only when nothing could be read."""
    batch_pages: int = 100
    """Documents travel to workers in batches of about this many pages (one Prefect task run
    per batch, not per document: a task run costs tens of milliseconds of orchestration)."""
    batch_docs: int = 50
    """At most this many documents in one batch (1: one task run per document, as before)."""
    prefect: Literal["auto", "always", "never"] = "auto"
    """Whether a run goes through Prefect. auto: when a Prefect API is configured
    (PREFECT_API_URL or a profile naming one) or runner.type is not local; otherwise a local run
    runs its batches on threads without Prefect (no server to start: seconds saved; no flow run
    recorded). always: through Prefect, on its ephemeral server if none is configured."""
    prefect_server: Literal["reuse", "per_run"] = "reuse"
    """With no Prefect API configured, the server a run through Prefect talks to. reuse: one
    local server started by the first run, found by later runs (PREFECT_HOME/rowkeeper-server-*)
    and stopped by itself after prefect_server_idle_s without a run (flows.shared_server);
    per_run: a server of the run's own, started and stopped with it (seconds per run)."""
    prefect_server_idle_s: float = 600.0
    """How long the reused server waits for the next run before it stops."""

    def worker_count(self) -> int:
        """`workers` as a number: auto resolved on this machine when the run asks (never at
        import or load time: a config file may travel to another machine)."""
        if self.workers == "auto":
            from rowkeeper.machine import auto_workers

            return auto_workers(self.memory_limit_mb)
        return max(1, self.workers)

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

    @model_validator(mode="before")
    @classmethod
    def _stores_under_out(cls, data: Any) -> Any:
        """A sink named without a path writes under `out` (a config's `out:` as well as --out),
        never into a folder of the sink's own default relative to the working directory."""
        if not isinstance(data, dict) or not isinstance(data.get("sinks"), list | tuple):
            return data
        out = str(data.get("out") or "out")
        sinks = [_sink_under(SinkConfig.model_validate(s), out).model_dump()
                 if isinstance(s, dict) and "path" not in s and "type" in s else s
                 for s in data["sinks"]]
        return {**data, "sinks": sinks}

    def fingerprint(self) -> str:
        """Hash of the settings that change output (not sinks, runner or out folder)."""
        relevant = self.model_dump(mode="json", include={"classify", "extract", "transform", "chunk"})
        relevant["extract"].pop("passwords", None)
        blob = json.dumps(relevant, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def with_out(self, out: str) -> Config:
        """This config writing to `out`: the run folder and every folder sink without its own path."""
        sinks = tuple(_sink_under(s, out, placed_under=self.out) for s in self.sinks)
        return self.model_copy(update={"out": out, "sinks": sinks})


# Embedded stores whose files belong in the run folder unless the config gives a path.
_EMBEDDED_FILES = {"duckdb": "rowkeeper.duckdb", "lancedb": "lancedb"}


def _sink_under(sink: SinkConfig, out: str, placed_under: str | None = None) -> SinkConfig:
    """`sink` writing under `out`: folder sinks always, embedded stores when they have no path
    (or the one they were given under the previous run folder `placed_under`)."""
    data = sink.model_dump()
    if sink.type == "folder":
        data["path"] = out
    elif sink.type in _EMBEDDED_FILES and data.get("path") in (
            None, placed_under and _embedded_path(placed_under, sink.type)):
        data["path"] = _embedded_path(out, sink.type)
    return SinkConfig.model_validate(data)


def _embedded_path(out: str, sink_type: str) -> str:
    return f"{out.rstrip('/')}/{_EMBEDDED_FILES[sink_type]}"


def load_config(path: str | os.PathLike[str] | None = None, **overrides: Any) -> Config:
    """Read and validate a YAML config (default: rowkeeper/configs/default.yaml); errors name the key."""
    cfg_path = Path(path) if path else DEFAULT_CONFIG
    try:
        data = yaml.safe_load(cfg_path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError as e:
        raise ConfigError(f"config error: config file not found: {cfg_path}") from e
    except yaml.YAMLError as e:
        raise ConfigError(f"config error: {cfg_path}: not valid YAML: {_yaml_problem(e)}") from e
    if not isinstance(data, dict):
        raise ConfigError(f"config error: {cfg_path} must hold a mapping at the top level")
    data.update(overrides)
    return check_config(parse_config(data))


def _yaml_problem(e: yaml.YAMLError) -> str:
    """PyYAML's several-line message as `problem at line L, column C`."""
    mark = getattr(e, "problem_mark", None)
    problem = getattr(e, "problem", None) or str(e).splitlines()[0]
    return f"{problem} at line {mark.line + 1}, column {mark.column + 1}" if mark else problem


def parse_config(data: dict[str, Any] | Config) -> Config:
    """`data` as a Config; the first problem becomes a one-line `config error: key: why`."""
    if isinstance(data, Config):
        return data
    try:
        return Config.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"config error: {one_line(e, Config)}") from e


def check_config(config: Config) -> Config:
    """`config`, once every layer, sink and option it names is known and valid (a typo then
    stops the run at start instead of failing or silently skipping every document)."""
    problem = next(component_problems(config), None)
    if problem is not None:
        raise ConfigError(f"config error: {problem}")
    return config


def env_passwords() -> tuple[str, ...]:
    """PDF passwords from ROWKEEPER_PDF_PASSWORDS (comma-separated); secrets stay out of files."""
    raw = os.environ.get("ROWKEEPER_PDF_PASSWORDS", "")
    return tuple(p for p in raw.split(",") if p)

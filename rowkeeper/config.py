"""Run configuration: loaded once from YAML, validated, passed in (never read at import time)."""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rowkeeper import registry
from rowkeeper.errors import ConfigError, MissingExtra

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
    problem = next(_component_problems(config), None)
    if problem is not None:
        raise ConfigError(f"config error: {problem}")
    return config


def env_passwords() -> tuple[str, ...]:
    """PDF passwords from ROWKEEPER_PDF_PASSWORDS (comma-separated); secrets stay out of files."""
    raw = os.environ.get("ROWKEEPER_PDF_PASSWORDS", "")
    return tuple(p for p in raw.split(",") if p)


# --- one-line config errors -------------------------------------------------------------------

# extract.options keys that are not layers: the section name -> the model validating it.
OPTION_SECTIONS = {"cascade": "rowkeeper.extractors.adequacy:CascadeChecks"}
# runner.type -> (the module its Prefect task runner comes from, the extra installing it)
RUNNER_EXTRAS = {"dask": ("prefect_dask", "dask"), "ray": ("prefect_ray", "ray")}


def _path(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as the user wrote it: `sinks[1].path`, `extract.text_layers[0]`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _suggest(name: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the nearest known name, or a list of them when none is near."""
    known = sorted(known)
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if near:
        return f" (did you mean {near[0]!r}?)"
    return f" (known: {', '.join(known)})" if known else ""


def _model_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class holding the field at `loc` (for the names an unknown key is compared to)."""
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        inner = field.annotation if field else None
        if not (isinstance(inner, type) and issubclass(inner, BaseModel)):
            return None
        model = inner
    return model


def one_line(error: ValidationError, model: type[BaseModel], prefix: str = "") -> str:
    """The first problem of a pydantic error as `key: why`, on one line."""
    first = error.errors()[0]
    loc = tuple(first["loc"])
    where = _path(((prefix,) if prefix else ()) + loc)
    if first["type"] == "extra_forbidden":
        parent = _model_at(model, loc)
        known = parent.model_fields if parent else ()
        what = "unknown option" if prefix else "unknown key"
        why = f"{what}{_suggest(str(loc[-1]), known)}"
    else:
        why = f"{first['msg']} (got {first.get('input')!r})"
    more = len(error.errors()) - 1
    return f"{where}: {why}" + (f"; {more} more problem(s)" if more else "")


def _component_problems(config: Config) -> Iterator[str]:
    """What is wrong with the layers, option sections and sinks `config` names, in file order.

    In-tree layers named without options are not imported (that costs seconds and a layer whose
    extra is absent is skipped at run time, as documented); options are checked against the
    layer's own Options model, which needs its module."""
    extract = config.extract
    for field in ("text_layers", "scanned_layers"):
        for i, name in enumerate(getattr(extract, field)):
            where = f"extract.{field}[{i}]"
            if ":" in name:
                yield from _resolve_problem("extractor", name, where)
            elif name not in registry.EXTRACTORS:
                yield f"{where}: unknown extractor {name!r}{_suggest(name, registry.EXTRACTORS)}"
    for name, options in extract.options.items():
        yield from _section_problems(name, options)
    yield from _runner_problems(config.runner)
    for i, sink in enumerate(config.sinks):
        options = sink.model_dump()
        options.pop("type", None)
        if ":" not in sink.type and sink.type not in registry.SINKS:
            yield f"sinks[{i}].type: unknown sink {sink.type!r}{_suggest(sink.type, registry.SINKS)}"
            continue
        yield from _options_problems("sink", sink.type, options, f"sinks[{i}]")


def _runner_problems(runner: RunnerConfig) -> Iterator[str]:
    """A runner whose extra is absent: found now (by module spec, without importing Prefect),
    not when a scheduled run starts hours later."""
    if runner.type not in RUNNER_EXTRAS:
        return
    module, extra = RUNNER_EXTRAS[runner.type]
    try:
        present = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module entry without a spec
        present = False
    if not present:
        yield f"runner.type: {MissingExtra(f'runner {runner.type!r}', extra)}"


def _section_problems(name: str, options: dict[str, Any]) -> Iterator[str]:
    """Problems of `extract.options.<name>`: a layer's options or a known section's."""
    where = f"extract.options.{name}"
    if name in OPTION_SECTIONS:
        module, _, attr = OPTION_SECTIONS[name].partition(":")
        yield from _model_problems(getattr(importlib.import_module(module), attr), options, where)
    elif ":" in name or name in registry.EXTRACTORS:
        yield from _options_problems("extractor", name, options, where)
    else:
        known = [*registry.EXTRACTORS, *OPTION_SECTIONS]
        yield f"{where}: unknown extractor or section {name!r}{_suggest(name, known)}"


def _resolve_problem(kind: str, name: str, where: str) -> Iterator[str]:
    try:
        registry.resolve(kind, name)
    except (ConfigError, MissingExtra) as e:
        yield f"{where}: {e}"


def _options_problems(kind: str, name: str, options: dict[str, Any], where: str) -> Iterator[str]:
    """Problems of one component's options: it must import (its extra installed) and its
    Options model must accept them."""
    try:
        cls = registry.resolve(kind, name)
    except (ConfigError, MissingExtra) as e:
        yield f"{where}: {e}"
        return
    model = getattr(cls, "Options", None)
    if isinstance(model, type) and issubclass(model, BaseModel):
        yield from _model_problems(model, options, where)


def _model_problems(model: type[BaseModel], options: dict[str, Any], where: str) -> Iterator[str]:
    """Unknown keys (checked by name, even if the model would allow extras), then bad values."""
    for key in options:
        if key not in model.model_fields:
            yield f"{where}.{key}: unknown option{_suggest(key, model.model_fields)}"
            return
    try:
        model.model_validate(options)
    except ValidationError as e:
        yield one_line(e, model, prefix=where)

"""One-line config errors: what is wrong with a config, as `key: why` (with the nearest known
name), found at start instead of hours into a run. config.py asks; this module answers."""

from __future__ import annotations

import difflib
import importlib
import importlib.util
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from rowkeeper import registry
from rowkeeper.errors import ConfigError, MissingExtra

if TYPE_CHECKING:
    from rowkeeper.config import Config, RunnerConfig

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


def component_problems(config: Config) -> Iterator[str]:
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

"""Turning whatever the flow passes (a sink's own Options, a SinkConfig, a dict) into Options."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from rowkeeper.errors import ConfigError

OptionsT = TypeVar("OptionsT", bound=BaseModel)


def coerce_options(cls: type[OptionsT], options: Any, sink: str) -> OptionsT:
    """`options` as `cls`: the config's `type` key is dropped, bad keys are a ConfigError."""
    if isinstance(options, cls):
        return options
    if options is None:
        data: dict[str, Any] = {}
    elif isinstance(options, BaseModel):
        data = options.model_dump()
    else:
        data = dict(options)
    data.pop("type", None)
    try:
        return cls.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"invalid options for the {sink} sink:\n{e}") from e

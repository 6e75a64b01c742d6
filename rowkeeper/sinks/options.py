"""Helpers every sink shares: options from config, and doc ids safe to use as names."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from rowkeeper.errors import BadInput, ConfigError

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


_DOC_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{1,127}$")


def safe_doc_id(doc_id: str) -> str:
    """`doc_id` if it is safe as a file name or a filter literal (never text from inside a PDF)."""
    if not _DOC_ID.match(doc_id):
        raise BadInput(f"doc_id {doc_id!r} is not a safe identifier (expected a sha256 hex)")
    return doc_id

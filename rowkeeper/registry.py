"""Name -> "module:Class" tables for extractors and sinks, imported on first use (fsspec style).

Out-of-tree components are named by "package.module:Class" in config directly.
"""

from __future__ import annotations

import importlib
from typing import Any

from rowkeeper.errors import ConfigError, MissingExtra

EXTRACTORS: dict[str, tuple[str, str | None]] = {
    # name: ("module:Class", extra that installs its dependencies or None)
    "azure": ("rowkeeper.extractors.azure_extractor:AzureLayoutExtractor", "cloud"),
    "camelot": ("rowkeeper.extractors.camelot_extractor:CamelotExtractor", "camelot"),
    "docling": ("rowkeeper.extractors.docling_extractor:DoclingExtractor", "docling"),
    "ocr": ("rowkeeper.extractors.ocr_extractor:OcrExtractor", "ocr"),
    "pdfplumber": ("rowkeeper.extractors.pdfplumber_extractor:PdfplumberExtractor", None),
    "pymupdf": ("rowkeeper.extractors.pymupdf_extractor:PyMuPDFExtractor", None),
    "tagged": ("rowkeeper.extractors.tagged_extractor:TaggedExtractor", None),
    "textract": ("rowkeeper.extractors.textract_extractor:TextractExtractor", "cloud"),
}

SINKS: dict[str, tuple[str, str | None]] = {
    "duckdb": ("rowkeeper.sinks.duckdb_sink:DuckDBSink", "duckdb"),
    "folder": ("rowkeeper.sinks.folder_sink:FolderSink", None),
    "lancedb": ("rowkeeper.sinks.lancedb_sink:LanceDBSink", "lancedb"),
    "postgres": ("rowkeeper.sinks.postgres_sink:PostgresSink", "postgres"),
}

_TABLES = {"extractor": EXTRACTORS, "sink": SINKS}


def resolve(kind: str, name: str) -> Any:
    """The class registered as `name` (or a "pkg.module:Class" path) for `kind`."""
    table = _TABLES[kind]
    target, extra = table.get(name, (name, None))
    if ":" not in target:
        known = ", ".join(sorted(table))
        raise ConfigError(f"unknown {kind} {name!r}; known: {known}, or give 'package.module:Class'")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        if extra is not None and not module_name.startswith(e.name or "\0"):
            raise MissingExtra(f"{kind} {name!r}", extra, str(e)) from e
        raise ConfigError(f"cannot import {kind} {name!r} from {module_name}: {e}") from e
    try:
        return getattr(module, attr)
    except AttributeError as e:
        raise ConfigError(f"{module_name} has no {attr} (for {kind} {name!r})") from e

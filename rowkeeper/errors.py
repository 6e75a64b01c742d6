"""Errors with a retry policy: terminal (`BadInput`, `ConfigError`) or transient."""

from __future__ import annotations


class RowkeeperError(Exception):
    """Base of rowkeeper's own errors."""


class ConfigError(RowkeeperError):
    """The configuration is invalid; the run cannot start."""


class MissingExtra(RowkeeperError, ImportError):
    """An optional dependency is not installed; the message says which extra brings it."""

    def __init__(self, what: str, extra: str, cause: str = "") -> None:
        hint = f"pip install 'rowkeeper[{extra}]'"
        super().__init__(f"{what} needs the '{extra}' extra: {hint}" + (f" ({cause})" if cause else ""))
        self.extra = extra


class BadInput(RowkeeperError):
    """The document cannot be processed (corrupt, encrypted, unsupported): do not retry."""


class TransientError(RowkeeperError):
    """A temporary failure (network, HTTP 429/5xx, a lock): retrying may succeed."""


class LayerUnavailable(RowkeeperError):
    """An extractor layer cannot run here (models absent, service not configured).

    The cascade skips the layer and records this message as the reason.
    """


class OutputError(RowkeeperError):
    """The output cannot be written (read-only, full, locked, in use): the run stops, exit 2."""


class ServerUnavailable(RowkeeperError):
    """The Prefect server or API the run goes through cannot be started or reached: the run
    cannot happen (exit 2, one line); nothing was written for any document."""

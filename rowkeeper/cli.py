"""The `rowkeeper` command line. Each subcommand resolves its implementation by name, so the
core package never imports a stage (flows are imported on demand, like registry entries)."""

from __future__ import annotations

import argparse
import atexit
import functools
import gc
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence

import rowkeeper
from rowkeeper.config import Config, load_config
from rowkeeper.errors import ConfigError, MissingExtra, OutputError, ServerUnavailable


def _call(target: str, *args: object) -> int:
    module, _, attr = target.partition(":")
    fn: Callable[..., int] = getattr(importlib.import_module(module), attr)
    return fn(*args)


def _config(args: argparse.Namespace) -> Config:
    cfg = load_config(args.config)
    out = getattr(args, "out", None)
    return cfg.with_out(out) if out else cfg


def _cmd_run(args: argparse.Namespace) -> int:
    cfg = _config(args)
    if args.retry_failed:
        cfg = cfg.model_copy(update={"runner": cfg.runner.model_copy(update={"retry_failed": True})})
    return _call("rowkeeper.flows.launch:run_cli", list(args.inputs), cfg, args)


def _cmd_sql(args: argparse.Namespace) -> int:
    try:
        import duckdb  # noqa: F401
    except ImportError as e:
        raise MissingExtra("rowkeeper sql", "duckdb", str(e)) from e
    return _call("rowkeeper.sinks.duckdb_sink:sql_cli", args.out, args.query, args.format)


def _cmd_inspect(args: argparse.Namespace) -> int:
    return _call("rowkeeper.flows.inspector:run_cli", args.pdf, args.dump, _config(args), args)


def _cmd_query(args: argparse.Namespace) -> int:
    return _call("rowkeeper.flows.query:run_cli", args.run_dir, args.question, _config(args), args)


def _cmd_backfill(args: argparse.Namespace) -> int:
    return _call("rowkeeper.flows.backfill:backfill_cli", _config(args), args)


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _cmd_serve(args: argparse.Namespace) -> int:
    # Stopped while Prefect still loads (seconds): one line and exit 0, as once it serves.
    signal.signal(signal.SIGTERM, _interrupted)
    signal.signal(signal.SIGINT, _interrupted)
    try:
        return _call("rowkeeper.flows.serve:serve_cli", list(args.inputs), _config(args), args)
    except KeyboardInterrupt:
        print("rowkeeper serve: stopped before serving", file=sys.stderr)
        return 0


def _add_common(p: argparse.ArgumentParser, *, inputs: bool = False, out: bool = False,
                prune: bool = False) -> None:
    """The arguments several subcommands share, with one wording: inputs, --out, --config, --prune."""
    if inputs:
        p.add_argument("inputs", nargs="+", help="PDF files or folders (searched recursively)")
    if out:
        p.add_argument("--out", help="output folder (the default folder sink and the report)")
    p.add_argument("--config", help="YAML config (default: rowkeeper/configs/default.yaml)")
    if prune:
        p.add_argument("--prune", action="store_true", help="remove documents no longer in the inputs")


def _add_ops_commands(sub: argparse._SubParsersAction) -> None:
    """backfill and serve (issue 6): reprocess after an upgrade; run on a schedule."""
    bf = sub.add_parser("backfill", help="reprocess stored documents whose pipeline fingerprint changed, with a diff")
    _add_common(bf, out=True)
    bf.add_argument("--dry-run", action="store_true", help="write the diff report only; leave every sink as it is")
    bf.add_argument("--max-regression", type=int, default=0,
                    help="refuse to replace a document with more regressions than this (default 0)")
    bf.add_argument("--force", action="store_true", help="replace documents even when they regressed")
    bf.add_argument("--all", action="store_true", help="reprocess every stored document, current or not")
    bf.add_argument("--glob", help="only documents whose source matches this pattern")
    bf.add_argument("--extractor", help="only documents where this extractor's output was accepted")
    bf.add_argument("--since", help="only documents whose file changed on or after this ISO date")
    bf.set_defaults(func=_cmd_backfill)

    sv = sub.add_parser("serve", help="serve the ingest flow as a scheduled Prefect deployment")
    _add_common(sv, inputs=True, out=True, prune=True)
    sv.add_argument("--cron", default="0 2 * * *", help='cron schedule (default "0 2 * * *")')
    sv.add_argument("--name", default="nightly", help="deployment name (default nightly)")
    sv.add_argument("--retry-failed", action="store_true",
                    help="every scheduled run reprocesses documents that failed before (default: "
                         "a run's retry_failed parameter)")
    sv.set_defaults(func=_cmd_serve)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    p = argparse.ArgumentParser(prog="rowkeeper", description=__doc__)
    p.add_argument("--version", action="version", version=f"rowkeeper {rowkeeper.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="extract tables and chunks from PDFs into the configured sinks")
    _add_common(run, inputs=True, out=True, prune=True)
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.add_argument("--retry-failed", action="store_true",
                     help="reprocess documents that failed before although unchanged (e.g. a password was added)")
    run.add_argument("--wait-lock", type=float, default=0.0, metavar="SECONDS",
                     help="when another run holds --out, wait up to this long for it (default: refuse at once)")
    run.set_defaults(func=_cmd_run)
    _add_ops_commands(sub)

    sql = sub.add_parser("sql", help="query a run's output (DuckDB file or folder) with SQL")
    sql.add_argument("out", help="output folder, or a .duckdb file written by the duckdb sink")
    sql.add_argument("query", help='e.g. "SELECT row_label, max(value_num) FROM cells_numeric GROUP BY 1"')
    sql.add_argument("--format", choices=["tsv", "csv", "jsonl"], default="tsv")
    sql.set_defaults(func=_cmd_sql)

    ins = sub.add_parser("inspect", help="dump what each stage made of one PDF (pages, raw tables, tables, chunks)")
    ins.add_argument("pdf", help="the PDF to inspect")
    ins.add_argument("--dump", required=True, help="folder for 01_pages .. 04_chunks (JSONL and Markdown)")
    _add_common(ins)
    ins.set_defaults(func=_cmd_inspect)

    q = sub.add_parser("query", help="BM25 search over a run's chunks.jsonl, with page and table citations")
    q.add_argument("run_dir", metavar="OUT", help="a run's output folder (or a chunks.jsonl file)")
    q.add_argument("question", help='e.g. "What is the management fee of Sun Heights 13?"')
    q.add_argument("-k", type=int, default=5, help="hits to retrieve (default 5)")
    q.add_argument("--expand-ratio", type=float, default=None,
                   help="answer with the whole table when hits cover k/n rows >= this (default: config, 0.6)")
    q.add_argument("--json", action="store_true", help="one JSON object per hit")
    _add_common(q)
    q.set_defaults(func=_cmd_query)
    return p


# Set before any flow module imports Prefect (it reads settings at import): no telemetry unless
# the user asked for it, and Prefect's own chatter kept below rowkeeper's progress bar.
QUIET_ENV = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",  # Prefect's SDK analytics (its first-import event in a terminal)
    "ORT_DISABLE_TELEMETRY": "1",
    "PREFECT_LOGGING_LEVEL": "WARNING",
    "PREFECT_SERVER_LOGGING_LEVEL": "CRITICAL",
    "PREFECT_SERVER_UI_ENABLED": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
}


@functools.cache
def _quick_exit() -> None:
    """At interpreter exit, freeze what the gc tracks before the finalizer's collections run.

    A run process exits holding pydantic, pyarrow, pandas and the report's objects (~120,000
    tracked by the gc): the collections of the interpreter's finalization walk them all, and
    were 0.3-0.5 s of `rowkeeper run`'s wall on the throughput corpus after its report was
    written (profiled with perf: gc_collect_main), against ~0.05 s frozen. Frozen objects are
    freed as usual when their references drop; only reference cycles are left to the OS, as
    they would be by any process exit. Registered once; in a long-lived process (a notebook, a
    test session) it does nothing until that process itself exits."""
    atexit.register(gc.freeze)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, dispatch, and turn configuration problems into a clear exit 2."""
    for key, value in QUIET_ENV.items():
        os.environ.setdefault(key, value)
    _quick_exit()
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ConfigError, MissingExtra, OutputError, ServerUnavailable) as e:
        # one line whatever the message's origin: the reason is readable in a cron mail or a log
        print(f"rowkeeper: {' '.join(str(e).split())}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""`rowkeeper run` from the command line to the ingest flow, with as little waiting as possible.

This module imports no Prefect: a run with nothing to do (every input unchanged) plans, writes
its report and exits in well under a second. The isolated workers of the local runner
(flows.isolation: ~1 s each to import the PDF stack) are spawned as soon as the inputs are
found, before they are hashed and planned (those the plan has no document for are stopped at
once). A run with work then starts, in this order and overlapping, what takes seconds: its
Prefect server (the local one runs share, started by the first and found by the next,
flows.shared_server; or, with `runner.prefect_server: per_run`, one of its own,
flows.guard.EarlyServer: a server's start is ~4-5 s of CPU), and this process's own import of
Prefect and the flow; only then does it wait for the server to answer. The run's reported
seconds count from this process's start.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from rowkeeper.config import Config
from rowkeeper.errors import OutputError
from rowkeeper.faults import crash_point
from rowkeeper.flows.incremental import Plan, hash_inputs, plan_run
from rowkeeper.flows.outcome import process_start_clock, retry_hint
from rowkeeper.flows.outputs import close_all, delete_all, manifests, must_close, open_sinks
from rowkeeper.flows.report import finish_report, processed_any, write_report_files
from rowkeeper.flows.report_stream import ReportLog


def run_cli(inputs: list[str], config: Config, args: Any) -> int:
    """`rowkeeper run`: 0 when every document is ok, skipped or recorded failed; OutputError
    (one line, exit 2) when the output is in use by another run, read-only, full or locked."""
    from rowkeeper.flows.flow_memory import memory_cap
    from rowkeeper.flows.guard import describe_os_error, out_lock

    # `workers: auto` resolved once, here: the pool, the batches and the window agree on it
    config = config.model_copy(update={"runner": config.runner.model_copy(
        update={"workers": config.runner.worker_count()})})
    with out_lock(config.out, float(getattr(args, "wait_lock", 0.0) or 0.0)), \
            memory_cap(config.runner.flow_memory_limit_mb):  # the workers' cap, for the run itself
        crash_point("startup")
        try:
            return _run_locked(inputs, config, args)
        except OSError as e:
            raise OutputError(describe_os_error(e, config.out)) from None


def _run_locked(inputs: list[str], config: Config, args: Any) -> int:
    from rowkeeper.discover import discover_pdfs

    now = time.perf_counter()
    start = process_start_clock()
    warm = _warm_workers(config, inputs)
    try:
        plan, sinks = prepare(inputs, config, discover_pdfs(inputs))
        _keep_warm(warm, len(plan.todo))
        prune = bool(getattr(args, "prune", False))
        if not plan.todo and not plan.unreadable and not (prune and plan.vanished):
            # Nothing to process: answer from hashes and the manifest, without starting Prefect.
            report = finish_run([], plan, sinks, config, start, prune, startup=now - start)
        else:
            _run_flow(inputs, config, args, (plan, sinks), start)
            report = _read_report(config.out)
    finally:  # in a notebook the process lives on: no idle parser (nor a spare) left behind
        _keep_warm(warm, 0)
    print_summary(report, config.out)
    return 0


def _warm_workers(config: Config, inputs: Sequence[str]) -> list[Any]:
    """The local runner's isolated workers, spawned before the plan is made: their import of
    the PDF stack (~0.8 s each, the wait before a run's first page) then overlaps the finding
    and hashing of the inputs and the sinks' manifests (fsspec's import alone ~0.1 s) instead
    of following them. As many as the workers, or as the inputs when each is a local file;
    other runners' tasks run in processes of their own."""
    if config.runner.type != "local":
        return []
    from rowkeeper.flows.isolation import prestart_workers

    n = config.runner.worker_count()
    if all(os.path.isfile(i) for i in inputs):  # no fsspec here: a URL is no local file
        n = min(n, len(inputs))
    return prestart_workers(config, n)


def _keep_warm(warm: list[Any], todo: int) -> None:
    """Stop the warmed workers the plan has no document for (all of them when nothing
    changed): a killed worker costs only the CPU it had spent importing."""
    from rowkeeper.flows.isolation import discard_spares

    discard_spares(warm[todo:])


def _run_flow(inputs: list[str], config: Config, args: Any, prepared: tuple[Plan, list[Any]],
              start: float) -> None:
    """Start the server, import the flow meanwhile, then run it (or, with no Prefect needed,
    flows.local_run: the same batches on threads here)."""
    from rowkeeper.flows.guard import configured_api
    from rowkeeper.flows.local_run import uses_prefect

    plan = prepared[0]
    cached = float(getattr(args, "cache_hours", 0.0) or 0.0) > 0  # the cache is Prefect's
    if not cached and not uses_prefect(config, configured_api()):
        _run_local(config, args, prepared, start)
        return
    server = None if configured_api() else _own_server(config)
    try:
        from rowkeeper.flows import ingest
        from rowkeeper.flows.guard import quiet_reported_errors, start_supervised_server
        from rowkeeper.flows.outcome import DocumentsFailed
        from rowkeeper.flows.progress import RunProgress

        if server is not None and configured_api():  # a Prefect profile names a server
            server.stop()
            server = None
        quiet_reported_errors()
        show = not getattr(args, "no_progress", False)
        with RunProgress(len(plan.todo) + len(plan.unreadable), enabled=show) as progress:
            ingest._progress.set(progress)
            ingest._prepared.set(prepared)
            ingest._started.set(start)
            with server.attached() if server is not None else contextlib.nullcontext():
                if server is None:
                    start_supervised_server()  # a configured server: no-op; else Prefect's own
                try:
                    ingest.flow_for(config)(list(inputs), config, prune=bool(getattr(args, "prune", False)),
                                            cache_hours=float(getattr(args, "cache_hours", 0.0) or 0.0))
                except DocumentsFailed:
                    pass  # recorded in documents.jsonl and the report: the run itself happened
    except Exception as e:
        _raise_if_unreachable(e)
        raise
    finally:
        if server is not None:
            server.stop()


def _own_server(config: Config) -> Any:
    """The server of a run with no configured API: the shared one (flows.shared_server), or,
    with `runner.prefect_server: per_run`, one of its own (flows.guard.EarlyServer)."""
    from rowkeeper.flows.guard import EarlyServer

    if config.runner.prefect_server == "per_run":
        return EarlyServer()
    from rowkeeper.flows.shared_server import SharedServer

    return SharedServer(config.runner.prefect_server_idle_s)


def _raise_if_unreachable(e: Exception) -> None:
    """Prefect's server or API not answering (start-up timeout, PREFECT_API_URL pointing
    nowhere) is the run not happening: ServerUnavailable, one line and exit 2, not a traceback."""
    from rowkeeper.errors import ServerUnavailable
    from rowkeeper.flows.guard import unreachable_reason

    if isinstance(e, ServerUnavailable):
        return
    reason = unreachable_reason(e)
    if reason is not None:
        raise ServerUnavailable(reason) from None


def _run_local(config: Config, args: Any, prepared: tuple[Plan, list[Any]], start: float) -> None:
    """flows.local_run (its workers were warmed while the plan was made, `_warm_workers`)."""
    from rowkeeper.flows.loading import _progress
    from rowkeeper.flows.local_run import run_local
    from rowkeeper.flows.progress import RunProgress

    plan, sinks = prepared
    show = not getattr(args, "no_progress", False)
    with RunProgress(len(plan.todo) + len(plan.unreadable), enabled=show) as progress:
        token = _progress.set(progress)
        try:
            run_local(plan, sinks, config, start, bool(getattr(args, "prune", False)))
        finally:
            _progress.reset(token)


def prepare(inputs: Sequence[str], config: Config,
            paths: Sequence[str] | None = None) -> tuple[Plan, list[Any]]:
    """Discover PDFs (unless `paths`: those already discovered), hash them, open the sinks and
    plan against their manifests."""
    from rowkeeper.discover import discover_pdfs

    paths = discover_pdfs(inputs) if paths is None else paths
    sinks = open_sinks(config)
    docs, unreadable = hash_inputs(paths)
    return plan_run(docs, manifests(sinks), config, unreadable), sinks


def finish_run(entries: ReportLog | list[dict[str, Any]], plan: Plan, sinks: Sequence[Any],
               config: Config, start: float, prune: bool, command: str = "run",
               startup: float | None = None) -> dict[str, Any]:
    """Prune, close the sinks (only if anything changed), write report.json and report.html.
    `start` is a perf_counter value; `startup` the seconds of it spent before the flow began."""
    pruned = list(plan.vanished) if prune else []
    delete_all(sinks, pruned)
    if processed_any(entries) or pruned or must_close(sinks):
        close_all(sinks)
    return finish_report(entries, plan, config, time.perf_counter() - start, write_reports,
                         command=command, pruned=pruned, duplicates=[list(d) for d in plan.duplicates],
                         vanished=list(plan.vanished), out=config.out,
                         startup_seconds=None if startup is None else round(startup, 3))


def write_reports(report: dict[str, Any], out: str) -> None:
    """report.json and report.html into the run folder (the previous report.json kept, for the trend)."""
    from rowkeeper.flows.report import keep_previous, trend

    report["trend"] = trend(keep_previous(out), report["totals"])
    write_report_files(report, out, "report")


def _read_report(out: str) -> dict[str, Any]:
    from rowkeeper.flows.report_stream import read_report

    return read_report(os.path.join(out, "report.json"))  # its documents are read if asked


def print_summary(report: dict[str, Any], out: str) -> None:
    """Two lines on stderr: the totals, and where the outputs and the report are."""
    t = report["totals"]
    print(f"rowkeeper: {t['documents']} documents: {t['ok']} ok, {t['failed']} failed, "
          f"{t['skipped']} skipped unchanged; {t['pages']} pages, {t['tables']} tables, "
          f"{t['chunks']} chunks in {t['seconds']:.1f} s", file=sys.stderr)
    hint = retry_hint(t)
    if hint:
        print(f"rowkeeper: {hint}", file=sys.stderr)
    print(f"rowkeeper: outputs in {out}/ (report: {os.path.join(out, 'report.html')})", file=sys.stderr)

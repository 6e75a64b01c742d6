"""Run one document's processing in a worker subprocess, with a timeout and a memory cap.

A PDF can hang a parser, allocate without bound or segfault a C extension. Each of those must
fail that document, with its reason, and not the run. So the work runs in a long-lived worker
subprocess (flows.worker_process; one per runner thread, reused across documents because
importing the PDF stack costs about a second): `RLIMIT_AS` caps its memory, the caller waits
on a deadline and kills it on a hang, and a crash is read from its exit signal. A killed or
crashed worker is replaced before the next document.

Requests and replies are length-prefixed frames of JSON (`model_dump_json`), sent over the
worker's stdin and its original stdout; the worker points fd 1 at stderr, so a library that
prints cannot corrupt a reply. Secrets (PDF passwords) travel only over the pipe, never argv.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from rowkeeper.config import Config, env_passwords
from rowkeeper.errors import TransientError
from rowkeeper.flows.step_watch import skipping
from rowkeeper.flows.worker_process import read_frame, write_frame
from rowkeeper.models import Attempt, DocumentInput, DocumentResult

if TYPE_CHECKING:
    from rowkeeper.flows.crops import PageRender

DEFAULT_TARGET = "rowkeeper.flows.pipeline:process_document"
PICTURES_TIMEOUT_S = 60.0
"""For rendering one document's report pictures (ms a page; past it the report renders them)."""
_MAX_STEP_RESTARTS = 8
"""Worker restarts for one document's stuck steps, after which the document timeout rules."""


@dataclass(frozen=True)
class Limits:
    """What one worker may use: wall time per document, address space, documents before reuse."""

    timeout_s: float = 600.0
    memory_mb: int = 4096
    max_docs: int = 200
    """Replace the worker after this many documents, so slow leaks in C libraries stay bounded."""
    startup_timeout_s: float = 120.0
    fallback_timeout_s: float = 120.0
    """Budget of the text-only second reading of a document whose worker hung, crashed or ran
    out of memory (0: no second reading)."""


class WorkerDied(Exception):
    """The worker process ended or hung; the message is the document's failure reason."""


class _Failed(Exception):
    """The worker answered with a failure (an exception or memory error in the document)."""


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """`text` with every non-empty secret replaced by '***' (reasons must never carry a password)."""
    for s in secrets:
        if s:
            text = text.replace(s, "***")
    return text


def failed_result(doc: DocumentInput, reason: str, seconds: float, config: Config) -> DocumentResult:
    """The pipeline's failed result (same fingerprint rules), for a worker that hung or died."""
    from rowkeeper.flows.pipeline import failed_result as pipeline_failed

    return pipeline_failed(doc, reason, seconds, config)


# -- the caller's side -----------------------------------------------------------------------


class IsolatedWorker:
    """One worker subprocess that processes documents one at a time, restarted when it fails."""

    def __init__(self, limits: Limits, target: str = DEFAULT_TARGET) -> None:
        self.limits = limits
        self.target = target
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._done = 0
        self._ready = False

    def spawn(self) -> None:
        """Launch the worker process without waiting for it to import the PDF stack (its
        'ready' is read by the first request, so a run can warm workers while it starts up)."""
        # stderr goes to a private append-only file: MuPDF warnings for 100k documents are noise,
        # but the last lines explain a crash.
        self._stderr = self._stderr or tempfile.TemporaryFile(mode="ab")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        cmd = [sys.executable, "-m", "rowkeeper.flows.worker_process", self.target,
               str(self.limits.memory_mb), str(os.getpid())]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._stderr, env=env)
        self._done, self._ready = 0, False

    def _live(self) -> subprocess.Popen[bytes]:
        """The running worker, spawned and/or awaited as needed."""
        if self._proc is None or self._proc.poll() is not None:
            self.spawn()
        return self._await_ready() if not self._ready else self._proc  # type: ignore[return-value]

    def _await_ready(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        assert proc is not None
        try:
            kind, _, body = self._receive(proc, self.limits.startup_timeout_s).partition(b"\n")
        except WorkerDied as e:
            raise WorkerDied(f"worker did not start: {e}") from None
        if kind != b"ready":
            self.close()
            raise WorkerDied(f"worker did not start: {body.decode(errors='replace')}")
        self._ready = True
        return proc

    def _receive(self, proc: subprocess.Popen[bytes], timeout_s: float,
                 setting: str = "runner.document_timeout_s") -> bytes:
        assert proc.stdout is not None
        try:
            return read_frame(proc.stdout.fileno(), time.monotonic() + timeout_s)
        except TimeoutError:
            self.close()
            raise WorkerDied(f"timed out after {timeout_s:g} s ({setting}); "
                             "the worker was killed") from None
        except EOFError:
            raise WorkerDied(self._death_reason(proc)) from None

    def _death_reason(self, proc: subprocess.Popen[bytes]) -> str:
        rc = proc.wait()
        if rc < 0:
            name = signal.Signals(-rc).name
            what = f"worker crashed with {name}"
            if -rc in (signal.SIGKILL, signal.SIGABRT):
                what += f" (memory limit {self.limits.memory_mb} MB, runner.memory_limit_mb?)"
        else:
            what = f"worker exited with status {rc}"
        tail = self._stderr_tail()
        self.close()
        return f"{what}: {tail}" if tail else what

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.flush()
        with open(self._stderr.fileno(), "rb", closefd=False) as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - 4096))
            lines = [ln.strip() for ln in f.read().decode(errors="replace").splitlines()]
        fatal = [ln for ln in lines if ln.startswith("Fatal Python error")]
        last = fatal[-1] if fatal else next((ln for ln in reversed(lines) if ln), "")
        return last[:200]

    def process(self, doc: DocumentInput, config: Config, lines: bool = True) -> DocumentResult:
        """Process `doc` in the worker; a hang, crash or memory blow-up becomes a failed result.
        `lines=False`: the result comes back without its text lines (what sinks never write)."""
        start = time.monotonic()
        secrets = (*config.extract.passwords, *env_passwords(), doc.password)
        try:
            result = self._process(doc, config, secrets, start, lines)
        except (WorkerDied, _Failed) as e:
            reason = redact(str(e), secrets)
            second = self._text_only(doc, config, reason, start, lines)
            if second is None:
                return failed_result(doc, reason, time.monotonic() - start, config)
            result = second
        error = result.document.error
        if error and any(s and s in error for s in secrets):
            result = result.model_copy(update={"document": result.document.model_copy(
                update={"error": redact(error, secrets)})})
        return result

    def _text_only(self, doc: DocumentInput, config: Config, reason: str,
                   start: float, lines: bool = True) -> DocumentResult | None:
        """The document read again without table layers (its text lines and text chunks), after
        the full reading hung, crashed or ran out of memory; None when that reads nothing either."""
        if self.target != DEFAULT_TARGET or self.limits.fallback_timeout_s <= 0:
            return None
        lite = config.model_copy(update={"extract": config.extract.model_copy(
            update={"text_layers": (), "scanned_layers": ()})})
        try:
            kind, body = self._call(doc, lite, "process", None, self.limits.fallback_timeout_s, lines)
        except WorkerDied:
            return None
        result = DocumentResult.model_validate_json(body) if kind == "result" else None
        if result is None or result.document.status != "ok" or not result.chunks:
            return None
        return _degraded(result, config, reason, time.monotonic() - start)

    def _process(self, doc: DocumentInput, config: Config, secrets: tuple[str | None, ...],
                 start: float, lines: bool = True) -> DocumentResult:
        if self.target == DEFAULT_TARGET:  # the pipeline: very long documents go in page ranges
            from rowkeeper.flows.page_ranges import PagesPart, combine, page_ranges

            n_pages = int(self._ask(doc, config, secrets, "count"))
            ranges = page_ranges(n_pages, config.extract)
            if len(ranges) > 1:
                parts = [PagesPart.model_validate_json(self._ask(doc, config, secrets, "pages", r))
                         for r in ranges]
                try:
                    whole = combine(doc, config, parts, time.monotonic() - start)
                    return whole if lines else whole.model_copy(update={"lines": ()})
                except Exception as e:  # noqa: BLE001 - assembly failure fails this document only
                    raise _Failed(f"assembling {n_pages} pages: {type(e).__name__}: {e}") from e
        return DocumentResult.model_validate_json(self._ask(doc, config, secrets, "process", lines=lines))

    def _ask(self, doc: DocumentInput, config: Config, secrets: tuple[str | None, ...], op: str,
             pages: tuple[int, int] | None = None, lines: bool = True) -> str:
        """One request's reply body; TransientError to retry, _Failed or WorkerDied otherwise."""
        try:
            kind, body = self._call(doc, config, op, pages, lines=lines)
            for _ in range(_MAX_STEP_RESTARTS):  # a page stuck in C: again, without that step
                if kind != "step":
                    break
                config = skipping(config, body)
                kind, body = self._call(doc, config, op, pages, lines=lines)
        except WorkerDied as e:
            raise WorkerDied(f"pages {pages[0]}-{pages[1]}: {e}" if pages else str(e)) from None
        if kind == "transient":
            raise TransientError(redact(body, secrets))
        if kind != "result":
            raise _Failed(f"pages {pages[0]}-{pages[1]}: {body}" if pages else body)
        return body

    def pictures(self, doc: DocumentInput, config: Config,
                 wanted: list[tuple[int, tuple[int, ...]]]) -> dict[int, PageRender]:
        """report.html's pictures of `wanted` (page, pixel widths) rendered in this worker
        (flows.page_pictures), or fewer: a page the worker cannot render, the report renders."""
        from rowkeeper.flows.crops import pictures_from_json

        if self._proc is None or self._proc.poll() is not None:
            return {}  # recycled after its document: not worth a fresh worker's start-up
        try:
            kind, body = self._call(doc, config, "pictures", wanted, PICTURES_TIMEOUT_S, count=False)
        except WorkerDied:  # the next document gets a fresh worker; the report renders these
            return {}
        return pictures_from_json(body) if kind == "result" else {}

    def _call(self, doc: DocumentInput, config: Config, op: str, pages: Any,
              timeout_s: float | None = None, lines: bool = True, count: bool = True) -> tuple[str, str]:
        proc = self._live()
        assert proc.stdin is not None and self._stderr is not None
        os.ftruncate(self._stderr.fileno(), 0)
        request = json.dumps({"op": op, "pages": pages, "doc": doc.model_dump(mode="json"),
                              "config": config.model_dump(mode="json"), "lines": lines}).encode()
        try:
            write_frame(proc.stdin, request)
        except BrokenPipeError:
            raise WorkerDied(self._death_reason(proc)) from None
        budget = (timeout_s, "runner.fallback_timeout_s" if op == "process" else f"{op} op") if timeout_s \
            else (self.limits.timeout_s, "runner.document_timeout_s")
        head, _, body = self._receive(proc, *budget).partition(b"\n")
        kind, _, rss = head.decode().partition(" ")
        self._done += count
        # Recycle a worker that served its quota, failed, or grew past half its cap.
        if kind != "result" or self._done >= self.limits.max_docs or \
                float(rss or 0) > self.limits.memory_mb / 2:
            self.close()
        return kind, body.decode()

    def close(self) -> None:
        """Stop the worker process (killed: it holds no state worth a graceful exit)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        for f in (proc.stdin, proc.stdout) if proc else ():
            if f is not None:
                f.close()


def _degraded(result: DocumentResult, config: Config, reason: str, seconds: float) -> DocumentResult:
    """A text-only result marked as such: an attempt and a warning saying why tables are missing,
    and the full pipeline's fingerprint (so it is not re-read every night, like a failure)."""
    from rowkeeper.flows.pipeline import pipeline_fingerprint

    rec = result.document
    why = f"table layers cut off ({reason}); text-only output"
    attempt = Attempt(extractor="deadline", pages=tuple(p.page for p in rec.pages),
                      seconds=round(seconds, 3), accepted=False, reason=why)
    rec = rec.model_copy(update={"attempts": (attempt, *rec.attempts), "warnings": (*rec.warnings, why),
                                 "fingerprint": pipeline_fingerprint(config, rec.kind),
                                 "seconds": round(seconds, 3)})
    return result.model_copy(update={"document": rec})


_local = threading.local()


_spares: list[IsolatedWorker] = []
_spares_lock = threading.Lock()


def _thread_worker(limits: Limits, target: str) -> IsolatedWorker:
    """This thread's worker: tasks in one thread run one at a time, so it is never shared."""
    worker: IsolatedWorker | None = getattr(_local, "worker", None)
    if worker is None or worker.limits != limits or worker.target != target:
        if worker is not None:
            worker.close()
        worker = _adopt_spare(limits, target) or IsolatedWorker(limits, target)
        _local.worker = worker
        atexit.register(worker.close)
    return worker


def thread_worker(config: Config) -> IsolatedWorker:
    """This thread's worker for the pipeline under config.runner's limits (the one
    `process_isolated` uses)."""
    return _thread_worker(limits_for(config), DEFAULT_TARGET)


def limits_for(config: Config) -> Limits:
    """The worker limits config.runner sets."""
    return Limits(timeout_s=config.runner.document_timeout_s, memory_mb=config.runner.memory_limit_mb,
                  fallback_timeout_s=config.runner.fallback_timeout_s)


def process_isolated(doc: DocumentInput, config: Config, target: str = DEFAULT_TARGET,
                     lines: bool = True) -> DocumentResult:
    """`target(doc, config)` run in this thread's worker subprocess under config.runner's limits
    (`lines=False`: without the result's text lines, which no sink writes)."""
    return _thread_worker(limits_for(config), target).process(doc, config, lines)


def prestart_workers(config: Config, n: int, target: str = DEFAULT_TARGET) -> list[IsolatedWorker]:
    """Spawn `n` workers now for this process's runner threads to adopt: their import of the
    PDF stack (~1 s each) then overlaps the run's own start-up instead of following it."""
    workers = [IsolatedWorker(limits_for(config), target) for _ in range(n)]
    for worker in workers:
        worker.spawn()
        atexit.register(worker.close)
        with _spares_lock:
            _spares.append(worker)
    return workers


def discard_spares(workers: Iterable[IsolatedWorker]) -> None:
    """Close prestarted workers no thread will adopt (and drop them from the spares)."""
    for worker in workers:
        with _spares_lock:
            if worker in _spares:
                _spares.remove(worker)
        worker.close()


def _adopt_spare(limits: Limits, target: str) -> IsolatedWorker | None:
    with _spares_lock:
        for i, worker in enumerate(_spares):
            if worker.limits == limits and worker.target == target:
                return _spares.pop(i)
    return None

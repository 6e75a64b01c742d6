"""Hostile PDFs through the real `rowkeeper run`: each ends ok or failed with a clear reason,
within the timeout and a bounded memory, the run exits 0, nothing escapes the output folder,
no password reaches an output or a log, and active content never opens a connection.

The default run takes one file per category; `-m slow` runs all of them, heavy ones included.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.generate import PASSWORD, TRAVERSAL_NAMES, Case, cases, generate, sample

TIMEOUT_S = 60
FALLBACK_S = 30  # the text-only second reading after a hang, crash or memory blow-up
MEMORY_MB = 1536
_MEASURE = ("import resource, subprocess, sys; rc = subprocess.call(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
            "sys.exit(rc)")


def _all_cases() -> list[Case]:
    return [c for c, _ in cases()]


def _run(corpus: Path, out: Path, workers: int) -> tuple[subprocess.CompletedProcess[str], int]:
    """`rowkeeper run` in a child, and the peak RSS (KiB) of any process it started."""
    cfg = out.parent / f"{out.name}.yaml"
    cfg.write_text(f"extract:\n  passwords: [{PASSWORD}]\nrunner:\n  type: local\n  workers: {workers}\n"
                   f"  document_timeout_s: {TIMEOUT_S}\n  memory_limit_mb: {MEMORY_MB}\n"
                   f"  fallback_timeout_s: {FALLBACK_S}\n")
    cmd = [sys.executable, "-c", _MEASURE, sys.executable, "-m", "rowkeeper.cli", "run",
           str(corpus), "--out", str(out), "--config", str(cfg), "--no-progress"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    peak_kib = int(proc.stderr.strip().splitlines()[-1])
    return proc, peak_kib


def _records(out: Path) -> dict[str, dict]:
    lines = (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()
    return {Path(r["source"]).name: r for r in map(json.loads, lines)}


def _check_corpus(corpus: Path, out: Path, written: list[Case], workers: int) -> None:
    proc, peak_kib = _run(corpus, out, workers)
    assert proc.returncode == 0, proc.stderr[-2000:]
    records = _records(out)
    assert sorted(records) == sorted(c.name for c in written)
    problems = []
    for case in written:
        rec = records[case.name]
        problems += [f"{case.name}: {p}" for p in _problems(case, rec)]
    assert not problems, "\n".join(problems)
    assert peak_kib / 1024 < MEMORY_MB + 512, f"peak RSS {peak_kib / 1024:.0f} MB"
    _check_nothing_escaped(out, written)
    everything = proc.stdout + proc.stderr + "".join(
        p.read_text(errors="replace") for p in out.rglob("*") if p.is_file() and p.suffix != ".parquet")
    assert PASSWORD not in everything


def _problems(case: Case, rec: dict) -> list[str]:
    out = []
    if rec["status"] not in ("ok", "failed"):
        out.append(f"status {rec['status']}")
    if case.expect != "any" and rec["status"] != case.expect:
        out.append(f"expected {case.expect}, got {rec['status']} ({rec['error']})")
    if rec["status"] == "failed":
        err = rec["error"] or ""
        if len(err) < 10 or "Traceback" in err or len(err) > 600:
            out.append(f"unclear reason {err!r}")
        if case.reason and not re.search(case.reason, err):
            out.append(f"reason {err!r} does not match {case.reason!r}")
    if rec["seconds"] > TIMEOUT_S + FALLBACK_S + 10:
        out.append(f"took {rec['seconds']} s, past the {TIMEOUT_S} + {FALLBACK_S} s timeouts")
    return out


def _check_nothing_escaped(out: Path, written: list[Case]) -> None:
    """Output paths come from doc ids only: no embedded name, title or source name in a path."""
    stems = {Path(c.name).stem for c in written}
    for path in out.rglob("*"):
        for part in path.relative_to(out).parts:
            assert ".." not in part and "pwned" not in part and "rk-annot" not in part, path
            assert Path(part).stem not in stems, f"{path}: a path made from a source name"
    for name in TRAVERSAL_NAMES:
        assert not (out / name).resolve().exists() or (out / name).resolve() == out.resolve()
    assert not Path("/tmp/rk-pwned.txt").exists() and not Path("/tmp/rk-pwned").exists()


def test_a_sample_of_hostile_pdfs_each_ends_ok_or_failed_with_a_reason(tmp_path: Path):
    corpus = tmp_path / "hostile"
    written = generate(corpus, heavy=False, only={c.name for c in sample(_all_cases())})
    assert len(written) >= 14
    _check_corpus(corpus, tmp_path / "out", written, workers=2)


@pytest.mark.slow
def test_every_hostile_pdf_ends_ok_or_failed_with_a_reason(tmp_path: Path):
    corpus = tmp_path / "hostile"
    written = generate(corpus)
    assert len(written) >= 200
    assert len({c.category for c in written}) >= 14
    _check_corpus(corpus, tmp_path / "out", written, workers=2)


def test_active_content_opens_no_connection(tmp_path: Path):
    """JavaScript, launch, URI and remote-goto actions are read as data, never followed."""
    from rowkeeper.config import Config
    from rowkeeper.flows.pipeline import load_document, process_document

    names = {c.name for c in _all_cases() if c.category in ("javascript", "embedded")}
    written = generate(tmp_path / "active", heavy=False, only=names)
    events: list[tuple[str, object]] = []
    listening = [True]

    def hook(event: str, args: object) -> None:
        if listening[0] and event in ("socket.connect", "socket.getaddrinfo", "subprocess.Popen",
                                      "os.system", "os.exec", "os.posix_spawn"):
            events.append((event, args))

    sys.addaudithook(hook)  # cannot be removed: the flag below ends its effect
    try:
        results = [process_document(load_document(str(tmp_path / "active" / c.name)),
                                    Config().with_out(str(tmp_path / "out"))) for c in written]
    finally:
        listening[0] = False
    assert events == []
    assert [r.document.status for r in results] == ["ok"] * len(written)
    assert all(r.document.n_tables >= 1 for r in results)

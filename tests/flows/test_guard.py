"""The run's hold on its output: one run per --out, one-line errors with exit 2, and no Prefect
server or worker left behind by a kill -9."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rowkeeper.errors import OutputError
from rowkeeper.flows.guard import describe_os_error, lock_owner, out_lock
from samples import pdfgen
from samples.make_samples import sample_specs
from tests.flows.marked import marked

_HOLD = ("import sys, time; from rowkeeper.flows.guard import out_lock\n"
         "with out_lock(sys.argv[1]):\n    print('held', flush=True); time.sleep(float(sys.argv[2]))\n")


def _rowkeeper(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", *args, "--no-progress"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)


def _holder(out: Path, hold_s: float = 900) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _HOLD, str(out), str(hold_s)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _pdf(d: Path) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / "a.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    return d


def test_a_second_run_on_the_same_out_refuses_in_one_line(tmp_path: Path):
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        got = _rowkeeper(str(_pdf(tmp_path / "in")), "--out", str(out))
    finally:
        holder.kill()
        holder.wait()
    assert got.returncode == 2
    assert got.stderr.strip() == (f"rowkeeper: {out} is in use by another rowkeeper run "
                                  f"(pid {holder.pid}); wait for it to finish (--wait-lock SECONDS) "
                                  "or choose another --out")
    assert not (out / "documents.jsonl").exists()


def test_wait_lock_runs_once_the_other_run_lets_go(tmp_path: Path):
    out = tmp_path / "out"
    holder = _holder(out)
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(_pdf(tmp_path / "in")), "--out", str(out),
           "--no-progress", "--wait-lock", "900"]
    run = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    try:
        assert run.stderr is not None
        first = run.stderr.readline().strip()  # the run says it waits, then it does wait
        assert run.poll() is None
    finally:
        holder.kill()
        holder.wait()
    rest = run.communicate(timeout=900)[1]
    assert run.returncode == 0, rest
    assert first == f"rowkeeper: {out} is in use by another run (pid {holder.pid}); waiting up to 900 s"
    assert [json.loads(ln)["status"] for ln in (out / "documents.jsonl").read_text().splitlines()] == ["ok"]


def test_wait_lock_gives_up_after_its_seconds_in_one_line(tmp_path: Path):
    out = tmp_path / "out"
    holder = _holder(out)
    try:
        start = time.monotonic()
        with pytest.raises(OutputError) as e:
            with out_lock(str(out), wait_s=1.5):
                pass
        waited = time.monotonic() - start
    finally:
        holder.kill()
        holder.wait()
    assert 1.5 <= waited < 10
    assert str(e.value).startswith(f"{out} is in use by another rowkeeper run (pid {holder.pid}) "
                                   "after waiting 1.5 s;")


def test_a_lock_left_by_a_killed_run_is_taken_over(tmp_path: Path):
    out = tmp_path / "out"
    holder = _holder(out)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert lock_owner(str(out)) == holder.pid
    with out_lock(str(out)):
        assert lock_owner(str(out)) == os.getpid()
        assert _try_lock(out) == f"refused: {out} is in use by another rowkeeper run (pid {os.getpid()})"


def _try_lock(out: Path) -> str:
    """Take OUT's lock from another process: 'took', or 'refused: ' and the message's head."""
    code = ("import sys; from rowkeeper.errors import OutputError; from rowkeeper.flows.guard import out_lock\n"
            "try:\n    with out_lock(sys.argv[1]): print('took')\n"
            "except OutputError as e: print('refused:', str(e).split(';')[0])\n")
    return subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True,
                          timeout=120).stdout.strip()


def test_the_lock_is_reentrant_in_its_process_and_held_until_the_outer_hold_ends(tmp_path: Path):
    """`rowkeeper run` takes OUT's lock, then its ingest flow takes it again (as a served
    deployment's run does on its own): the second take must not refuse the run itself."""
    out = tmp_path / "out"
    with out_lock(str(out)):
        with out_lock(str(out)):
            assert _try_lock(out).startswith("refused:")
        assert _try_lock(out).startswith("refused:")  # the inner hold's end let nothing go
    assert _try_lock(out) == "took"


def test_a_served_runs_flow_and_a_backfill_refuse_an_out_in_use(tmp_path: Path):
    """Every run that writes OUT holds its lock: the ingest flow itself (a served deployment's
    runs start it without `rowkeeper run`) and `rowkeeper backfill`."""
    from rowkeeper.config import load_config
    from rowkeeper.flows.ingest import ingest

    out, pdfs = tmp_path / "out", _pdf(tmp_path / "in")
    holder = _holder(out)
    try:
        with pytest.raises(OutputError, match=f"in use by another rowkeeper run \\(pid {holder.pid}\\)"):
            ingest([str(pdfs)], load_config().with_out(str(out)))
        cmd = [sys.executable, "-m", "rowkeeper.cli", "backfill", "--out", str(out), "--all"]
        got = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    finally:
        holder.kill()
        holder.wait()
    assert got.returncode == 2, got.stderr[-2000:]
    assert got.stderr.strip().startswith(f"rowkeeper: {out} is in use by another rowkeeper run (pid {holder.pid})")
    assert len(got.stderr.strip().splitlines()) == 1
    assert not (out / "documents.jsonl").exists()


def test_an_out_that_cannot_be_created_is_one_line_and_exit_2(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    got = _rowkeeper(str(_pdf(tmp_path / "in")), "--out", str(blocker / "out"))
    assert got.returncode == 2
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert got.stderr.startswith(f"rowkeeper: cannot write output {blocker / 'out'}")


def test_os_errors_read_as_one_plain_line():
    full = describe_os_error(OSError(errno.ENOSPC, "No space left on device", "/o/x.tmp"), "/o")
    assert full == "cannot write output /o/x.tmp: no space left on device"
    ro = describe_os_error(OSError(errno.EROFS, "Read-only file system"), "/o")
    assert ro == "cannot write output /o: read-only file system"


def test_a_locked_duckdb_is_one_line_and_exit_2(tmp_path: Path):
    import duckdb

    out = tmp_path / "out"
    out.mkdir()
    db = out / "rk.duckdb"
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(json.dumps({"sinks": [{"type": "folder", "path": str(out)},
                                         {"type": "duckdb", "path": str(db)}]}))
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('held', flush=True); time.sleep(600)", str(db)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        got = _rowkeeper(str(_pdf(tmp_path / "in")), "--out", str(out), "--config", str(cfg))
    finally:
        holder.kill()
        holder.wait()
    assert got.returncode == 2, got.stderr
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert "lock" in got.stderr and str(db) in got.stderr
    duckdb.connect(str(db)).close()  # the holder's death released it


def test_kill_9_of_a_run_leaves_no_server_and_no_worker(tmp_path: Path):
    """The run kills itself with SIGKILL once its first document is extracted: its Prefect
    server and its worker must be gone within seconds."""
    mark = f"rk-orphan-{uuid.uuid4().hex}"
    env = dict(os.environ, ROWKEEPER_CRASH_AT="extract", ROWKEEPER_TEST_MARK=mark)
    got = _rowkeeper(str(_pdf(tmp_path / "in")), "--out", str(tmp_path / "out"), env=env)
    assert got.returncode == -signal.SIGKILL, got.stderr[-2000:]
    deadline = time.monotonic() + 15
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marked(mark) == []


def test_the_run_process_past_its_memory_cap_stops_in_one_line_and_a_rerun_resumes(tmp_path: Path):
    out, pdfs = tmp_path / "out", _pdf(tmp_path / "in")
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(json.dumps({"runner": {"flow_memory_limit_mb": 40}}))  # Python alone needs more
    got = _rowkeeper(str(pdfs), "--out", str(out), "--config", str(cfg))
    assert got.returncode == 2
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rowkeeper: the run process used "), got.stderr
    assert lines[0].endswith("over runner.flow_memory_limit_mb=40; stopped (outputs are consistent: "
                             "rerun to resume)")
    again = _rowkeeper(str(pdfs), "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert [json.loads(ln)["status"] for ln in (out / "documents.jsonl").read_text().splitlines()] == ["ok"]

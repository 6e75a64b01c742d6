"""`rowkeeper run` start-up and batching, as a user sees them: every document of a batched run
in documents.jsonl, nothing but the summary on stderr, and a rerun with no work that never
loads Prefect."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from samples import pdfgen
from samples.make_samples import sample_specs

_NO_WORK = ("import sys\nfrom rowkeeper.cli import main\n"
            "rc = main(['run', sys.argv[1], '--out', sys.argv[2], '--no-progress'])\n"
            "print(rc, 'prefect' in sys.modules)\n")


def _corpus(d: Path) -> Path:
    d.mkdir()
    ruled = pdfgen.build_pdf(sample_specs()["ruled"])
    for i in range(5):  # distinct bytes, so five documents
        (d / f"price_list_{i}.pdf").write_bytes(ruled + b"%% copy %d\n" % i)
    (d / "broken.pdf").write_bytes(b"%PDF-1.7\nnot really a pdf")
    return d


def test_a_batched_run_records_every_document_and_a_rerun_skips_prefect(tmp_path: Path):
    corpus, out = _corpus(tmp_path / "in"), tmp_path / "out"
    cfg = tmp_path / "batches.yaml"
    cfg.write_text("runner:\n  batch_docs: 2\n")  # 5 documents -> 3 task runs
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert got.returncode == 0, got.stderr[-2000:]
    docs = [json.loads(x) for x in (out / "documents.jsonl").read_text().splitlines()]
    by_name = {Path(d["source"]).name: d for d in docs}
    assert sorted(by_name) == ["broken.pdf", *(f"price_list_{i}.pdf" for i in range(5))]
    assert by_name["broken.pdf"]["status"] == "failed" and by_name["broken.pdf"]["error"]
    assert {by_name[f"price_list_{i}.pdf"]["status"] for i in range(5)} == {"ok"}
    tables = [json.loads(x) for x in (out / "tables.jsonl").read_text().splitlines()]
    assert len(tables) == 5 and all(t["rows"][2][1] == "Standing desk" for t in tables)
    # the failure's WARNING line and the summary, nothing else (no 'Error logging to API' at exit)
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 3 and "WARNING" in lines[0] and "broken.pdf" in lines[0], lines
    assert lines[1].startswith("rowkeeper: 6 documents: 5 ok, 1 failed"), lines
    assert lines[2].startswith("rowkeeper: outputs in"), lines

    again = subprocess.run([sys.executable, "-c", _NO_WORK, str(corpus), str(out)],
                           capture_output=True, text=True, timeout=300)
    assert again.stdout.split() == ["0", "False"], again.stderr[-2000:]
    assert "5 skipped unchanged" in again.stderr


_TWICE = ("import sys, psutil\nfrom rowkeeper.cli import main\n"
          "args = ['run', sys.argv[1], '--out', sys.argv[2], '--no-progress', '--config', sys.argv[3]]\n"
          "first = main(args)\n"
          "again = main(args)\n"
          "print(first, again, len(psutil.Process().children(recursive=True)))\n")


def test_workers_warmed_before_the_plan_are_stopped_when_it_has_nothing_for_them(tmp_path: Path):
    """The local runner's workers start before the inputs are hashed; a rerun with no work
    stops them at once, and neither run leaves a worker process behind in a process that lives on."""
    corpus, out = _corpus(tmp_path / "in"), tmp_path / "out"
    cfg = tmp_path / "two.yaml"
    cfg.write_text("runner:\n  workers: 2\n")
    got = subprocess.run([sys.executable, "-c", _TWICE, str(corpus), str(out), str(cfg)],
                         capture_output=True, text=True, timeout=900)
    assert got.stdout.split() == ["0", "0", "0"], got.stderr[-2000:]
    assert "5 skipped unchanged" in got.stderr
    tables = [json.loads(x) for x in (out / "tables.jsonl").read_text().splitlines()]
    assert len(tables) == 5 and all(t["rows"][2][1] == "Standing desk" for t in tables)

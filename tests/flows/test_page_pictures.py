"""report.html's page pictures rendered while a run extracts (flows.page_pictures): the same
pictures as rendered at the end, by a local run's workers or the run's thread (at a lower
priority), within the report's budget."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows import report_html
from rowkeeper.flows.crops import render_page
from rowkeeper.flows.ingest import ingest_plain
from rowkeeper.flows.launch import prepare
from rowkeeper.flows.local_run import run_local
from rowkeeper.flows.page_pictures import PagePictures
from rowkeeper.flows.pipeline import load_document, process_document
from samples import pdfgen
from samples.make_samples import sample_specs


def _corpus(d: Path) -> Path:
    d.mkdir()
    (d / "ruled.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    (d / "two_page.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["two_page"]))
    return d


def _pictures(page: str) -> list[str]:
    return re.findall(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+", page)


@pytest.mark.parametrize("cpus", [1, 64])  # workers as many as the CPUs (they render), or fewer
def test_a_local_run_shows_the_pictures_a_report_rendered_at_the_end_shows(tmp_path: Path, monkeypatch,
                                                                          cpus: int) -> None:
    from rowkeeper.flows.report_stream import ReportLog

    ahead: dict = {}
    attach = ReportLog.attach_pictures
    monkeypatch.setattr(ReportLog, "attach_pictures", lambda log, done: (ahead.update(done), attach(log, done)))
    monkeypatch.setattr("rowkeeper.flows.local_run.usable_cpus", lambda: cpus)
    corpus = _corpus(tmp_path / "in")
    config = load_config().with_out(str(tmp_path / "local"))
    plan, sinks = prepare([str(corpus)], config)
    report = run_local(plan, sinks, config, time.perf_counter(), prune=False)
    ingest_plain([str(corpus)], load_config().with_out(str(tmp_path / "plain")))
    local = (tmp_path / "local" / "report.html").read_text(encoding="utf-8")
    plain = (tmp_path / "plain" / "report.html").read_text(encoding="utf-8")
    # every table page: a thumbnail and an enlarged view, byte for byte those of the end render
    pages = sum(len({p for t in d["tables"] for p in t["pages"]}) for d in report["documents"])
    assert pages == 3 and len(_pictures(local)) == 2 * pages
    assert _pictures(local) == _pictures(plain)
    if cpus > 1:  # the run's thread rendered some of them, the report may have the rest
        assert set(ahead) <= {d["source"] for d in report["documents"]}
        return
    # every one was rendered by the workers, none left to the report (the run process)
    assert {src: sorted(got) for src, got in ahead.items()} == {
        d["source"]: sorted({p for t in d["tables"] for p in t["pages"]}) for d in report["documents"]}


def test_pictures_rendered_ahead_are_those_of_the_report_and_stop_at_its_budget(tmp_path: Path,
                                                                              monkeypatch) -> None:
    corpus = _corpus(tmp_path / "in")
    results = [process_document(load_document(str(p)), load_config()) for p in sorted(corpus.glob("*.pdf"))]
    monkeypatch.setattr(report_html, "MAX_THUMBNAILS", 2)
    monkeypatch.setattr(report_html, "MAX_ENLARGED", 1)
    pictures = PagePictures()
    assert list(pictures.passing(results)) == results
    pictures.finish()
    entries = [{"source": r.document.source} for r in results]
    pictures.attach(entries)
    done = {Path(e["source"]).name: e.get("_pictures", {}) for e in entries}
    # ruled.pdf first (its page 1, thumbnail and enlarged), then two_page.pdf's page 1 only
    assert {name: {p: sorted(r.uris) for p, r in got.items()} for name, got in done.items()} == {
        "ruled.pdf": {1: [360, 1400]}, "two_page.pdf": {1: [360]}}
    ahead = render_page(str(corpus / "ruled.pdf"), 1, [360, 1400], [(50, 100, 250, 150)], done["ruled.pdf"][1])
    assert ahead == render_page(str(corpus / "ruled.pdf"), 1, [360, 1400], [(50, 100, 250, 150)])


def test_the_worker_that_read_a_document_renders_its_pages_within_the_budget(tmp_path: Path,
                                                                           monkeypatch) -> None:
    from rowkeeper.flows.isolation import IsolatedWorker, limits_for

    corpus = _corpus(tmp_path / "in")
    config = load_config()
    monkeypatch.setattr(report_html, "MAX_THUMBNAILS", 2)
    monkeypatch.setattr(report_html, "MAX_ENLARGED", 1)
    worker, pictures = IsolatedWorker(limits_for(config)), PagePictures(in_workers=True)
    docs = [load_document(str(p)) for p in sorted(corpus.glob("*.pdf"))]
    try:
        for doc in docs:
            pictures.render_in_worker(worker, doc, worker.process(doc, config, lines=False), config)
        entries = [{"source": doc.source} for doc in docs]
        pictures.attach(entries)
        done = {Path(e["source"]).name: e.get("_pictures", {}) for e in entries}
        # the budget as the run's thread spends it: ruled.pdf's page 1 whole, two_page.pdf's page
        # 1 as a thumbnail, and the pictures the report would have rendered itself
        assert {name: {p: sorted(r.uris) for p, r in got.items()} for name, got in done.items()} == {
            "ruled.pdf": {1: [360, 1400]}, "two_page.pdf": {1: [360]}}
        box = [(50, 100, 250, 150)]
        assert render_page(docs[0].source, 1, [360, 1400], box, done["ruled.pdf"][1]) == \
            render_page(docs[0].source, 1, [360, 1400], box)
    finally:
        worker.close()
    # a worker gone (recycled after its document) renders nothing, and none is started for it
    assert worker.pictures(docs[0], config, [(1, (360,))]) == {} and worker._proc is None


def test_a_document_that_finishes_late_but_comes_first_in_the_report_gets_its_pictures_ahead(
        tmp_path: Path, monkeypatch) -> None:
    """The budget is the report's, spent in report order (by source here), not in the order
    documents finish: two_page.pdf finishing first takes the one enlarged view, then ruled.pdf,
    first in the report, takes it back, so the report renders nothing at the end."""
    from rowkeeper.flows.isolation import IsolatedWorker, limits_for

    corpus = _corpus(tmp_path / "in")
    config = load_config()
    monkeypatch.setattr(report_html, "MAX_THUMBNAILS", 2)
    monkeypatch.setattr(report_html, "MAX_ENLARGED", 1)
    worker, pictures = IsolatedWorker(limits_for(config)), PagePictures(in_workers=True)
    docs = [load_document(str(p)) for p in sorted(corpus.glob("*.pdf"), reverse=True)]
    try:
        for doc in docs:  # two_page.pdf, then ruled.pdf
            pictures.render_in_worker(worker, doc, worker.process(doc, config, lines=False), config)
    finally:
        worker.close()
    entries = [{"source": doc.source} for doc in docs]
    pictures.attach(entries)
    done = {Path(e["source"]).name: {p: sorted(r.uris) for p, r in e.get("_pictures", {}).items()}
            for e in entries}
    # what the report shows: ruled.pdf's page 1 whole, two_page.pdf's page 1 as a thumbnail
    assert done["ruled.pdf"] == {1: [360, 1400]}
    assert 360 in done["two_page.pdf"][1]


_RUN = ("import os, sys\nfrom rowkeeper.cli import main\n"
        "if hasattr(os, 'sched_setaffinity'):  # one CPU: workers auto = 1, as many as the CPUs\n"
        "    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
        "rc = main(['run', sys.argv[1], '--out', sys.argv[2], '--no-progress'])\n"
        "print(rc, 'pymupdf' in sys.modules)\n")


def test_a_local_run_s_process_shows_every_picture_without_loading_pymupdf(tmp_path: Path) -> None:
    """The workers render the pictures and the report only places the boxes (a page not turned
    needs no PyMuPDF for that): the run process never imports the PDF stack (~0.3 s of CPU)."""
    import subprocess
    import sys

    corpus, out = _corpus(tmp_path / "in"), tmp_path / "out"
    got = subprocess.run([sys.executable, "-c", _RUN, str(corpus), str(out)], capture_output=True,
                         text=True, timeout=600, check=True)
    assert got.stdout.split() == ["0", "False"]
    page = (out / "report.html").read_text(encoding="utf-8")
    assert len(_pictures(page)) == 2 * 3  # ruled.pdf page 1, two_page.pdf pages 1 and 2
    assert page.count('<rect class="tb"') == 3 + 3  # each table outlined on its thumbnail and enlarged


def test_the_picture_thread_runs_below_the_run_s_priority() -> None:
    """On a busy machine the workers' extraction goes first: the render thread's nice value is
    above the run's (Linux gives each thread its own)."""
    import os
    import sys
    import threading

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("per-thread nice values are Linux's")
    gate = threading.Event()
    after = threading.Thread(target=gate.wait)
    after.start()
    pictures = PagePictures(after=after)  # its thread lowers its priority, then waits on `after`
    tid = pictures._thread.native_id
    deadline = time.monotonic() + 30
    while os.getpriority(os.PRIO_PROCESS, tid) == os.getpriority(os.PRIO_PROCESS, 0) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert os.getpriority(os.PRIO_PROCESS, tid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    gate.set()
    pictures.finish()

"""Task runners from config, and the bounded stream of submissions that feeds them."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

from rowkeeper.config import RunnerConfig
from rowkeeper.errors import MissingExtra
from rowkeeper.flows.runners import (
    PageEstimate,
    document_batches,
    stream_results,
    task_runner,
    window_for,
)
from rowkeeper.models import DocumentInput, PageInfo


def test_config_names_the_runner():
    assert isinstance(task_runner(RunnerConfig(type="local", workers=3)), ThreadPoolTaskRunner)
    assert isinstance(task_runner(RunnerConfig(type="process", workers=2)), ProcessPoolTaskRunner)
    from prefect_dask import DaskTaskRunner

    local = task_runner(RunnerConfig(type="dask", workers=2))
    assert isinstance(local, DaskTaskRunner)
    assert local.cluster_kwargs["n_workers"] == 2 and local.cluster_kwargs["threads_per_worker"] == 1
    assert local.cluster_kwargs["host"] == "127.0.0.1"  # a local cluster listens on loopback only
    remote = task_runner(RunnerConfig(type="dask", address="tcp://10.0.0.5:8786"))
    assert remote.address == "tcp://10.0.0.5:8786"


def test_ray_without_its_extra_says_how_to_install_it():
    try:
        import prefect_ray  # noqa: F401
    except ImportError:
        with pytest.raises(MissingExtra, match=r"pip install 'rowkeeper\[ray\]'"):
            task_runner(RunnerConfig(type="ray"))
    else:
        assert type(task_runner(RunnerConfig(type="ray"))).__name__ == "RayTaskRunner"


def test_stream_keeps_a_bounded_window_in_flight_and_yields_every_result():
    in_flight, peak, lock = 0, 0, threading.Lock()

    def work(i: int) -> int:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.01 * (i % 3))
        with lock:
            in_flight -= 1
        return i * i

    submitted = []

    def submit(i: int):
        submitted.append(i)
        return pool.submit(work, i)

    with ThreadPoolExecutor(max_workers=8) as pool:
        got = []
        for r in stream_results(submit, range(40), window=4, on_error=lambda i, e: -1):
            got.append(r)
            assert len(submitted) - len(got) <= 4  # never more than the window ahead
    assert sorted(got) == [i * i for i in range(40)]
    assert peak <= 4


def test_a_future_that_raises_becomes_that_items_failed_result():
    def work(i: int) -> str:
        if i == 2:
            raise RuntimeError("HTTP 503 three times")
        return f"ok {i}"

    with ThreadPoolExecutor(max_workers=2) as pool:
        got = list(stream_results(lambda i: pool.submit(work, i), range(4), window=2,
                                  on_error=lambda i, e: f"failed {i}: {e}"))
    assert sorted(got) == ["failed 2: HTTP 503 three times", "ok 0", "ok 1", "ok 3"]


def test_window_grows_with_workers():
    assert window_for(RunnerConfig(workers=1)) < window_for(RunnerConfig(workers=4))


def _doc(i: int, size: int) -> DocumentInput:
    return DocumentInput(path=f"/x/{i}.pdf", source=f"{i}.pdf", doc_id=f"{i:064d}", size=size)


def test_batches_hold_about_batch_pages_and_at_most_batch_docs():
    estimate = PageEstimate()
    estimate.bytes, estimate.pages = 10_000, 10  # 1,000 bytes a page
    docs = [_doc(i, 30_000) for i in range(10)]  # 30 pages each
    runner = RunnerConfig(workers=1, batch_pages=100, batch_docs=50)
    got = list(document_batches(docs, runner, estimate))
    assert [len(b) for b in got] == [3, 3, 3, 1]  # 90 pages, and a fourth would pass 100
    assert [d.source for b in got for d in b] == [d.source for d in docs]  # none lost, in order
    few = list(document_batches(docs, RunnerConfig(workers=1, batch_pages=10_000, batch_docs=4), estimate))
    assert [len(b) for b in few] == [3, 3, 3, 1]  # 10 documents, 1 worker: ~4 batches, not 1
    one = list(document_batches(docs[:1], runner, estimate))
    assert [len(b) for b in one] == [1]


def test_with_two_workers_the_last_batches_shrink_so_no_worker_waits_long_on_another():
    docs = [_doc(i, 1_000) for i in range(1000)]  # 1 page each: batch_docs decides
    one = [len(b) for b in document_batches(docs, RunnerConfig(workers=1), PageEstimate())]
    assert one == [50] * 20  # one worker: nothing to balance, no extra task runs
    two = [len(b) for b in document_batches(docs, RunnerConfig(workers=2), PageEstimate())]
    assert sum(two) == 1000 and two[:17] == [50] * 17
    assert two[-3:] == [1, 1, 1] and two == sorted(two, reverse=True)  # shrinking to single documents
    assert len(two) <= 35  # a handful more task runs, not one per document
    assert [d.source for b in document_batches(docs, RunnerConfig(workers=2), PageEstimate())
            for d in b] == [d.source for d in docs]  # none lost, in order


def test_a_long_document_is_a_batch_of_its_own():
    estimate = PageEstimate()
    estimate.bytes, estimate.pages = 1_000, 1
    docs = [_doc(0, 5_000), _doc(1, 500_000), _doc(2, 5_000)]
    got = list(document_batches(docs, RunnerConfig(batch_pages=100, batch_docs=50), estimate))
    assert [[d.source for d in b] for b in got] == [["0.pdf"], ["1.pdf"], ["2.pdf"]]


def test_the_page_estimate_learns_bytes_per_page_from_finished_documents():
    from rowkeeper.config import load_config
    from rowkeeper.flows.pipeline import failed_result

    estimate = PageEstimate()
    doc = _doc(0, 80_000)
    assert estimate.pages_of(_doc(9, 4 * PageEstimate.PRIOR_BYTES_PER_PAGE)) == 4  # the prior
    result = failed_result(doc, "x", 0.0, load_config())
    pages = tuple(PageInfo(page=p, kind="text", chars=10, image_coverage=0.0) for p in range(1, 9))
    result = result.model_copy(update={"document": result.document.model_copy(update={"pages": pages})})
    estimate.learn(result, 80_000)  # 8 pages in 80 kB: 10 kB a page
    assert estimate.pages_of(_doc(1, 40_000)) == 4
    assert estimate.pages_of(_doc(2, 10)) == 1  # never 0


def test_a_prestarted_worker_serves_the_first_document(pdf_dir):
    from rowkeeper.config import load_config
    from rowkeeper.flows import isolation
    from rowkeeper.flows.pipeline import load_document

    config = load_config()
    isolation.prestart_workers(config, 1)
    spare = isolation._spares[-1]
    pid = spare._proc.pid
    got: list = []
    thread = threading.Thread(target=lambda: got.append(
        (isolation.process_isolated(load_document(str(pdf_dir / "ruled.pdf")), config),
         isolation._local.worker)))
    thread.start()
    thread.join(300)
    result, worker = got[0]
    assert result.tables[0].rows[2][1] == "Standing desk"
    assert worker is spare and worker._proc.pid == pid  # adopted, not a second start
    worker.close()


def test_a_transient_document_fails_alone_and_its_batch_goes_on(tmp_path, monkeypatch):
    from rowkeeper.config import Config
    from rowkeeper.flows import batching

    monkeypatch.setattr(batching, "DOC_RETRY_DELAYS", (0.0, 0.0))
    docs = [DocumentInput(path=str(tmp_path / f"{n}.pdf"), source=f"{n}.pdf", doc_id=f"{i:064d}")
            for i, n in enumerate(("ok_1", "transient_2", "ok_3"))]
    got = batching.extract_batch(docs, Config(), "batch 1", target="tests.flows.isolation_targets:behave")
    assert [r.document.source for r in got] == ["ok_1.pdf", "transient_2.pdf", "ok_3.pdf"]
    assert [r.document.status for r in got] == ["ok", "failed", "ok"]
    assert got[1].document.error.startswith("gave up after retries")  # a later run retries it
    assert "HTTP 503" in got[1].document.error


def test_a_batch_result_comes_back_without_text_lines_and_with_the_same_tables(pdf_dir):
    from rowkeeper.config import load_config
    from rowkeeper.flows import batching, isolation
    from rowkeeper.flows.pipeline import load_document

    config = load_config()
    doc = load_document(str(pdf_dir / "ruled.pdf"))
    (batched,) = batching.extract_batch([doc], config, "batch 1")
    whole = isolation.process_isolated(doc, config)
    assert whole.lines and batched.lines == ()  # what no sink writes stays in the worker
    assert batched.tables == whole.tables and batched.tables[0].rows[2][1] == "Standing desk"
    assert [c.text for c in batched.chunks] == [c.text for c in whole.chunks]
    assert (batched.document.status, batched.document.pages, batched.document.n_chunks) == \
        (whole.document.status, whole.document.pages, whole.document.n_chunks)

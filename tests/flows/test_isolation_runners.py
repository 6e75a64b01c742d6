"""Task runners from config, and the bounded stream of submissions that feeds them."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

from rowkeeper.config import RunnerConfig
from rowkeeper.errors import MissingExtra
from rowkeeper.flows.runners import stream_results, task_runner, window_for


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

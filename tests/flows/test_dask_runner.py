"""`runner.type: dask` for real (prefect-dask and a LocalCluster): the same documents, statuses
and table rows as the local run, and a cluster that spends no CPU on diagnostics nobody reads.
Slow: a Prefect server and a Dask cluster start."""

from __future__ import annotations

from pathlib import Path

import dask
import pytest

from rowkeeper.flows.runners import QUIET_CLUSTER, local_cluster
from tests.flows.test_local_run import runs_like_local


def test_the_quiet_cluster_settings_are_dasks_own_keys():
    # dask.config.set accepts any key: a renamed key in a Dask upgrade would silently do nothing
    import distributed  # noqa: F401 - loads distributed's defaults into dask.config

    for key, value in QUIET_CLUSTER.items():
        assert dask.config.get(key) != value, key  # exists (get raises on an unknown key), and differs


@pytest.mark.slow
def test_a_dask_run_gives_the_local_runs_outputs(tmp_path: Path):
    runs_like_local(tmp_path, "dask")


@pytest.mark.slow
def test_the_local_clusters_workers_run_without_dasks_profiler(monkeypatch):
    from distributed import Client

    # the cluster only hands the URL to its workers; nothing connects to it here
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:9/api")
    cluster = local_cluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                            dashboard_address=None)
    try:
        with Client(cluster) as client:
            seen = client.run(lambda: (dask.config.get("distributed.worker.profile.enabled"),
                                       dask.config.get("distributed.admin.tick.interval")))
    finally:
        cluster.close()
    assert list(seen.values()) == [(False, "1s")]
    assert dask.config.get("distributed.worker.profile.enabled") is True  # this process untouched

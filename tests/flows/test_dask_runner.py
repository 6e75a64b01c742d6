"""`runner.type: dask` for real (prefect-dask and a LocalCluster): the same documents, statuses
and table rows as the local run, and a cluster that spends no CPU on diagnostics nobody reads.
Slow: a Prefect server and a Dask cluster start."""

from __future__ import annotations

from pathlib import Path

import dask
import pytest

from rowkeeper.flows.runners import QUIET_CLUSTER, local_cluster
from tests.flows.test_local_run import _corpus, _no_api_env, _run, _same_as_local


def test_the_quiet_cluster_settings_are_dasks_own_keys():
    # dask.config.set accepts any key: a renamed key in a Dask upgrade would silently do nothing
    import distributed  # noqa: F401 - loads distributed's defaults into dask.config

    for key, value in QUIET_CLUSTER.items():
        assert dask.config.get(key) != value, key  # exists (get raises on an unknown key), and differs


@pytest.mark.slow
def test_a_dask_run_gives_the_local_runs_outputs(tmp_path: Path):
    corpus = _corpus(tmp_path / "in", copies=2)
    cfg = tmp_path / "dask.yaml"
    cfg.write_text("runner:\n  type: dask\n  workers: 1\n  batch_docs: 1\n")  # 3 batches
    local = _run(str(corpus), "--out", str(tmp_path / "local"), env=_no_api_env())
    run = _run(str(corpus), "--out", str(tmp_path / "dask"), "--config", str(cfg),
               env=_no_api_env(PREFECT_HOME=str(tmp_path / "prefect")))
    assert local.stdout.split() == ["0", "False"], local.stderr[-2000:]
    _same_as_local(run, tmp_path / "dask", tmp_path / "local")


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

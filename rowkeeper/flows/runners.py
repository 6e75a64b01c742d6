"""Where batches of documents run when a run goes through Prefect: its task runners.

`task_runner` turns `config.runner` into a Prefect task runner: threads in this process
(`local`), a process pool (`process`), a Dask cluster (`dask`, via prefect-dask: a LocalCluster
of `workers` single-threaded processes, or an existing scheduler at `address`) or Ray (`ray`,
via prefect-ray). Scheduling is theirs; the bounded stream of batches that feeds them is
flows.batching's (shared with a run that needs no Prefect), re-exported here.
"""

from __future__ import annotations

from typing import Any

from prefect.task_runners import ProcessPoolTaskRunner, TaskRunner, ThreadPoolTaskRunner

from rowkeeper.config import RunnerConfig
from rowkeeper.errors import ConfigError, MissingExtra
from rowkeeper.flows.batching import (  # noqa: F401 - re-exported
    DOC_RETRY_DELAYS,
    IN_FLIGHT_PER_WORKER,
    PageEstimate,
    document_batches,
    extract_batch,
    gave_up,
    stream_results,
    window_for,
)


def task_runner(runner: RunnerConfig) -> TaskRunner[Any]:
    """The Prefect task runner `runner.type` names, sized by `runner.workers`."""
    workers = runner.worker_count()
    if runner.type == "local":
        return ThreadPoolTaskRunner(max_workers=workers)
    if runner.type == "process":
        return ProcessPoolTaskRunner(max_workers=workers)
    if runner.type == "dask":
        return dask_runner(runner)
    if runner.type == "ray":
        return ray_runner(runner)
    raise ConfigError(f"unknown runner.type {runner.type!r}; known: local, process, dask, ray")


def dask_runner(runner: RunnerConfig) -> TaskRunner[Any]:
    """prefect-dask: the scheduler at `runner.address`, else a LocalCluster on 127.0.0.1 of
    `workers` processes with one thread each (PDF parsing holds the GIL)."""
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError as e:
        raise MissingExtra("runner 'dask'", "dask", str(e)) from e
    if runner.address:
        return DaskTaskRunner(address=runner.address)
    kwargs = {"n_workers": runner.worker_count(), "threads_per_worker": 1, "processes": True,
              "host": "127.0.0.1", "dashboard_address": None,
              # The scheduler always serves /health: bind it to loopback on a free port.
              "scheduler_kwargs": {"dashboard": False, "dashboard_address": "127.0.0.1:0"}}
    return DaskTaskRunner(cluster_class=local_cluster, cluster_kwargs=kwargs)


def local_cluster(**kwargs: Any) -> Any:
    """A Dask LocalCluster whose workers report to this flow's Prefect API.

    Called by prefect-dask inside the flow run. Without the API URL in their environment the
    worker processes would each start (and orphan) an ephemeral Prefect server of their own.
    """
    import dask
    from distributed import LocalCluster
    from prefect.client.orchestration import get_client

    url = get_client(sync_client=True).api_url
    env = {"PREFECT_API_URL": str(url).rstrip("/")} if url else {}
    # The nannies hand the config to their workers when they spawn them, so it holds there too.
    with dask.config.set(QUIET_CLUSTER):
        return LocalCluster(env=env, **kwargs)


QUIET_CLUSTER: dict[str, Any] = {
    # Dask's own diagnostics cost CPU every few milliseconds in every process of the cluster,
    # whether or not anyone looks (no dashboard is served): on a 2-core machine they took
    # ~50 ms of CPU per second of a run, a core's worth that extraction could use. Off or slowed
    # for the LocalCluster rowkeeper starts; a cluster at `runner.address` keeps its own config.
    "distributed.worker.profile.enabled": False,  # a stack sample of every thread every 10 ms
    "distributed.admin.tick.interval": "1s",  # event-loop watchdog, 20 ms: only warns of blocking
    "distributed.admin.system-monitor.interval": "5s",  # psutil readings for the dashboard, 500 ms
}
"""Dask settings of the LocalCluster behind `runner.type: dask` without an address."""


def ray_runner(runner: RunnerConfig) -> TaskRunner[Any]:
    """prefect-ray: the cluster at `runner.address`, else a local Ray with `workers` CPUs."""
    try:
        from prefect_ray import RayTaskRunner
    except ImportError as e:
        raise MissingExtra("runner 'ray'", "ray", str(e)) from e
    if runner.address:
        return RayTaskRunner(address=runner.address)
    return RayTaskRunner(init_kwargs={"num_cpus": runner.worker_count(), "include_dashboard": False})

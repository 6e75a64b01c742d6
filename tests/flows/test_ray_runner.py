"""`runner.type: ray` for real (prefect-ray and a local Ray): the same documents, statuses and
table rows as the local run. Slow (Ray's own start: raylet, GCS, workers) and skipped where
the `ray` extra is not installed (`pip install 'rowkeeper[ray]'`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.flows.test_local_run import _corpus, _no_api_env, _run, _same_as_local

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("prefect_ray") is None,
                       reason="the ray extra (prefect-ray, ray) is not installed"),
]


def test_a_ray_run_gives_the_local_runs_outputs(tmp_path: Path):
    corpus = _corpus(tmp_path / "in", copies=2)
    cfg = tmp_path / "ray.yaml"
    cfg.write_text("runner:\n  type: ray\n  workers: 1\n  batch_docs: 1\n")  # 3 batches
    local = _run(str(corpus), "--out", str(tmp_path / "local"), env=_no_api_env())
    ray = _run(str(corpus), "--out", str(tmp_path / "ray"), "--config", str(cfg),
               env=_no_api_env(PREFECT_HOME=str(tmp_path / "prefect"), RAY_USAGE_STATS_ENABLED="0"))
    assert local.stdout.split() == ["0", "False"], local.stderr[-2000:]
    _same_as_local(ray, tmp_path / "ray", tmp_path / "local")

"""`runner.type: ray` for real (prefect-ray and a local Ray): the same documents, statuses and
table rows as the local run. Slow (Ray's own start: raylet, GCS, workers) and skipped where
the `ray` extra is not installed (`pip install 'rowkeeper[ray]'`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.flows.test_local_run import runs_like_local

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("prefect_ray") is None,
                       reason="the ray extra (prefect-ray, ray) is not installed"),
]


def test_a_ray_run_gives_the_local_runs_outputs(tmp_path: Path):
    runs_like_local(tmp_path, "ray", RAY_USAGE_STATS_ENABLED="0")

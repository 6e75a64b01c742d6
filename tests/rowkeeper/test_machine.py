"""`runner.workers: auto`: one worker per usable CPU, as many as the available memory holds at
the worker memory cap each, at least one; a number in the config is taken as it is."""

from __future__ import annotations

import os
from pathlib import Path

from rowkeeper.config import RunnerConfig, load_config
from rowkeeper.machine import auto_workers, available_memory_mb, usable_cpus


def test_auto_is_the_cpus_when_memory_holds_a_capped_worker_per_cpu() -> None:
    assert auto_workers(4096, cpus=2, memory_mb=24_000) == 2
    assert auto_workers(1024, cpus=8, memory_mb=64_000) == 8


def test_auto_is_bounded_by_the_memory_capped_workers_may_take() -> None:
    assert auto_workers(4096, cpus=8, memory_mb=9_000) == 2  # two 4 GB workers fit, not three
    assert auto_workers(4096, cpus=4, memory_mb=3_000) == 1  # never none
    assert auto_workers(0, cpus=4, memory_mb=100) == 4  # no cap: memory bounds nothing
    assert auto_workers(4096, cpus=4, memory_mb=None) == 4  # memory unknown


def test_available_memory_is_read_from_meminfo(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24576000 kB\nMemFree:         1000000 kB\n"
                       "MemAvailable:   12288000 kB\n")
    assert available_memory_mb(meminfo) == 12_000
    meminfo.write_text("MemTotal:       24576000 kB\n")
    assert available_memory_mb(meminfo) is None
    assert available_memory_mb(tmp_path / "absent") is None


def test_the_default_config_uses_the_machine_and_a_number_stays_a_number() -> None:
    runner = load_config(None).runner
    assert runner.workers == "auto"
    assert 1 <= runner.worker_count() <= usable_cpus() <= (os.cpu_count() or 1)
    assert RunnerConfig(workers=3).worker_count() == 3
    assert RunnerConfig(workers=0).worker_count() == 1


def test_auto_in_a_config_file(tmp_path: Path) -> None:
    cfg = tmp_path / "rk.yaml"
    cfg.write_text("runner:\n  workers: auto\n  memory_limit_mb: 0\n")
    assert load_config(str(cfg)).runner.worker_count() == usable_cpus()
    cfg.write_text("runner:\n  workers: 2\n")
    assert load_config(str(cfg)).runner.worker_count() == 2

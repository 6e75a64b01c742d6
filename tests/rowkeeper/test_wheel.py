"""The built wheel is what a user installs: one `rowkeeper` package with its default config, and
`rowkeeper run` working from another folder with no `--config`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from samples import pdfgen
from samples.make_samples import sample_specs

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    """This environment without PYTHONPATH, so nothing is imported from the repository."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the sources (the worktree gets no build/ or egg-info)."""
    pytest.importorskip("wheel", reason="building without isolation needs the wheel package (test extra)")
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "rowkeeper", src / "rowkeeper",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "--no-index", "-w", str(base / "dist"), str(src)],
                   check=True, cwd=base, env=_env(), capture_output=True, timeout=300)
    (built,) = (base / "dist").glob("rowkeeper-*.whl")
    return built


def test_wheel_holds_one_package_and_the_default_config(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "rowkeeper/configs/default.yaml" in names
    assert "rowkeeper/integrations/langchain.py" in names
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"rowkeeper"}


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the repository with the wheel installed (dependencies come from
    the system site-packages so nothing is downloaded; the venv's own rowkeeper comes first)."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                   check=True, timeout=120)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps",
                    "--no-index", "--ignore-installed", str(wheel)],
                   check=True, env=_env(), timeout=300, capture_output=True)
    return venv


@pytest.fixture()
def elsewhere(tmp_path: Path) -> Path:
    """A folder outside the repository holding two sample PDFs under pdfs/."""
    (tmp_path / "pdfs").mkdir()
    for name in ("ruled", "two_page"):
        (tmp_path / "pdfs" / f"{name}.pdf").write_bytes(pdfgen.build_pdf(sample_specs()[name]))
    return tmp_path


def test_installed_wheel_imports_from_the_venv_with_its_default_config(venv: Path,
                                                                       elsewhere: Path) -> None:
    code = ("import rowkeeper, rowkeeper.config as c; print(rowkeeper.__file__); "
            "print(c.DEFAULT_CONFIG); t = rowkeeper.extract('pdfs/ruled.pdf').tables[0]; "
            "print(t.rows[0])")
    out = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=elsewhere, env=_env(),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    module, config, row = out.stdout.strip().splitlines()
    assert Path(module).is_relative_to(venv) and Path(config).is_relative_to(venv)
    assert row == "('01-001', 'Desk lamp', '1,250.00', '42')"
    version = subprocess.run([str(venv / "bin" / "rowkeeper"), "--version"], env=_env(),
                             capture_output=True, text=True, check=True)
    assert version.stdout.startswith("rowkeeper ")


@pytest.mark.slow  # Prefect's ephemeral server starts in the run: 1-2 min on a loaded machine
def test_installed_wheel_runs_the_quick_start_outside_the_repo(venv: Path, elsewhere: Path) -> None:
    run = subprocess.run([str(venv / "bin" / "rowkeeper"), "run", "pdfs", "--out", "out",
                          "--no-progress"], cwd=elsewhere, env=_env(), capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = (elsewhere / "out" / "tables.jsonl").read_text(encoding="utf-8").splitlines()
    by_source = {Path(t["source"]).stem: t for t in map(json.loads, lines)}
    assert by_source["ruled"]["columns"] == ["Code", "Item", "Unit price", "Stock"]
    assert by_source["ruled"]["rows"][0] == ["01-001", "Desk lamp", "1,250.00", "42"]
    assert len(by_source["two_page"]["pages"]) == 2

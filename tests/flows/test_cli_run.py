"""`rowkeeper run` exit codes when the run itself cannot happen (no Prefect started)."""

from __future__ import annotations

from pathlib import Path

from rowkeeper.cli import main


def test_missing_input_exits_2(tmp_path: Path, capsys) -> None:
    assert main(["run", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    assert "input not found" in capsys.readouterr().err


def test_unusable_output_folder_exits_2(pdf_dir: Path, tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["run", str(pdf_dir / "ruled.pdf"), "--out", str(blocker / "out")]) == 2
    assert "cannot write output" in capsys.readouterr().err  # one line (flows/guard.py)

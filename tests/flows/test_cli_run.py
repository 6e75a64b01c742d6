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


_FREEZE = ("import gc, sys\nfrom rowkeeper.cli import main\n"
           "rc = main(['run', sys.argv[1], '--out', sys.argv[2], '--no-progress'])\n"
           "print(rc, gc.get_freeze_count())\n")


def test_the_exit_freeze_waits_for_the_process_to_exit(pdf_dir: Path, tmp_path: Path) -> None:
    """main() leaves a process that goes on (a notebook) with every object collectable: the
    gc freeze that shortens the CLI's exit only happens at interpreter exit, after the run's
    outputs are complete."""
    import json
    import subprocess
    import sys

    out = tmp_path / "out"
    got = subprocess.run([sys.executable, "-c", _FREEZE, str(pdf_dir / "ruled.pdf"), str(out)],
                         capture_output=True, text=True, timeout=600)
    assert got.stdout.split() == ["0", "0"], got.stderr[-2000:]
    tables = [json.loads(x) for x in (out / "tables.jsonl").read_text().splitlines()]
    assert tables[0]["rows"][2][1] == "Standing desk"

"""Every config mistake is one line at start and exit status 2, before any document is read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rowkeeper.cli import main
from rowkeeper.config import load_config
from rowkeeper.errors import ConfigError


def _config(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _run_fails(args: list[str], capsys) -> str:
    """The one stderr line of a command that must stop at start with exit 2."""
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_misspelt_text_layer_stops_the_run_before_any_document(pdf_dir: Path, tmp_path: Path,
                                                               capsys) -> None:
    cfg = _config(tmp_path, "extract:\n  text_layers: [pymupdfx]\n")
    out = tmp_path / "out"
    err = _run_fails(["run", str(pdf_dir / "ruled.pdf"), "--out", str(out), "--config", cfg], capsys)
    assert err == ("rowkeeper: config error: extract.text_layers[0]: unknown extractor 'pymupdfx' "
                   "(did you mean 'pymupdf'?)")
    assert not (out / "documents.jsonl").exists()


def test_misspelt_extractor_option_names_the_right_one(pdf_dir: Path, tmp_path: Path, capsys) -> None:
    cfg = _config(tmp_path, "extract:\n  options:\n    pymupdf: {snap_tolerence: 3}\n")
    out = tmp_path / "out"
    err = _run_fails(["run", str(pdf_dir / "ruled.pdf"), "--out", str(out), "--config", cfg], capsys)
    assert err == ("rowkeeper: config error: extract.options.pymupdf.snap_tolerence: unknown option "
                   "(did you mean 'snap_tolerance'?)")
    assert not out.exists()


@pytest.mark.parametrize("command", [
    ["serve", "{pdfs}", "--out", "{out}"],
    ["backfill", "--out", "{out}", "--dry-run"],
    ["inspect", "{pdfs}/ruled.pdf", "--dump", "{out}"],
    ["query", "{out}", "management fee"],
])
def test_every_command_that_reads_config_stops_on_a_mistake(command: list[str], pdf_dir: Path,
                                                            tmp_path: Path, capsys) -> None:
    cfg = _config(tmp_path, "sinks:\n  - {type: foldr, path: x}\n")
    args = [a.format(pdfs=pdf_dir, out=tmp_path / "out") for a in command] + ["--config", cfg]
    err = _run_fails(args, capsys)
    assert err.endswith("sinks[0].type: unknown sink 'foldr' (did you mean 'folder'?)")


@pytest.mark.parametrize(("yaml_text", "expected"), [
    ("colum: {max_chars: 3}\n", "colum: unknown key"),
    ("chunk: {max_char: 3}\n", "chunk.max_char: unknown key (did you mean 'max_chars'?)"),
    ("chunk: {max_chars: lots}\n", "chunk.max_chars: Input should be a valid integer"),
    ("extract: {scanned_layers: [ocr, doclingg]}\n",
     "extract.scanned_layers[1]: unknown extractor 'doclingg' (did you mean 'docling'?)"),
    ("extract: {options: {pymupdff: {}}}\n", "extract.options.pymupdff: unknown extractor or section"),
    ("extract: {options: {pymupdf: {vertical_strategy: dots}}}\n",
     "extract.options.pymupdf.vertical_strategy: Input should be"),
    ("extract: {options: {cascade: {min_fil: 0.3}}}\n",
     "extract.options.cascade.min_fil: unknown option (did you mean 'min_fill'?)"),
    ("sinks: [{type: folder, pathh: out}]\n", "sinks[0].pathh: unknown option (did you mean 'path'?)"),
    ("extract: {text_layers: [nosuch.module:Layer]}\n", "cannot import extractor 'nosuch.module:Layer'"),
    ("runner: {type: daskk}\n", "runner.type: Input should be 'local', 'process', 'dask' or 'ray'"),
    ("extract: [\n", "not valid YAML"),
])
def test_config_mistakes_are_one_line_naming_the_key(yaml_text: str, expected: str,
                                                     tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(_config(tmp_path, yaml_text))
    message = str(e.value)
    assert message.startswith("config error: ") and "\n" not in message
    assert expected in message


def test_options_of_a_layer_whose_extra_is_missing_say_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenCV absent, as after `pip install rowkeeper` without the ocr extra
    monkeypatch.setitem(sys.modules, "cv2", None)
    monkeypatch.delitem(sys.modules, "rowkeeper.extractors.ocr_extractor", raising=False)
    with pytest.raises(ConfigError) as e:
        load_config(_config(tmp_path, "extract: {options: {ocr: {dpi: 300}}}\n"))
    assert "extract.options.ocr: extractor 'ocr' needs the 'ocr' extra: pip install 'rowkeeper[ocr]'" \
        in str(e.value)


def test_a_sink_whose_extra_is_missing_says_how_to_install_it(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "duckdb", None)  # as after a plain `pip install rowkeeper`
    monkeypatch.delitem(sys.modules, "rowkeeper.sinks.duckdb_sink", raising=False)
    with pytest.raises(ConfigError) as e:
        load_config(_config(tmp_path, "sinks: [{type: folder}, {type: duckdb}]\n"))
    assert "sinks[1]: sink 'duckdb' needs the 'duckdb' extra: pip install 'rowkeeper[duckdb]'" \
        in str(e.value)


def test_a_runner_whose_extra_is_missing_is_found_at_start(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # found before `serve` starts, not when the scheduled run begins
    monkeypatch.setitem(sys.modules, "prefect_ray", None)
    with pytest.raises(ConfigError) as e:
        load_config(_config(tmp_path, "runner: {type: ray, workers: 2}\n"))
    assert str(e.value) == ("config error: runner.type: runner 'ray' needs the 'ray' extra: "
                            "pip install 'rowkeeper[ray]'")


def test_a_layer_named_without_options_is_not_imported_at_load(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # the default scanned layers name docling and the cloud layers: absent extras are skipped
    # at run time (documented), so naming them is no error and costs no import
    monkeypatch.setitem(sys.modules, "cv2", None)
    monkeypatch.delitem(sys.modules, "rowkeeper.extractors.ocr_extractor", raising=False)
    cfg = load_config(_config(tmp_path, "extract: {scanned_layers: [ocr, docling]}\n"))
    assert cfg.extract.scanned_layers == ("ocr", "docling")


def test_the_default_config_and_valid_options_load(tmp_path: Path) -> None:
    cfg = load_config(_config(tmp_path, (
        "extract:\n  options:\n    pymupdf: {snap_tolerance: 3}\n    cascade: {min_fill: 0.3}\n"
        "sinks: [{type: folder, path: out, consolidate: false}]\n")))
    assert cfg.extract.options["pymupdf"] == {"snap_tolerance": 3}
    assert load_config().sinks[0].type == "folder"


def test_version_flag_prints_the_package_version(capsys) -> None:
    import rowkeeper

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"rowkeeper {rowkeeper.__version__}"

"""Config loading and the registry: clear errors for bad input."""

from __future__ import annotations

import pytest

from rowkeeper.config import Config, load_config
from rowkeeper.errors import ConfigError
from rowkeeper.registry import resolve


def test_default_config_loads_with_folder_sink() -> None:
    cfg = load_config()
    assert cfg.sinks[0].type == "folder"
    assert cfg.extract.text_layers[:2] == ("tagged", "pymupdf")


def test_unknown_key_is_an_error_naming_it(tmp_path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("classify:\n  min_txt_chars: 3\n")
    with pytest.raises(ConfigError, match="min_txt_chars"):
        load_config(p)


def test_with_out_points_folder_sinks_at_out() -> None:
    cfg = Config().with_out("/tmp/x")
    assert cfg.out == "/tmp/x" and cfg.sinks[0].model_dump()["path"] == "/tmp/x"


def test_fingerprint_ignores_sinks_but_not_extract_options() -> None:
    a = Config()
    assert a.fingerprint() == a.with_out("/elsewhere").fingerprint()
    b = Config.model_validate({"extract": {"options": {"camelot": {"flavor": "stream"}}}})
    assert a.fingerprint() != b.fingerprint()


def test_unknown_registry_name_lists_known_ones() -> None:
    with pytest.raises(ConfigError, match="pymupdf"):
        resolve("extractor", "nope")


def test_with_out_puts_embedded_stores_without_a_path_in_the_run_folder() -> None:
    cfg = Config.model_validate(
        {"sinks": [{"type": "duckdb"}, {"type": "lancedb", "path": "/data/lance"}]}
    ).with_out("/tmp/run")
    paths = [s.model_dump().get("path") for s in cfg.sinks]
    assert paths == ["/tmp/run/rowkeeper.duckdb", "/data/lance"]

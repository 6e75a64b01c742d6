"""The zoo's scanned twins (bench/zoo/scan.py): stable bytes per seed, image only, pages as displayed."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from bench.zoo.corpus import build, plan
from bench.zoo.scan import materialize_scans, twin


def _pdf() -> bytes:
    """Two pages of text, the second displayed turned a quarter (/Rotate 90)."""
    doc = pymupdf.open()
    for rotate in (0, 90):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), "Item  Quantity  Amount", fontsize=11)
        page.insert_text((72, 120), "Desk lamp  12  1,250.00", fontsize=11)
        page.set_rotation(rotate)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_twin_is_the_same_bytes_for_the_same_seed_and_differs_for_another():
    pdf = _pdf()
    assert twin(pdf, 7) == twin(pdf, 7)
    assert twin(pdf, 7) != twin(pdf, 8)


def test_a_twin_is_image_only_with_its_pages_as_displayed():
    with pymupdf.open(stream=twin(_pdf(), 7), filetype="pdf") as doc:
        assert doc.page_count == 2
        assert [(round(p.rect.width), round(p.rect.height), p.rotation) for p in doc] == [(595, 842, 0), (842, 595, 0)]
        assert all(p.get_text().strip() == "" and len(p.get_images()) == 1 for p in doc)


def test_materialized_twins_are_written_once_under_the_zoo_names(tmp_path):
    doc = next(d for d in plan() if d.family == "ruled_grid")
    corpus = tmp_path / "zoo"
    corpus.mkdir()
    (corpus / f"{doc.doc}.pdf").write_bytes(build(doc))
    out = materialize_scans([doc], corpus, tmp_path / "scan")
    first = (out / f"{doc.doc}.pdf").read_bytes()
    assert first == twin((corpus / f"{doc.doc}.pdf").read_bytes(), doc.seed)
    assert materialize_scans([doc], corpus, out) == out and (out / f"{doc.doc}.pdf").read_bytes() == first


def test_the_bench_config_replaces_only_the_document_timeout():
    from bench.zoo.scan import SCAN_TIMEOUT_S, bench_config
    from rowkeeper.config import load_config

    product = load_config()
    assert bench_config(None) == product
    config = bench_config(None, SCAN_TIMEOUT_S)
    assert config.runner.document_timeout_s == SCAN_TIMEOUT_S != product.runner.document_timeout_s
    assert config.runner.model_copy(update={"document_timeout_s": product.runner.document_timeout_s}) == product.runner
    assert config.extract == product.extract


def test_tune_leaves_out_the_latest_draw_which_runs_only_by_name():
    import importlib.util

    from bench.zoo.corpus import TUNE_ONLY

    spec = importlib.util.spec_from_file_location("zoo_script", Path(__file__).parents[2] / "bench" / "zoo.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    tune = script._splits("tune")
    assert tune[:2] == ["dev", "dev2"] and TUNE_ONLY[-2] in tune and TUNE_ONLY[-1] not in tune
    assert script._splits(TUNE_ONLY[-1]) == [TUNE_ONLY[-1]]

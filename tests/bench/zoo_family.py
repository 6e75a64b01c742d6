"""One zoo family of one draw, generated and read: the shared part of the family tests
(test_zoo_two_column, test_zoo_picture_column, test_zoo_slide), each of which asserts its own
kind over what this yields."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import rowkeeper
from bench.zoo.corpus import build, plan
from bench.zoo.doc import TruthDoc


def read_family(split: str, family: str, lang: str, tmp_path: Path) -> Iterator[tuple[TruthDoc, list]]:
    """Each document of `family` in `lang` of the tune-only draw `split` (its truth tables
    filled in by writing it), with the tables rowkeeper extracts from it."""
    docs = [d for d in plan(tune_only=(split,)) if d.family == family and d.split == split and d.lang == lang]
    assert docs
    for d in docs:
        path = tmp_path / f"{d.doc}.pdf"
        path.write_bytes(build(d))
        yield d, list(rowkeeper.extract(str(path)).tables)

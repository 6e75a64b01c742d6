"""The zoo's gap intervals: what re-drawing the splits' documents alone moves a gap by."""

from __future__ import annotations

from bench.zoo.noise import gap_intervals
from bench.zoo.score import Tally


def _doc(found: int, tables: int = 2) -> Tally:
    return Tally(tables=tables, found=found, extracted=found, paired=found, cells=10 * tables,
                 cells_ok=10 * found, columns=3 * tables, columns_ok=3 * found, captions_ok=found,
                 sections_ok=found)


def test_splits_read_alike_give_an_interval_around_no_gap() -> None:
    docs = [_doc(2), _doc(1), _doc(2), _doc(0), _doc(2), _doc(1)]
    strata = {("dev", "ruled"): docs, ("test", "ruled"): list(reversed(docs))}
    gap, lo, hi = gap_intervals(strata, ["dev"], ["test"])["captions"]
    assert gap == 0.0
    assert lo < 0.0 < hi


def test_a_split_missing_every_table_gives_the_whole_gap_and_no_doubt() -> None:
    strata = {("dev", "form"): [_doc(2)] * 5, ("test", "form"): [_doc(0)] * 5}
    assert gap_intervals(strata, ["dev"], ["test"])["recall"] == (1.0, 1.0, 1.0)


def test_pooled_sides_take_every_named_split() -> None:
    strata = {("dev", "f"): [_doc(2)] * 4, ("dev2", "f"): [_doc(0)] * 4,
              ("test", "f"): [_doc(1)] * 4, ("holdout", "f"): [_doc(1)] * 4}
    gap, lo, hi = gap_intervals(strata, ["dev", "dev2"], ["test", "holdout"])["columns"]
    assert gap == 0.0
    assert lo == hi == 0.0  # every document of a stratum alike: nothing to re-draw

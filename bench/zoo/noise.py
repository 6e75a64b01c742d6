"""How much of a gap between splits the zoo's size alone explains: a bootstrap over documents.

A split holds 9 documents per family; one table more or less found in a family moves a split's
caption figure by about 0.005, and a family of odd layouts drawn more often into one split
moves it by more. A dev - test gap is a defect to chase only where it stands outside what
re-drawing the splits' documents gives. Documents are resampled with replacement within each
(split, family), the figures recomputed from the summed tallies, and the central 90% of the
gaps reported. Two comparisons: dev - test (the issue's), and the pooled tuned - measured
(dev + dev2 against test + holdout, twice the documents on each side).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from bench.zoo.score import Tally, score_doc

METRICS = ("recall", "cells", "columns", "captions", "sections")
COMPARISONS = ((("dev",), ("test",)), (("dev", "dev2"), ("test", "holdout")))


def doc_tallies(truths: list[dict], got_by_doc: dict[str, list[dict]]) -> dict[tuple[str, str], list[Tally]]:
    """Every document's tally, by (split, family)."""
    strata: dict[tuple[str, str], list[Tally]] = defaultdict(list)
    for t in truths:
        strata[(t["split"], t["family"])].append(score_doc(t, got_by_doc.get(t["doc"], [])))
    return strata


def _total(tallies: Sequence[Tally]) -> dict[str, float]:
    """The figures of the summed tallies (the misses' texts left out)."""
    sum_ = Tally()
    for k in vars(sum_):
        if k != "misses":
            setattr(sum_, k, sum(getattr(t, k) for t in tallies))
    return sum_.figures()


def _draw(strata: dict[tuple[str, str], list[Tally]], splits: Sequence[str],
          rng: random.Random | None) -> dict[str, float]:
    """The figures of `splits`' documents, resampled within each stratum (as is: rng None)."""
    docs: list[Tally] = []
    for (split, _family), group in strata.items():
        if split in splits:
            docs += rng.choices(group, k=len(group)) if rng else group
    return _total(docs)


def gap_intervals(strata: dict[tuple[str, str], list[Tally]], a: Sequence[str], b: Sequence[str],
                  rounds: int = 400, seed: int = 0) -> dict[str, tuple[float, float, float]]:
    """Per metric: the gap a - b as measured, and the 5th and 95th percentile of the gap over
    `rounds` resamplings of both sides' documents."""
    rng = random.Random(seed)
    seen = _draw(strata, a, None), _draw(strata, b, None)
    draws = [(_draw(strata, a, rng), _draw(strata, b, rng)) for _ in range(rounds)]
    out = {}
    for m in METRICS:
        gaps = sorted(x[m] - y[m] for x, y in draws)
        out[m] = (seen[0][m] - seen[1][m], gaps[int(0.05 * rounds)], gaps[int(0.95 * rounds) - 1])
    return out


def print_gap_intervals(truths: list[dict], got_by_doc: dict[str, list[dict]], splits: Sequence[str]) -> dict:
    """The two comparisons' gaps with their 90% resampling intervals (where their splits ran)."""
    strata = doc_tallies(truths, got_by_doc)
    figs = {}
    print("\ngap with its 90% interval over re-drawn documents (within split and family):")
    for a, b in COMPARISONS:
        if not set(a + b) <= set(splits):
            continue
        label = f"{'+'.join(a)} - {'+'.join(b)}"
        got = gap_intervals(strata, a, b)
        figs[label] = got
        print(f"  {label:<26}" + "  ".join(f"{m} {g:+.3f} [{lo:+.3f}, {hi:+.3f}]" for m, (g, lo, hi) in got.items()))
    return figs

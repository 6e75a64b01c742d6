"""The zoo's scorer: a perfect reading scores 1, each kind of error lowers its own figure."""

from __future__ import annotations

import copy

from bench.zoo.score import matched_cells, score_doc

TRUTH = {"doc": "d", "split": "dev", "family": "f", "lang": "en", "tables": [{
    "table": "d:t1", "caption": "Table 1: Costs", "section_path": ["Report", "1. Costs"],
    "columns": ["Site", "Cost"], "column_types": ["text", "integer"], "pages": [1],
    "rows": [["North 12", "1,200"], ["South 7", "300"], ["East 3", "45"]], "header_rows": 1,
}]}


def _reading(**changes) -> dict:
    t = copy.deepcopy(TRUTH["tables"][0])
    t["table_id"] = "x:t1"
    t.update(changes)
    return t


def test_a_perfect_reading_scores_one_on_every_figure():
    f = score_doc(TRUTH, [_reading()]).figures()
    assert f == {"recall": 1.0, "precision": 1.0, "cells": 1.0, "columns": 1.0, "captions": 1.0,
                 "sections": 1.0, "types": 1.0, "duplicates": 0.0}


def test_rows_are_aligned_whatever_their_order_but_columns_by_index():
    rows = TRUTH["tables"][0]["rows"]
    assert matched_cells(rows, list(reversed(rows))) == 6
    assert matched_cells(rows, [["", *r] for r in rows]) == 0  # a spurious first column


def test_wrong_name_caption_and_section_count_separately():
    got = _reading(columns=["Site", "Costs"], caption=None, section_path=["Report"])
    f = score_doc(TRUTH, [got]).figures()
    assert (f["cells"], f["columns"], f["captions"], f["sections"]) == (1.0, 0.5, 0.0, 0.0)


def test_a_second_copy_is_a_duplicate_and_a_missing_table_scores_zero():
    tally = score_doc(TRUTH, [_reading(), _reading(table_id="x:t2")])
    assert tally.duplicates == 1 and tally.figures()["precision"] == 0.5
    assert score_doc(TRUTH, []).figures()["cells"] == 0.0

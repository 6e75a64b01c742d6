"""Benchmark invariants on table records: twice-emitted tables, shared words, merged rows."""

from __future__ import annotations

from bench.invariants import duplicated_tables, shared_words, unaccounted_rows


def _table(tid, bbox, rows, page=1, **kw):
    return {"table_id": tid, "regions": [{"page": page, "bbox": bbox}], "rows": rows,
            "columns": ["a", "b"], **kw}


ROWS = [["x1", "10"], ["x2", "20"], ["x3", "30"]]


def test_the_same_table_twice_is_reported_but_two_tables_side_by_side_are_not():
    a, b = _table("t1", [0, 0, 100, 50], ROWS), _table("t2", [2, 1, 100, 52], ROWS)
    assert len(duplicated_tables("d", [a, b])) == 1
    c = _table("t3", [0, 60, 100, 110], ROWS)
    assert duplicated_tables("d", [a, c]) == []
    other_page = _table("t4", [0, 0, 100, 50], ROWS, page=2)
    assert duplicated_tables("d", [a, other_page]) == []


def test_a_word_inside_two_tables_is_reported():
    a, b = _table("t1", [0, 0, 100, 50], ROWS), _table("t2", [0, 40, 100, 90], [["y", "1"]])
    words = {1: [(10, 42, 20, 48, "shared"), (10, 10, 20, 16, "only_a")]}
    out = shared_words("d", [a, b], words)
    assert len(out) == 1 and "shared" in out[0]


def test_a_merged_table_whose_pieces_lose_a_row_is_reported():
    cells = [{"row": r, "col": 0, "is_header": r == 0} for r in (0, 1, 2, 4)]
    t = _table("t1", [0, 0, 100, 50], ROWS, merged_from=["p1", "p2"], header_rows=1,
               cells=cells, validation={"checks": [{"name": "merged_row_count", "passed": False,
                                                    "detail": "3 body rows, pieces account for 4"}]})
    out = unaccounted_rows("d", [t])
    assert len(out) == 2
    ok = dict(t, cells=[{"row": r, "col": 0, "is_header": r == 0} for r in (0, 1, 2, 3)],
              validation={"checks": [{"name": "merged_row_count", "passed": True}]})
    assert unaccounted_rows("d", [ok]) == []

"""Items joined in groups by a chain of pairs (union-find): boxes that touch their neighbours,
grid slots no rule parts."""

from __future__ import annotations

from collections.abc import Iterable


def grouped(n: int, joins: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The items 0..n-1 in groups, two items in one group when a chain of `joins` links them;
    groups in the order of their first item, each in item order."""
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in joins:
        parent[find(i)] = find(j)
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(find(i), []).append(i)
    return list(out.values())

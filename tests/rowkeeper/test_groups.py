"""rowkeeper.groups: items linked by a chain of pairs are one group, in first-item order."""

from rowkeeper.groups import grouped


def test_a_chain_of_pairs_makes_one_group_and_the_rest_stand_alone() -> None:
    assert grouped(6, [(4, 2), (0, 3), (2, 5)]) == [[0, 3], [1], [2, 4, 5]]


def test_no_pairs_leave_every_item_alone() -> None:
    assert grouped(3, []) == [[0], [1], [2]]

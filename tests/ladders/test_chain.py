"""The chain: rolls after jumps, traps and their proof, settled squares, fewest rolls and the
replay of roll sequences."""

from __future__ import annotations

import pytest

from levelgen.ladders.chain import (
    build_chain,
    fewest_rolls,
    is_closed_trap,
    replay_rolls,
    rolls_to,
    settled_squares,
    trapped_squares,
)
from levelgen.ladders.rules import Board, Rules

TRAP = Board(5, 4, (), ((14, 1), (15, 2), (16, 3), (17, 4), (18, 5), (19, 6)))


def test_after_follows_jumps_and_counts_them() -> None:
    chain = build_chain(Board(10, 10, ((4, 14),), ((6, 2),)), Rules())
    assert chain.after[0] == (1, 2, 3, 14, 5, 2)
    assert chain.ladder_rolls[0] == 1
    assert chain.snake_rolls[0] == 1
    assert 4 not in chain.rest and 6 not in chain.rest
    assert chain.after[99] == (100, 99, 99, 99, 99, 99)


def test_a_wall_of_snakes_traps_the_token() -> None:
    chain = build_chain(TRAP, Rules())
    trapped = trapped_squares(chain)
    assert trapped == list(range(14))  # every rest square below the wall
    assert is_closed_trap(chain, trapped)
    assert not is_closed_trap(chain, [0, 1])
    assert settled_squares(chain) == []
    assert fewest_rolls(chain) is None
    rolls = rolls_to(chain, trapped)
    assert rolls == ()  # square 0 itself is trapped


def test_a_trap_out_of_reach_leaves_the_game_settled() -> None:
    # With a two-faced die the ladders 1->10 and 2->11 jump over squares 3 and 4, which the
    # snakes 5->3 and 6->4 make a closed trap: the game from 0 still ends.
    board = Board(12, 1, ((1, 10), (2, 11)), ((5, 3), (6, 4)))
    chain = build_chain(board, Rules(2))
    assert trapped_squares(chain) == []
    assert trapped_squares(chain, 3) == [3, 4]
    assert is_closed_trap(chain, [3, 4])
    settled = settled_squares(chain)
    assert 0 in settled and 3 not in settled and 4 not in settled and 7 in settled


def test_fewest_rolls_is_the_smallest_sequence() -> None:
    chain = build_chain(Board(10, 1), Rules(6))
    assert fewest_rolls(chain) == (2, (4, 6))
    assert replay_rolls(chain, [4, 6]) == [0, 4, 10]
    with pytest.raises(ValueError, match="not a face"):
        replay_rolls(chain, [7])
    with pytest.raises(ValueError, match="after the token reached"):
        replay_rolls(chain, [4, 6, 1])


def test_rests_on_a_jumps_end() -> None:
    chain = build_chain(Board(10, 10, ((4, 14),)), Rules())
    assert chain.resting(4) == 14
    assert chain.resting(5) == 5

"""Round scoring and the end-of-game checks.

A geisha's favor goes to the side with strictly more of her items; a tie, 0–0 included,
leaves her marker where it was (possibly on a side won in an earlier round).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.cards import CHARM
from engine.rules.outcome import Termination

GEISHA_GOAL = 4
CHARM_GOAL = 11


def score_favor(
    items: tuple[Sequence[int], Sequence[int]], favor: Sequence[int | None]
) -> tuple[int | None, ...]:
    """Favor markers after scoring: a strict majority takes the marker, a tie leaves it."""
    mine, theirs = items
    return tuple(
        0 if mine[g] > theirs[g] else 1 if theirs[g] > mine[g] else favor[g] for g in range(7)
    )


def favor_totals(favor: Sequence[int | None]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(geishas, charm) per player from where the favor markers are."""
    geishas = [0, 0]
    charm = [0, 0]
    for g, side in enumerate(favor):
        if side is not None:
            geishas[side] += 1
            charm[side] += CHARM[g]
    return (geishas[0], geishas[1]), (charm[0], charm[1])


def goal_winner(geishas: tuple[int, int], charm: tuple[int, int]) -> tuple[int, Termination] | None:
    """The winner if anyone reached 4 geishas or 11 charm; charm beats geishas."""
    for player in (0, 1):
        if charm[player] >= CHARM_GOAL:
            return player, Termination.CHARM  # at most one player can reach 11 of 21
    for player in (0, 1):
        if geishas[player] >= GEISHA_GOAL:
            return player, Termination.GEISHAS  # at most one player can hold 4 of 7
    return None


def round_limit_winner(
    geishas: tuple[int, int], charm: tuple[int, int]
) -> tuple[int | None, Termination]:
    """Three-round variant after round 3: more geishas, then more charm, else a draw."""
    if geishas[0] != geishas[1]:
        return (0 if geishas[0] > geishas[1] else 1), Termination.ROUND_LIMIT
    if charm[0] != charm[1]:
        return (0 if charm[0] > charm[1] else 1), Termination.ROUND_LIMIT
    return None, Termination.DRAW

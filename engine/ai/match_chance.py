"""A player's chance of winning the match from the end of a round, read from a fitted table.

Once a round is scored, what matters for the rest of the match is public and small: where
the seven favor markers are, who starts the next round and, in the three-round variant,
how many rounds were played. The chance of each such position was fitted once by
:mod:`engine.review.fit_chances` (the method and its sample sizes are in docs/review.md)
and is shipped as ``match_chances.json`` beside this module. It lives with the AI, which
values its play-outs by it; the review reads it from here.

A chance here is an expected match score: 1 for a win, 0.5 for a draw, 0 for a loss, so
the two players' chances always add up to 1 and a search can back them up as a zero-sum
value. A finished match has its exact result.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from engine.rules.scoring import favor_totals, goal_winner, round_limit_winner
from engine.rules.state import THREE_ROUND_LIMIT, GameState, Variant

TABLE_FILE = "match_chances.json"
TABLE_FORMAT = 1
FAVOR_POSITIONS = 3**7
"""Each geisha's marker is neutral, on player 0's side or on player 1's: 3^7 tables rows."""


class ChanceTableError(ValueError):
    """The shipped table is missing or malformed (a packaging fault, not a user's)."""


def favor_index(favor: Sequence[int | None]) -> int:
    """The row of a favor position: geisha g's marker is digit g in base 3 (0 neutral,
    1 player 0, 2 player 1)."""
    index = 0
    for g in range(6, -1, -1):
        side = favor[g]
        index = index * 3 + (0 if side is None else side + 1)
    return index


def favor_of_index(index: int) -> tuple[int | None, ...]:
    """The favor position of a row (the inverse of :func:`favor_index`)."""
    favor: list[int | None] = []
    for _ in range(7):
        digit = index % 3
        favor.append(None if digit == 0 else digit - 1)
        index //= 3
    return tuple(favor)


def finished_score(
    favor: Sequence[int | None], rounds_played: int, variant: Variant
) -> float | None:
    """Player 0's match score if the match is over with this favor, else None."""
    geishas, charm = favor_totals(favor)
    reached = goal_winner(geishas, charm)
    if reached is not None:
        return 1.0 if reached[0] == 0 else 0.0
    if variant is Variant.THREE_ROUNDS and rounds_played >= THREE_ROUND_LIMIT:
        winner, _ = round_limit_winner(geishas, charm)
        return 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    return None


@dataclass(frozen=True, slots=True)
class ChanceTable:
    """Player 0's chance per (next starter, favor row); per rounds played too for the
    three-round variant."""

    standard: tuple[tuple[float, ...], tuple[float, ...]]
    """``standard[starter][favor_index]``."""
    three_rounds: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]
    """``three_rounds[rounds_played][starter][favor_index]``, rounds played 0 to 2."""

    def chance(
        self,
        favor: Sequence[int | None],
        next_starter: int,
        variant: Variant,
        rounds_played: int,
    ) -> float:
        """Player 0's chance at the end of a round (exact if the match is over)."""
        done = finished_score(favor, rounds_played, variant)
        if done is not None:
            return done
        row = favor_index(favor)
        if variant is Variant.THREE_ROUNDS:
            return self.three_rounds[rounds_played][next_starter][row]
        return self.standard[next_starter][row]

    @classmethod
    def from_dict(cls, data: object) -> ChanceTable:
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            raise ChanceTableError(f"{TABLE_FILE}: expected format {TABLE_FORMAT}")
        try:
            standard = _pair(data["standard"])
            three = tuple(_pair(by_rounds) for by_rounds in data["three-rounds"])
        except (KeyError, TypeError, ValueError) as error:
            raise ChanceTableError(f"{TABLE_FILE}: {error}") from None
        if len(three) != THREE_ROUND_LIMIT:
            raise ChanceTableError(f"{TABLE_FILE}: {len(three)} three-round tables, expected 3")
        return cls(standard, three)


def _pair(rows: object) -> tuple[tuple[float, ...], tuple[float, ...]]:
    if not isinstance(rows, list) or len(rows) != 2:
        raise ValueError("expected one row per starting player")
    first, second = (tuple(float(v) for v in row) for row in rows)
    if len(first) != FAVOR_POSITIONS or len(second) != FAVOR_POSITIONS:
        raise ValueError(f"expected {FAVOR_POSITIONS} favor positions per row")
    return first, second


@functools.cache
def chance_table() -> ChanceTable:
    """The shipped table, read once per process from the installed package."""
    try:
        text = resources.files("engine.ai").joinpath(TABLE_FILE).read_text("utf-8")
    except FileNotFoundError:
        raise ChanceTableError(f"{TABLE_FILE} is missing from the engine.ai package") from None
    return ChanceTable.from_dict(json.loads(text))


def match_chance(state: GameState, player: int = 0) -> float:
    """``player``'s chance of winning the match from ``state``, which must be over or at
    the very start of a round (before its first decision): a search's leaf."""
    outcome = state.outcome
    if outcome is not None:
        score0 = 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
    else:
        if state.turn != 0 or state.log[-1]:
            raise ValueError(
                f"a match chance is read at a round's start, not at turn {state.turn} "
                f"of round {state.round_number}"
            )
        score0 = chance_table().chance(
            state.favor, state.start_player, state.variant, len(state.results)
        )
    return score0 if player == 0 else 1.0 - score0


def leaf_value(state: GameState) -> float:
    """A play-out's end as a search value for player 0, between -1 and 1."""
    return 2.0 * match_chance(state) - 1.0

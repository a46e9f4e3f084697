"""Knockout: a bracket seeded by rating, byes to the top seeds, a drawn game replayed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tournaments.errors import TooFewPlayers
from engine.tournaments.games import Entrant, Finished, Game, Pairing, Round


def bracket_order(size: int) -> list[int]:
    """Seeds (from 1) in bracket order, so seeds 1 and 2 can meet only in the final.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        width = 2 * len(order)
        order = [seed for top in order for seed in (top, width + 1 - top)]
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds everyone; the gap is filled with byes."""
    if players < 2:
        raise TooFewPlayers(players)
    size = 1
    while size < players:
        size *= 2
    return size


@dataclass(frozen=True, slots=True)
class Bracket:
    """How far the bracket has come: each player's last level reached, and what is open."""

    reached: dict[int, int]
    """Level each player reached: 0 for the first round, up to the champion's."""
    open_matches: tuple[tuple[int, int], ...]
    """Pairs (higher seed first) still to settle at the current level."""
    champion: int | None


def bracket(
    entrants: Sequence[Entrant], games: Sequence[Game], *, withdrawn: frozenset[int] = frozenset()
) -> Bracket:
    """Walk the bracket over the games so far (``entrants`` in seed order).

    A pair's match is settled by its decisive game; a drawn game settles nothing (it is
    replayed). A withdrawn player loses by walkover a match not yet settled.
    """
    size = bracket_size(len(entrants))
    players = [entrant.player for entrant in entrants]
    seed = {player: index for index, player in enumerate(players)}
    level: list[int | None] = [
        players[number - 1] if number <= len(players) else None for number in bracket_order(size)
    ]
    decided: dict[frozenset[int], int] = {}
    for game in games:
        if game.second is not None and (winner := game.winner) is not None:
            decided[frozenset((game.first, game.second))] = winner
    reached = dict.fromkeys(players, 0)
    depth = 0
    while True:
        winners: list[int | None] = []
        pending: list[tuple[int, int]] = []
        for one, other in zip(level[::2], level[1::2], strict=True):
            if one is None or other is None:
                winners.append(one if other is None else other)
                continue
            higher, lower = sorted((one, other), key=seed.__getitem__)
            winner = decided.get(frozenset((one, other)))
            if winner is None and (higher in withdrawn) != (lower in withdrawn):
                winner = lower if higher in withdrawn else higher
            if winner is None and higher in withdrawn:
                winner = higher  # both gone: the bracket still needs someone in the slot
            if winner is None:
                pending.append((higher, lower))
            winners.append(winner)
        if pending:
            return Bracket(reached, tuple(pending), None)
        depth += 1
        for winner in winners:
            if winner is not None:
                reached[winner] = depth
        if len(winners) == 1:
            return Bracket(reached, (), winners[0])
        level = winners


def knockout_round(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    number: int,
    *,
    withdrawn: frozenset[int] = frozenset(),
) -> Round | Finished:
    """The next round of a knockout (``entrants`` in seed order): its open matches.

    The first round also lists the top seeds' byes. The higher seed starts a match's
    first game; a replay after a draw swaps who starts.

    >>> players = [Entrant(p, 2000.0 - p) for p in (1, 2, 3)]
    >>> knockout_round(players, [], 1).pairings
    (Pairing(table=1, first=2, second=3), Pairing(table=2, first=1, second=None))
    """
    state = bracket(entrants, games, withdrawn=withdrawn)
    if state.champion is not None:
        return Finished()
    pairings: list[Pairing] = []
    for higher, lower in state.open_matches:
        meetings = sum(
            1
            for game in games
            if game.second is not None and {game.first, game.second} == {higher, lower}
        )
        first, second = (higher, lower) if meetings % 2 == 0 else (lower, higher)
        pairings.append(Pairing(len(pairings) + 1, first, second))
    if not games:
        size = bracket_size(len(entrants))
        for entrant in entrants[: size - len(entrants)]:
            pairings.append(Pairing(len(pairings) + 1, entrant.player, None))
    return Round(number, tuple(pairings))

"""Round robin by the circle method (Berger tables): everyone meets everyone once."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tournaments.errors import TooFewPlayers
from engine.tournaments.games import Entrant, Pairing, Round


def round_robin_rounds(players: int) -> int:
    """Rounds needed: players - 1, or players when odd (each sits out once, a bye).

    >>> round_robin_rounds(4), round_robin_rounds(5)
    (3, 5)
    """
    if players < 2:
        raise TooFewPlayers(players)
    return players - 1 if players % 2 == 0 else players


def berger_round(players: Sequence[int | None], number: int) -> list[tuple[int | None, int | None]]:
    """Round ``number`` (from 1) of the circle method: the last place stays, the rest turn.

    Over the whole tournament everyone starts within one game of as often as they follow;
    midway it can be two (no round robin can keep everyone within one throughout: two
    players who strictly alternate in step could never meet).

    >>> berger_round([1, 2, 3, 4], 1)
    [(1, 4), (2, 3)]
    >>> berger_round([1, 2, 3, 4], 2)
    [(4, 3), (1, 2)]
    """
    size = len(players)
    fixed, turning = players[-1], list(players[:-1])
    shift = (number - 1) * (size // 2)  # the Berger tables' step: half the table a round
    turned = [turning[(index + shift) % len(turning)] for index in range(len(turning))]
    pairs: list[tuple[int | None, int | None]] = []
    # Table 1: the fixed player against the head of the circle, alternating who starts.
    pairs.append((turned[0], fixed) if number % 2 else (fixed, turned[0]))
    for index in range(1, size // 2):
        pairs.append((turned[index], turned[-index]))
    return pairs


def round_robin_round(
    entrants: Sequence[Entrant], number: int, *, withdrawn: frozenset[int] = frozenset()
) -> Round:
    """Round ``number``: the entrants in seed order on Berger tables.

    The odd one out, and the opponent of a withdrawn player, has a bye (a forfeit win).
    """
    if len(entrants) < 2:
        raise TooFewPlayers(len(entrants))
    players: list[int | None] = [entrant.player for entrant in entrants]
    if len(players) % 2:
        players.append(None)
    pairings: list[Pairing] = []
    byes: list[int] = []
    for first, second in berger_round(players, number):
        playing = [p for p in (first, second) if p is not None and p not in withdrawn]
        if len(playing) == 2 and first is not None and second is not None:
            pairings.append(Pairing(len(pairings) + 1, first, second))
        elif len(playing) == 1:
            byes.append(playing[0])
    pairings.extend(Pairing(len(pairings) + 1 + index, bye, None) for index, bye in enumerate(byes))
    return Round(number, tuple(pairings))

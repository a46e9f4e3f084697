"""Standings: points (win 1, draw ½, bye 1), then Buchholz, then Sonneborn–Berger.

As in chess, from which these formats come: Buchholz is the sum of the final points of
everyone a player met (a bye adds nothing), Sonneborn–Berger the points of everyone they
beat plus half the points of everyone they drew with.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.tournaments.games import Entrant, Game, Result

WIN = Fraction(1)
DRAW = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``place`` is shared by players equal on every tiebreak."""

    place: int
    player: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool = False

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


def points(games: Iterable[Game]) -> dict[int, Fraction]:
    """Each player's points over the games that are over (a bye is a win)."""
    totals: dict[int, Fraction] = {}
    for game in games:
        for player in game.pairing.players:
            totals.setdefault(player, Fraction(0))
        if not game.is_over:
            continue
        if game.result is Result.DRAW and game.second is not None:
            totals[game.first] += DRAW
            totals[game.second] += DRAW
        elif (winner := game.winner) is not None:
            totals[winner] += WIN
    return totals


def standings(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    *,
    withdrawn: frozenset[int] = frozenset(),
) -> tuple[Standing, ...]:
    """The standings, best first: points, Buchholz, Sonneborn–Berger; then seed order.

    >>> from engine.tournaments.games import Pairing
    >>> ana, ben = Entrant(1, 1500.0), Entrant(2, 1500.0)
    >>> [s.player for s in standings([ana, ben], [Game(1, Pairing(1, 1, 2), Result.SECOND_WON)])]
    [2, 1]
    """
    over = [game for game in games if game.is_over]
    total = points(over)
    buchholz: dict[int, Fraction] = {}
    berger: dict[int, Fraction] = {}
    tally: dict[int, list[int]] = {}  # wins, draws, losses, byes
    for entrant in entrants:
        total.setdefault(entrant.player, Fraction(0))
        buchholz[entrant.player] = Fraction(0)
        berger[entrant.player] = Fraction(0)
        tally[entrant.player] = [0, 0, 0, 0]
    for game in over:
        if game.second is None:
            tally[game.first][3] += 1
            continue
        for player, opponent in ((game.first, game.second), (game.second, game.first)):
            buchholz[player] += total[opponent]
            if game.result is Result.DRAW:
                berger[player] += total[opponent] * DRAW
                tally[player][1] += 1
            elif game.winner == player:
                berger[player] += total[opponent]
                tally[player][0] += 1
            else:
                tally[player][2] += 1
    seed = {entrant.player: index for index, entrant in enumerate(entrants)}

    def merit(player: int) -> tuple[Fraction, Fraction, Fraction]:
        return (total[player], buchholz[player], berger[player])

    order = sorted(seed, key=lambda player: (*(-value for value in merit(player)), seed[player]))
    lines: list[Standing] = []
    for index, player in enumerate(order):
        shared = index > 0 and merit(order[index - 1]) == merit(player)
        wins, draws, losses, byes = tally[player]
        lines.append(
            Standing(
                place=lines[-1].place if shared else index + 1,
                player=player,
                points=total[player],
                buchholz=buchholz[player],
                sonneborn_berger=berger[player],
                wins=wins,
                draws=draws,
                losses=losses,
                byes=byes,
                withdrawn=player in withdrawn,
            )
        )
    return tuple(lines)


def shown_points(value: Fraction) -> str:
    """Points as players write them: ``2½``, ``½``, ``3``, and a tiebreak's quarters as ``3¾``,
    so one column never mixes fractions and decimals.

    >>> shown_points(Fraction(5, 2)), shown_points(Fraction(1, 2)), shown_points(Fraction(15, 4))
    ('2½', '½', '3¾')
    """
    if (value * 4).denominator != 1:
        return f"{float(value):g}"
    whole, quarters = divmod(value * 4, 4)
    mark = {0: "", 1: "¼", 2: "½", 3: "¾"}[int(quarters)]
    if not mark:
        return str(int(whole))
    return f"{int(whole)}{mark}" if whole else mark

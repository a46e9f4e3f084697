"""What comes next in a tournament: the next round's pairings, or the end; and the final
order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.tournaments.errors import RoundNotOver, TooFewPlayers
from engine.tournaments.games import Entrant, Finished, Format, Game, Round
from engine.tournaments.knockout import bracket, knockout_round
from engine.tournaments.round_robin import round_robin_round, round_robin_rounds
from engine.tournaments.standings import Standing, standings
from engine.tournaments.swiss import default_rounds, swiss_round


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """The format and, for Swiss, the rounds (None: ceil(log2(players)) + 1)."""

    format: Format
    rounds: int | None = None

    def total_rounds(self, players: int) -> int | None:
        """Rounds the tournament will have; None for a knockout (replays add rounds)."""
        if self.format is Format.SWISS:
            return self.rounds or default_rounds(players)
        if self.format is Format.ROUND_ROBIN:
            return round_robin_rounds(players)
        return None


def next_round(
    plan: TournamentPlan,
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    withdrawn: frozenset[int] = frozenset(),
) -> Round | Finished:
    """The round after ``games`` (every one of them over), or :class:`Finished`.

    ``entrants`` are in seed order (best rating first, see ``seeded``). A tournament whose
    players have all but one withdrawn is finished.

    >>> from engine.tournaments.games import Pairing, Result
    >>> plan = TournamentPlan(Format.SWISS, rounds=1)
    >>> two = [Entrant(1, 1500.0), Entrant(2, 1400.0)]
    >>> next_round(plan, two, [])
    Round(number=1, pairings=(Pairing(table=1, first=1, second=2),))
    >>> next_round(plan, two, [Game(1, Pairing(1, 1, 2), Result.DRAW)])
    Finished()
    """
    if len(entrants) < 2:
        raise TooFewPlayers(len(entrants))
    for game in games:
        if not game.is_over:
            raise RoundNotOver(game.round, game.pairing.table)
    number = max((game.round for game in games), default=0) + 1
    if plan.format is Format.KNOCKOUT:
        return knockout_round(entrants, games, number, withdrawn=withdrawn)
    active = [entrant for entrant in entrants if entrant.player not in withdrawn]
    total = plan.total_rounds(len(entrants))
    if len(active) < 2 or (total is not None and number > total):
        return Finished()
    if plan.format is Format.ROUND_ROBIN:
        return round_robin_round(entrants, number, withdrawn=withdrawn)
    return swiss_round(entrants, games, number, withdrawn=withdrawn)


def final_standings(
    plan: TournamentPlan,
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    withdrawn: frozenset[int] = frozenset(),
) -> tuple[Standing, ...]:
    """The standings; a knockout ranks by how far each player went, then by points.

    Players knocked out at the same stage share a place (both semi-final losers are 3rd).
    """
    lines = standings(entrants, games, withdrawn=withdrawn)
    if plan.format is not Format.KNOCKOUT:
        return lines
    reached = bracket(entrants, games, withdrawn=withdrawn).reached
    order = sorted(lines, key=lambda line: -reached[line.player])  # stable: points next
    placed: list[Standing] = []
    for index, line in enumerate(order):
        shared = index > 0 and reached[order[index - 1].player] == reached[line.player]
        place = placed[-1].place if shared else index + 1
        placed.append(replace(line, place=place))
    return tuple(placed)

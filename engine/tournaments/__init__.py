"""Tournaments as pure rules: pairing (Swiss, round robin, knockout) and standings.

No I/O: the service stores a tournament and its games and asks these functions what comes
next; the bot only shows the answers.

>>> plan = TournamentPlan(Format.SWISS)
>>> players = seeded([Entrant(p, 1500.0 + p) for p in range(1, 5)])
>>> first = next_round(plan, players, [])
>>> [(p.first, p.second) for p in first.pairings]
[(4, 2), (1, 3)]
"""

from engine.tournaments.errors import RoundNotOver, TooFewPlayers, TournamentRuleError
from engine.tournaments.games import (
    Entrant,
    Finished,
    Format,
    Game,
    Pairing,
    Result,
    Round,
    seeded,
)
from engine.tournaments.knockout import bracket, bracket_order, knockout_round
from engine.tournaments.round_robin import round_robin_round, round_robin_rounds
from engine.tournaments.schedule import TournamentPlan, final_standings, next_round
from engine.tournaments.standings import Standing, shown_points, standings
from engine.tournaments.swiss import default_rounds, swiss_round

"""The old name of :class:`TournamentPlan` (a tournament is not an event: `engine.service.Event`
is), kept until `engine.service.tournaments` says TournamentPlan; then it goes."""

__all__ = [
    "Entrant",
    "Finished",
    "Format",
    "Game",
    "Pairing",
    "Result",
    "Round",
    "RoundNotOver",
    "Standing",
    "TooFewPlayers",
    "TournamentPlan",
    "TournamentRuleError",
    "bracket",
    "bracket_order",
    "default_rounds",
    "final_standings",
    "knockout_round",
    "next_round",
    "round_robin_round",
    "round_robin_rounds",
    "seeded",
    "shown_points",
    "standings",
    "swiss_round",
]

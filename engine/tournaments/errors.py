"""Typed errors of the pure tournament rules; each message quotes what was wrong."""

from __future__ import annotations


class TournamentRuleError(ValueError):
    """Base of every error the tournament rules raise on purpose."""


class TooFewPlayers(TournamentRuleError):
    """A round cannot be paired with fewer than two players."""

    def __init__(self, players: int) -> None:
        self.players = players
        super().__init__(f"a tournament needs at least 2 players, got {players}")


class RoundNotOver(TournamentRuleError):
    """The next round was asked for while a game of this one has no result."""

    def __init__(self, round_number: int, table: int) -> None:
        super().__init__(f"round {round_number} table {table} has no result yet")

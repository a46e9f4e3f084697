"""A season's standings: each member's rating started anew at the season's start and
moved by its rated matches in the order they finished, like the all-time rating.

Built incrementally (:meth:`SeasonTable.add`): a running season adds only the matches that
finished since it was last read, so a server with thousands of members is not replayed on
every leaderboard page.

>>> table = SeasonTable(min_games=1)
>>> table.add(SeasonResult(1, (10, 20), 0, 100.0))
>>> [(s.user_id, s.rank, round(s.rating.rating)) for s in table.ranking()]
[(10, 1, 1662), (20, 2, 1338)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.ratings import Glicko2Rating, RatingError, rate_match
from engine.seasons.season import SeasonResult, SeasonStanding


@dataclass(slots=True)
class _Line:
    rating: Glicko2Rating = field(default_factory=Glicko2Rating)
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


class SeasonTable:
    """The members of one season and their numbers; ranks are worked out when asked."""

    def __init__(self, min_games: int) -> None:
        if min_games < 1:
            raise RatingError(f"a season ranks members with at least 1 game, not {min_games!r}")
        self.min_games = min_games
        self._lines: dict[int, _Line] = {}
        self._ranking: tuple[SeasonStanding, ...] | None = None
        self._ranked: dict[int, SeasonStanding] = {}
        """user id -> their line in :meth:`ranking`, made with it."""
        self.last: tuple[float, int] | None = None
        """(finished_at, match_id) of the last match added: matches come in that order."""
        self.count = 0
        """How many matches were added."""

    def add(self, result: SeasonResult) -> None:
        """Count one rated match; matches must come in (finished_at, match_id) order."""
        key = (result.finished_at, result.match_id)
        if self.last is not None and key <= self.last:
            raise RatingError(f"match {result.match_id} comes after {self.last!r}: {result!r}")
        first, second = (self._lines.setdefault(p, _Line()) for p in result.players)
        score = 0.5 if result.winner_seat is None else float(result.winner_seat == 0)
        first.rating, second.rating = rate_match(first.rating, second.rating, score)
        for line, points in ((first, score), (second, 1.0 - score)):
            line.games += 1
            line.wins += points == 1.0
            line.losses += points == 0.0
            line.draws += points == 0.5
        self.last = key
        self.count += 1
        self._ranking = None

    def add_all(self, results: Iterable[SeasonResult]) -> None:
        for result in results:
            self.add(result)

    def ranking(self) -> tuple[SeasonStanding, ...]:
        """The ranked members, best first: highest rating, then more games, then lower id
        (so pages never overlap)."""
        if self._ranking is None:
            ranked = sorted(
                (
                    (user_id, line)
                    for user_id, line in self._lines.items()
                    if line.games >= self.min_games
                ),
                key=lambda item: (-item[1].rating.rating, -item[1].games, item[0]),
            )
            self._ranking = tuple(
                _standing(user_id, line, rank)
                for rank, (user_id, line) in enumerate(ranked, start=1)
            )
            self._ranked = {s.user_id: s for s in self._ranking}
        return self._ranking

    def standing_of(self, user_id: int) -> SeasonStanding | None:
        """The member's line, ranked or not; None if they played no match this season."""
        line = self._lines.get(user_id)
        if line is None:
            return None
        if line.games >= self.min_games:
            self.ranking()
            return self._ranked[user_id]
        return _standing(user_id, line, None)

    @property
    def members(self) -> int:
        """Members with at least one match this season."""
        return len(self._lines)


def _standing(user_id: int, line: _Line, rank: int | None) -> SeasonStanding:
    return SeasonStanding(
        user_id, line.rating, line.games, line.wins, line.losses, line.draws, rank
    )

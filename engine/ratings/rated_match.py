"""Which finished matches are rated, what each seat scored, and the standings they produce.

The rules (README, "Ratings"):

- Only matches between two people are rated; a match against the AI never is. Ratings are
  per server; a match outside any server (a DM or a group DM, played through the
  user-installed app) counts on the global rating, kept under :data:`GLOBAL_RATINGS`.
  A challenge that was declined, cancelled or expired never became a match, so there is
  nothing to rate. An open seat opened unrated (``MatchInfo.rated``) is not rated either;
  the service checks that flag before asking :func:`is_rated`.
- A win scores 1 and a loss 0 however the match ended: charm, geishas, the three-round
  limit, and also a resignation or a timeout forfeit (conceding is losing; otherwise a
  player about to lose could resign to protect their rating).
- A draw (three-round variant only) scores ½ for both.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from engine.model import AI_USER_ID
from engine.ratings.glicko2 import Glicko2Rating, RatingError, rate_match
from engine.ratings.standing import RatedMatch, RatingChange, Standing

GLOBAL_RATINGS = 0
"""The ratings key of matches outside any server: no server has id 0 (Discord ids are
snowflakes), so the global ratings sit beside each server's in the same tables."""


def ratings_key(guild_id: int | None) -> int:
    """Whose ratings a match of ``guild_id`` counts on: its server's, or the global ones."""
    return GLOBAL_RATINGS if guild_id is None else guild_id


class FinishedMatch(Protocol):
    """What rating needs of a finished match (the store's FinishedMatch has it): the
    ratings stay below the store, which imports them."""

    @property
    def match_id(self) -> int: ...
    @property
    def guild_id(self) -> int | None: ...
    @property
    def ai_level(self) -> str | None: ...
    @property
    def players(self) -> tuple[int, int]: ...
    @property
    def winner_seat(self) -> int | None: ...
    @property
    def finished_at(self) -> float: ...


def is_rated(result: FinishedMatch) -> bool:
    """Whether ``result`` changes ratings (see the module docstring)."""
    return (
        result.ai_level is None
        and AI_USER_ID not in result.players
        and result.players[0] != result.players[1]
    )


def seat_scores(result: FinishedMatch) -> tuple[float, float]:
    """What each seat scored: 1 for the winner, 0 for the loser, ½ each for a draw."""
    if result.winner_seat is None:
        return (0.5, 0.5)
    return (1.0, 0.0) if result.winner_seat == 0 else (0.0, 1.0)


def rate_finished_match(result: FinishedMatch, before: tuple[Standing, Standing]) -> RatedMatch:
    """Both seats' standings after ``result``, from their standings before it.

    Raises RatingError for a match that is not rated or standings of the wrong players.
    """
    if not is_rated(result):
        raise RatingError(f"match {result.match_id} is not rated: {result!r}")
    key = ratings_key(result.guild_id)
    for seat in (0, 1):
        player = (key, result.players[seat])
        if (before[seat].guild_id, before[seat].user_id) != player:
            raise RatingError(
                f"seat {seat} of match {result.match_id} is {player}: {before[seat]!r}"
            )
    scores = seat_scores(result)
    ratings = rate_match(before[0].rating, before[1].rating, scores[0])
    standings = tuple(_after(before[seat], ratings[seat], scores[seat], result) for seat in (0, 1))
    changes = tuple(
        RatingChange(
            match_id=result.match_id,
            guild_id=key,
            user_id=result.players[seat],
            seat=seat,
            score=scores[seat],
            before=before[seat].rating.rating,
            after=ratings[seat].rating,
        )
        for seat in (0, 1)
    )
    return RatedMatch((standings[0], standings[1]), (changes[0], changes[1]))


def _after(
    standing: Standing, new_rating: Glicko2Rating, score: float, result: FinishedMatch
) -> Standing:
    if score == 1.0:
        streak = standing.streak + 1 if standing.streak > 0 else 1
    elif score == 0.0:
        streak = standing.streak - 1 if standing.streak < 0 else -1
    else:
        streak = 0
    return replace(
        standing,
        games=standing.games + 1,
        wins=standing.wins + (score == 1.0),
        losses=standing.losses + (score == 0.0),
        draws=standing.draws + (score == 0.5),
        streak=streak,
        rating=new_rating,
        last_change=new_rating.rating - standing.rating.rating,
        last_match_id=result.match_id,
        updated_at=result.finished_at,
    )

"""Builders for the domain objects many tests need, each with ordinary defaults that a test
overrides by name: a match as the store holds it and its result, the views of a first deal,
a match played to its end and a review of it.

One place, so a new field of `MatchInfo` is given its default once, not in every test file.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.model import AI_USER_ID, ExpiryPolicy, FinishedMatch, MatchInfo, MatchStatus
from engine.review.judgement import MatchReview, StepJudgement, Verdict
from engine.review.steps import match_steps
from engine.rules import GameState, PlayerView, PublicView, Variant, new_game, public_view, view
from engine.rules.outcome import Termination
from engine.rules.record import MatchRecord

GUILD_ID = 1
CHANNEL_ID = 2


def match_info(
    match_id: int = 1,
    players: tuple[int, int] = (11, 12),
    status: MatchStatus = MatchStatus.PENDING,
    **changes: Any,
) -> MatchInfo:
    """A match between ``players`` in guild `GUILD_ID`, channel `CHANNEL_ID`: a one-minute
    turn, the standard variant, created at 0; ``changes`` set any other `MatchInfo` field.
    Against the AI (`AI_USER_ID` in ``players``) it plays at "normal" unless told."""
    if AI_USER_ID in players:
        changes.setdefault("ai_level", "normal")
    stored = MatchInfo(
        match_id=match_id,
        status=status,
        variant=Variant.STANDARD,
        players=players,
        guild_id=GUILD_ID,
        channel_id=CHANNEL_ID,
        turn_seconds=60.0,
        expiry_policy=ExpiryPolicy.AI,
        created_at=0.0,
    )
    return replace(stored, **changes)


def match_result(
    match_id: int = 1,
    players: tuple[int, int] = (11, 12),
    winner_seat: int | None = 0,
    **changes: Any,
) -> FinishedMatch:
    """The result of a match between ``players`` in guild `GUILD_ID` that seat
    ``winner_seat`` won by resignation (None: a draw) after one round, from 0 to 60 s;
    ``changes`` set any other `FinishedMatch` field."""
    result = FinishedMatch(
        match_id=match_id,
        guild_id=GUILD_ID,
        variant=Variant.STANDARD,
        players=players,
        ai_level=None,
        winner_seat=winner_seat,
        winner_id=None if winner_seat is None else players[winner_seat],
        reason=Termination.RESIGNATION,
        rounds=1,
        started_at=0.0,
        finished_at=60.0,
        record='{"format":1}',
    )
    return replace(result, **changes)


def first_deal_views(seed: int = 5) -> tuple[PlayerView, PlayerView]:
    """(the view of the player to decide, the other seat's view) at the first deal of the
    match dealt from ``seed``."""
    game = new_game(seed=seed)
    mover = game.current_player
    assert mover is not None
    return view(game, mover), view(game, 1 - mover)


def played_match(seed: int) -> tuple[MatchRecord, list[PublicView]]:
    """A random match to its end, and the public view the thread had after each decision
    (index 0: the first deal), taken as the match was played, not replayed."""
    game = GameState(seed=seed, first_player=seed % 2)
    rng = random.Random(seed)
    tables = [public_view(game)]
    while game.outcome is None:
        game.apply(rng.choice(game.legal_decisions()))
        tables.append(public_view(game))
    return MatchRecord.of(game), tables


def judged(record: MatchRecord, flagged: dict[int, Verdict]) -> MatchReview:
    """A review whose verdicts are ``flagged`` at the given steps and best elsewhere."""
    steps = []
    for step, _ in match_steps(record):
        verdict = flagged.get(step.index, Verdict.BEST)
        steps.append(
            StepJudgement(
                step.index,
                step.round_number,
                step.player,
                str(step.decision),
                0.6,
                0.3 if verdict.flagged else 0.6,
                "3ABC" if verdict.flagged else str(step.decision),
                0.6,
                verdict,
            )
        )
    return MatchReview(tuple(steps), iterations=40)

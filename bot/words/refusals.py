"""What a player reads when the service or the rules refuse something: short and plain.

The service's own messages quote ids (good for logs); these say the same to a person, in
their language.
"""

from __future__ import annotations

import math

from bot.words.i18n import text
from engine.clocks import BadTimeControl, BadVacation
from engine.rules.errors import IllegalDecision
from engine.service import DatabaseUnavailable, StorageFull
from engine.service.challenges.errors import (
    CannotChallengeSelf,
    CannotJoinOwnSeat,
    ChallengeCooldown,
    ChallengeExpired,
    ChallengeNotPending,
    NotReliableEnough,
    RematchAlreadyStarted,
    SeatAlreadyOpen,
    SeatClosed,
    SeatTaken,
    TooManyActiveMatches,
    TooManyNewMatches,
)
from engine.service.errors import InvalidRequest, ServiceClosed, ServiceError
from engine.service.matches.errors import (
    ClaimNotOffered,
    MatchNotActive,
    MatchNotFinished,
    MatchNotFound,
    NotYourMatch,
    NotYourTurn,
    StaleVersion,
)
from engine.service.matches.vacations import NoVacation


def refusal_text(lang: str, error: Exception, names: dict[int, str] | None = None) -> str:
    """A one-line explanation of a refusal, for an ephemeral reply."""
    names = names or {}
    if isinstance(error, DatabaseUnavailable):
        return database_text(lang, error)
    if isinstance(error, IllegalDecision):
        return text(lang, "refusal.illegal", reason=error.reason)
    if isinstance(error, NotYourTurn):
        waiting = names.get(error.waiting_for or -1)
        if waiting:
            return text(lang, "refusal.not_your_turn_named", name=waiting)
        return text(lang, "refusal.not_your_turn")
    if isinstance(error, SeatAlreadyOpen):
        return text(lang, "seats.already_open", channel=f"<#{error.channel_id}>")
    if isinstance(error, NotReliableEnough):
        # Below the minimum means a percent: a member not yet rated is let in.
        return text(
            lang, "time.refusal.not_reliable", minimum=error.minimum, percent=error.percent or 0
        )
    if isinstance(error, BadTimeControl):
        return text(lang, "time.refusal.bad_time", reason=str(error))
    if isinstance(error, BadVacation):
        return text(lang, "time.refusal.bad_vacation", reason=str(error))
    if isinstance(error, SeatClosed):
        key = "seats.seat_expired" if error.status == "expired" else "seats.seat_closed"
        return text(lang, key)
    simple = {
        CannotJoinOwnSeat: "seats.own_seat",
        SeatTaken: "seats.already_taken",
        NotYourMatch: "refusal.not_a_player",
        StaleVersion: "refusal.stale",
        CannotChallengeSelf: "refusal.yourself",
        ChallengeExpired: "refusal.challenge_expired",
        ChallengeNotPending: "refusal.challenge_answered",
        MatchNotActive: "refusal.not_active",
        MatchNotFound: "refusal.not_found",
        MatchNotFinished: "refusal.not_over",
        RematchAlreadyStarted: "refusal.rematch_started",
        ServiceClosed: "refusal.restarting",
        StorageFull: "refusal.disk_full",
        ClaimNotOffered: "time.refusal.claim_not_offered",
        NoVacation: "time.refusal.no_vacation",
    }
    for kind, key in simple.items():
        if isinstance(error, kind):
            return text(lang, key)
    if isinstance(error, TooManyActiveMatches):
        return text(lang, "refusal.too_many", limit=error.limit)
    if isinstance(error, ChallengeCooldown):
        if error.retry_at is None:
            return text(lang, "refusal.challenge_waiting")
        return text(lang, "refusal.challenge_cooldown", when=f"<t:{math.ceil(error.retry_at)}:R>")
    if isinstance(error, TooManyNewMatches):
        when = f"<t:{math.ceil(error.retry_at)}:R>"
        # Named when known: a rematch is started by the player in seat 0, maybe not the presser.
        name = names.get(error.user_id)
        if name:
            return text(lang, "refusal.too_many_new_named", name=name, limit=error.limit, when=when)
        return text(lang, "refusal.too_many_new", limit=error.limit, when=when)
    if isinstance(error, InvalidRequest | ServiceError):
        return text(lang, "refusal.invalid", reason=error.message)
    return text(lang, "refusal.wrong")


def database_text(lang: str, error: DatabaseUnavailable) -> str:
    """What a player is told when the database did not answer: that nothing changed, or,
    when a write's answer was lost, that nobody knows yet and the board is what counts."""
    return text(lang, "database.unconfirmed" if error.outcome_unknown else "database.not_answering")


REFUSED = (
    ServiceError,
    IllegalDecision,
    StorageFull,
    DatabaseUnavailable,
    BadTimeControl,
    BadVacation,
    NoVacation,
)
"""What an answer to a player turns into a refusal line (:func:`refusal_text`), not a bug."""

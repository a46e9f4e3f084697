"""The async match service the Discord layer talks to (it knows nothing of Discord).

Start here::

    service = MatchService(SqliteMatchStore(path), config, agent_factory=make_agent)
    # also clock=..., rng=... (tests inject both)
    service.subscribe(on_event)          # async def on_event(event: Event) -> None
    await service.start()                # migrate, rebuild open matches, re-arm timers
    challenge = await service.challenge(alice, bob, guild_id, channel_id)
    await service.accept(challenge.match_id, bob)
    seen = await service.view_for(challenge.match_id, alice)  # when it is her turn
    await service.submit(challenge.match_id, alice, seen.legal[0], seen.table.version)
    await service.close()
"""

from engine.service.clock import Clock, ManualClock, SystemClock
from engine.service.config import ServiceConfig
from engine.service.errors import (
    CannotChallengeSelf,
    ChallengeExpired,
    ChallengeNotPending,
    InvalidRequest,
    MatchNotActive,
    MatchNotFinished,
    MatchNotFound,
    NotYourMatch,
    NotYourTurn,
    ServiceClosed,
    ServiceError,
    StaleVersion,
    TooManyActiveMatches,
)
from engine.service.event_bus import Subscriber
from engine.service.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeIssued,
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchBroken,
    MatchEnded,
    MatchStarted,
    Reminder,
    RoundScored,
)
from engine.service.match_service import (
    AgentFactory,
    Challenge,
    MatchService,
    SubmitResult,
    random_agent_factory,
)
from engine.store.rows import (
    AI_USER_ID,
    ExpiryPolicy,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    UserSettings,
)

__all__ = [
    "AI_USER_ID",
    "AgentFactory",
    "CannotChallengeSelf",
    "Challenge",
    "ChallengeAccepted",
    "ChallengeCancelled",
    "ChallengeDeclined",
    "ChallengeExpired",
    "ChallengeIssued",
    "ChallengeNotPending",
    "ChoiceNeeded",
    "Clock",
    "DecisionApplied",
    "Event",
    "ExpiryPolicy",
    "FinishedMatch",
    "GuildSettings",
    "InvalidRequest",
    "ManualClock",
    "MatchBroken",
    "MatchEnded",
    "MatchInfo",
    "MatchNotActive",
    "MatchNotFinished",
    "MatchNotFound",
    "MatchService",
    "MatchStarted",
    "MatchStatus",
    "NotYourMatch",
    "NotYourTurn",
    "Reminder",
    "RoundScored",
    "ServiceClosed",
    "ServiceConfig",
    "ServiceError",
    "StaleVersion",
    "SubmitResult",
    "Subscriber",
    "SystemClock",
    "TooManyActiveMatches",
    "UserSettings",
    "random_agent_factory",
]

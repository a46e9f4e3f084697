"""The async match service the Discord layer talks to (it knows nothing of Discord).

Start here::

    service = MatchService(SqliteMatchStore(path), config, agent_factory=make_agent)
    # also clock=..., rng=... (tests inject both)
    service.subscribe(on_event)          # async def on_event(event: Event) -> None
    await service.start()                # migrate, rebuild open matches, re-arm timers
    challenge = await service.challenges.challenge(alice, bob, guild_id, channel_id)
    await service.challenges.accept(challenge.match_id, bob)
    seen = await service.queries.view_for(challenge.match_id, alice)  # when it is her turn
    await service.commands.submit(challenge.match_id, alice, seen.legal[0], seen.table.version)
    await service.close()
"""

from engine.model import (
    AI_USER_ID,
    OPEN_SEAT,
    ExpiryPolicy,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    Placement,
    SeasonLength,
    UserSettings,
)
from engine.service.announcing.event_bus import Subscriber
from engine.service.challenges.errors import (
    CannotChallengeSelf,
    CannotJoinOwnSeat,
    ChallengeExpired,
    ChallengeNotPending,
    RematchAlreadyStarted,
    SeatAlreadyOpen,
    SeatClosed,
    SeatTaken,
    TooManyActiveMatches,
)
from engine.service.challenges.seats import SeatCommands, SeatPage
from engine.service.challenges.service import Challenge, MatchChallenges, Rematch
from engine.service.clock import Clock, ManualClock, SystemClock
from engine.service.config import ServiceConfig
from engine.service.errors import InvalidRequest, ServiceClosed, ServiceError
from engine.service.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeIssued,
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchAbandoned,
    MatchBroken,
    MatchEnded,
    MatchStarted,
    NextTurn,
    Reminder,
    RoundScored,
)
from engine.service.match_service import MatchService
from engine.service.matches.abandonment import MatchAbandonment
from engine.service.matches.commands import MatchCommands
from engine.service.matches.errors import (
    HiddenFromViewer,
    MatchNotActive,
    MatchNotFinished,
    MatchNotFound,
    NotYourMatch,
    NotYourTurn,
    StaleVersion,
)
from engine.service.matches.placements import MatchPlacements
from engine.service.matches.progress import SubmitResult
from engine.service.matches.queries import MatchNow, MatchQueries
from engine.service.matches.turns import AgentFactory, random_agent_factory
from engine.service.reviews.errors import HintFailed, ReviewFailed, ReviewUnavailable
from engine.service.reviews.hints import MatchHints
from engine.service.reviews.service import MatchReviews, ReviewProgress
from engine.service.reviews.sight import Sight
from engine.service.seasons.errors import NoSeasonRunning, SeasonAlreadyRunning, SeasonNotFound
from engine.service.seasons.service import MatchSeasons
from engine.service.settings import MatchSettings
from engine.store.errors import DatabaseUnavailable, StorageFull, StoreError

__all__ = [
    "AI_USER_ID",
    "OPEN_SEAT",
    "AgentFactory",
    "CannotChallengeSelf",
    "CannotJoinOwnSeat",
    "Challenge",
    "ChallengeAccepted",
    "ChallengeCancelled",
    "ChallengeDeclined",
    "ChallengeExpired",
    "ChallengeIssued",
    "ChallengeNotPending",
    "ChoiceNeeded",
    "Clock",
    "DatabaseUnavailable",
    "DecisionApplied",
    "Event",
    "ExpiryPolicy",
    "FinishedMatch",
    "GuildSettings",
    "HiddenFromViewer",
    "HintFailed",
    "InvalidRequest",
    "ManualClock",
    "MatchAbandoned",
    "MatchAbandonment",
    "MatchBroken",
    "MatchChallenges",
    "MatchCommands",
    "MatchEnded",
    "MatchHints",
    "MatchInfo",
    "MatchNotActive",
    "MatchNotFinished",
    "MatchNotFound",
    "MatchNow",
    "MatchPlacements",
    "MatchQueries",
    "MatchReviews",
    "MatchSeasons",
    "MatchService",
    "MatchSettings",
    "MatchStarted",
    "MatchStatus",
    "NextTurn",
    "NoSeasonRunning",
    "NotYourMatch",
    "NotYourTurn",
    "Placement",
    "Rematch",
    "RematchAlreadyStarted",
    "Reminder",
    "ReviewFailed",
    "ReviewProgress",
    "ReviewUnavailable",
    "RoundScored",
    "SeasonAlreadyRunning",
    "SeasonLength",
    "SeasonNotFound",
    "SeatAlreadyOpen",
    "SeatClosed",
    "SeatCommands",
    "SeatPage",
    "SeatTaken",
    "ServiceClosed",
    "ServiceConfig",
    "ServiceError",
    "Sight",
    "StaleVersion",
    "StorageFull",
    "StoreError",
    "SubmitResult",
    "Subscriber",
    "SystemClock",
    "TooManyActiveMatches",
    "UserSettings",
    "random_agent_factory",
]

"""One shape for every feature (issue 38): every fact is an ``Event`` of the one union,
stored by the one codec; every event goes out on the one bus; only the scheduling frame
waits for time.

The checks read the service's source with ``ast``; each is also run on a few lines of the
code it replaced (a season's own listener list, a tournament's own subscribers, a feature's
own timer), so a check that would let those through fails here.
"""

from __future__ import annotations

import ast
import json
import typing
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import engine.service
from engine.model import SeasonLength, Tournament, TournamentGame, TournamentStatus
from engine.ratings import Glicko2Rating
from engine.rules.decisions import Competition, Gift
from engine.rules.notation import parse_move
from engine.rules.outcome import MatchOutcome, RoundResult, Termination
from engine.rules.state import Variant
from engine.seasons import Season, SeasonEnded, SeasonStanding
from engine.service.announcing.addresses import ANNOUNCED, address
from engine.service.announcing.event_codec import decode, encode
from engine.service.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeIssued,
    ChoiceNeeded,
    ClaimOffered,
    DecisionApplied,
    Event,
    MatchAbandoned,
    MatchBroken,
    MatchEnded,
    MatchResumed,
    MatchStarted,
    NextTurn,
    PlaceLost,
    PlayerWithdrawn,
    Reminder,
    RoundPaired,
    RoundScored,
    TournamentEnded,
    TournamentStarted,
    TurnClockChanged,
    TurnOverdue,
)
from engine.service.puzzles.events import DailyPuzzlePosted
from engine.tournaments import Format, Result, Standing

from .conftest import START

SERVICE = Path(engine.service.__file__).parent

# -- every kind of event ----------------------------------------------------------------------

KINDS = (
    # a challenge or an open seat, before its match
    "ChallengeIssued",
    "ChallengeAccepted",
    "ChallengeDeclined",
    "ChallengeCancelled",
    "ChallengeExpired",
    # a match
    "MatchStarted",
    "DecisionApplied",
    "ChoiceNeeded",
    "RoundScored",
    "Reminder",
    "TurnOverdue",
    "ClaimOffered",
    "TurnClockChanged",
    "MatchEnded",
    "MatchResumed",
    "MatchBroken",
    "MatchAbandoned",
    # a season
    "SeasonEnded",
    # a tournament
    "TournamentStarted",
    "RoundPaired",
    "PlayerWithdrawn",
    "TournamentEnded",
    # a server's daily puzzle
    "DailyPuzzlePosted",
)
"""Every kind the bus carries, by name: a kind added to (or taken from) the union must be
added here too, with an example below, so the codec and the outbox are checked for it."""

MATCH = 7
TOURNAMENT = Tournament(
    tournament_id=12,
    guild_id=1,
    channel_id=2,
    organiser_id=900,
    name="Autumn Cup",
    format=Format.SWISS,
    status=TournamentStatus.RUNNING,
    created_at=START,
    rounds=3,
    variant=Variant.THREE_ROUNDS,
    turn_seconds=300.0,
    max_players=8,
    starts_at=START + 3600,
    thread_id=55,
    message_id=66,
    started_at=START + 3600,
)
SEASON = Season(1, 3, START, START + 600, SeasonLength.MONTHLY, ended_at=START + 600)

EXAMPLES: tuple[Event, ...] = (
    ChallengeIssued(MATCH, 101, 202, 1, 2, Variant.STANDARD, START + 3600),
    ChallengeAccepted(MATCH, 101, 202),
    ChallengeDeclined(MATCH, 101, 202),
    ChallengeCancelled(MATCH, 101, 202),
    ChallengeExpired(MATCH, 101, 202),
    MatchStarted(MATCH, (101, 202), 1, Variant.STANDARD, None, 1, 2, START + 600, hints=True),
    DecisionApplied(
        MATCH,
        0,
        101,
        parse_move("3ABC", allow_pending=True),
        3,
        automatic=True,
        turn_deadline=START + 900,
        next=NextTurn(1, 202, round_ended=False, offer_open=True),
    ),
    ChoiceNeeded(MATCH, 1, 202, Competition(((0, 1), (2, 3))), 4),
    RoundScored(
        MATCH,
        RoundResult(
            round_number=1,
            starting_player=0,
            secrets=(2, 5),
            items=((1, 0, 2, 1, 0, 3, 1), (0, 2, 1, 1, 3, 0, 2)),
            favor_before=(None,) * 7,
            favor=(0, 1, 0, None, 1, 0, 1),
            geishas=(3, 3),
            charm=(8, 9),
        ),
        12,
        next_starter=1,
    ),
    Reminder(MATCH, 0, 101, START + 600, 4),
    TurnOverdue(MATCH, 0, 101, START + 900, 4),
    ClaimOffered(MATCH, 1, 202, 101, 4),
    TurnClockChanged(MATCH, 101, START + 3600, None, 4),
    MatchEnded(MATCH, (101, 202), MatchOutcome(0, Termination.CHARM, 2), 101, 30),
    MatchResumed(MATCH, 12),
    MatchBroken(MATCH, "decision 2 ('4AAAA') is not legal"),
    MatchAbandoned(MATCH, (101, 202), True, 1, 2, 9, PlaceLost.CHANNEL_DELETED, ai_level="easy"),
    SeasonEnded(
        SEASON,
        (SeasonStanding(101, Glicko2Rating(1650.5, 80.0, 0.06), 7, 5, 1, 1, 1),),
        77,
        Season(1, 4, START + 600, START + 1200, SeasonLength.MONTHLY),
    ),
    TournamentStarted(TOURNAMENT, (101, 102, 103)),
    RoundPaired(
        TOURNAMENT,
        1,
        (TournamentGame(1, 1, 101, 102, MATCH, Result.FIRST_WON), TournamentGame(1, 2, 103, None)),
    ),
    PlayerWithdrawn(TOURNAMENT, 103, removed_by=900),
    TournamentEnded(
        replace(TOURNAMENT, status=TournamentStatus.FINISHED, ended_at=START + 9000),
        (
            Standing(1, 101, Fraction(5, 2), Fraction(3), Fraction(7, 4), 2, 1, 0, 0),
            Standing(2, 103, Fraction(1), Fraction(2), Fraction(1, 2), 0, 0, 2, 1, withdrawn=True),
        ),
    ),
    DailyPuzzlePosted(1, 20_000, "builtin/3/14", 77),
)


def test_the_event_union_holds_exactly_the_listed_kinds() -> None:
    union = [kind.__name__ for kind in typing.get_args(Event)]
    assert sorted(union) == sorted(KINDS), "a kind was added or removed: update KINDS"
    assert len(set(union)) == len(union), "two kinds share a name: the codec tells them apart by it"
    assert sorted(type(event).__name__ for event in EXAMPLES) == sorted(KINDS)
    assert set(ANNOUNCED) <= set(typing.get_args(Event))


def test_every_kind_reads_back_from_the_outbox_as_it_was_written() -> None:
    for event in EXAMPLES:
        body = encode(event)
        match_id = getattr(event, "match_id", None)
        assert decode(match_id, body) == event, body
        assert "match_id" not in json.loads(body)  # a match's id is the outbox row's own


def test_the_outbox_keeps_the_announced_kinds_each_at_an_address_of_its_own() -> None:
    for event in EXAMPLES:
        where = address(event)
        if isinstance(event, ANNOUNCED):
            assert where is not None, f"{type(event).__name__} is announced but has no key"
        else:
            assert where is None, f"{type(event).__name__} is only published, yet has a key"
    addresses = [address(event) for event in EXAMPLES if isinstance(event, ANNOUNCED)]
    assert len(set(addresses)) == len(addresses)  # none would replace another's row


def test_an_offer_of_either_kind_reads_back() -> None:
    # Gift | Competition is decoded by notation: both must come back as what they were.
    for offer in (Gift((0, 1, 2)), Competition(((0, 1), (2, 3)))):
        event = ChoiceNeeded(MATCH, 1, 202, offer, 4)
        assert decode(MATCH, encode(event)) == event


# -- reading the service's source ---------------------------------------------------------------


def service_sources() -> dict[str, str]:
    """Every module of engine/service: path relative to it -> source."""
    return {
        path.relative_to(SERVICE).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(SERVICE.rglob("*.py"))
    }


def _dotted(node: ast.expr) -> str:
    """``self._ctx.bus`` for the expression it names; "" for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def _classes_and_functions(
    tree: ast.Module,
) -> Iterator[tuple[str | None, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with the class it is a method of (None at module level)."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in ast.walk(node):
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield node.name, item
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield None, node


# -- one bus ----------------------------------------------------------------------------------

EVENT_NAMES = frozenset(KINDS) | {"Event", "MatchEvent", "TournamentEvent"}

BUSES = frozenset(
    {"bus", "self.bus", "self._bus", "ctx.bus", "context.bus", "self._ctx.bus", "self.ctx.bus"}
)
"""How the service names its one bus."""
OUTBOXES = frozenset({"self.outbox", "ctx.outbox", "context.outbox", "self._ctx.outbox"})
"""The outbox publishes what is stored again, on the bus (``Outbox.publish``)."""
THE_BUS = "announcing/event_bus.py"
"""The one module that keeps subscribers and delivers to them."""
THE_OUTBOX = ("announcing/outbox.py", "Outbox")
COLLECTIONS = frozenset({"list", "set", "dict", "deque", "tuple", "Sequence", "MutableSequence"})


def _annotation(node: ast.expr | None) -> ast.expr | None:
    """An annotation as an expression (one written as a string is parsed)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return ast.parse(node.value, mode="eval").body
    return node


def _takes_an_event(node: ast.expr | None, aliases: set[str]) -> bool:
    """Whether the annotation names a callable handed an event (``Callable[[Event], ...]``,
    or an alias of one)."""
    node = _annotation(node)
    if node is None:
        return False
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id in aliases:
            return True
        if (
            isinstance(part, ast.Subscript)
            and _dotted(part.value).split(".")[-1] == "Callable"
            and isinstance(part.slice, ast.Tuple)
            and part.slice.elts
        ):
            arguments = part.slice.elts[0]
            named = {n.id for n in ast.walk(arguments) if isinstance(n, ast.Name)}
            if named & EVENT_NAMES:
                return True
    return False


def _listener_aliases(trees: dict[str, ast.Module]) -> set[str]:
    """Module-level names of callables handed an event (``SeasonListener = Callable[...]``)."""
    aliases: set[str] = set()
    while True:
        found = set(aliases)
        for tree in trees.values():
            for node in tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target, value = node.targets[0], node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    target, value = node.target, node.value
                else:
                    continue
                if isinstance(target, ast.Name) and _takes_an_event(value, found):
                    found.add(target.id)
        if found == aliases:
            return aliases
        aliases = found


def _holds_listeners(annotation: ast.expr | None, aliases: set[str]) -> bool:
    """Whether the annotation is a collection of callables handed an event."""
    annotation = _annotation(annotation)
    return (
        isinstance(annotation, ast.Subscript)
        and _dotted(annotation.value).split(".")[-1] in COLLECTIONS
        and _takes_an_event(annotation.slice, aliases)
    )


def _handed_to_the_bus(function: ast.AST, name: str) -> bool:
    """Whether every use of ``name`` in ``function`` hands it to the bus's ``subscribe``."""
    uses = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name]
    handed = [
        argument
        for call in ast.walk(function)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "subscribe"
        and _dotted(call.func.value) in BUSES
        for argument in call.args
        if isinstance(argument, ast.Name) and argument.id == name
    ]
    return len(handed) == len(uses)


def _subscribes_on_the_bus(function: ast.AST) -> bool:
    """Whether ``function`` calls the bus's ``subscribe`` (as a facade's ``subscribe`` does)."""
    return any(
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "subscribe"
        and _dotted(call.func.value) in BUSES
        for call in ast.walk(function)
    )


def publishing_outside_the_bus(sources: dict[str, str]) -> list[str]:
    """Where a module publishes an event other than on the one bus: a class (but the bus)
    keeping listeners of its own or taking one to keep, a ``publish`` of its own, or a
    ``.publish(`` on something other than the bus (or the outbox, which uses the bus)."""
    trees = {path: ast.parse(source, path) for path, source in sources.items()}
    aliases = _listener_aliases(trees)
    found: list[str] = []
    for path, tree in trees.items():
        for cls, function in _classes_and_functions(tree):
            where = f"{path}:{function.lineno} {cls or '<module>'}.{function.name}"
            if path == THE_BUS:
                continue
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.AnnAssign)
                    and _dotted(node.target).startswith("self.")
                    and _holds_listeners(node.annotation, aliases)
                ):
                    holder = f"{path}:{node.lineno} {cls or '<module>'}.{function.name}"
                    found.append(f"{holder} keeps listeners: {_dotted(node.target)}")
            arguments = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
            for argument in arguments:
                if _takes_an_event(argument.annotation, aliases) and not _handed_to_the_bus(
                    function, argument.arg
                ):
                    found.append(f"{where} takes a listener ({argument.arg}) to keep")
            if function.name == "subscribe" and not _subscribes_on_the_bus(function):
                found.append(f"{where} subscribes other than on the bus")
            if function.name in ("publish", "_publish") and (path, cls) != THE_OUTBOX:
                found.append(f"{where} publishes by itself")
        for cls_node in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            if path == THE_BUS:
                continue
            for item in cls_node.body:
                if isinstance(item, ast.AnnAssign) and _holds_listeners(item.annotation, aliases):
                    found.append(f"{path}:{item.lineno} {cls_node.name} keeps listeners")
        for call in ast.walk(tree):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "publish"
                and _dotted(call.func.value) not in BUSES | OUTBOXES
            ):
                receiver = _dotted(call.func.value) or ast.unparse(call.func.value)
                found.append(f"{path}:{call.lineno} publishes on {receiver}, not the bus")
    return found


def test_every_feature_publishes_on_the_one_bus() -> None:
    assert publishing_outside_the_bus(service_sources()) == []


OLD_SEASONS = """
from collections.abc import Awaitable, Callable

from engine.seasons import SeasonEnded

SeasonListener = Callable[[SeasonEnded], Awaitable[None]]


class MatchSeasons:
    def __init__(self) -> None:
        self._listeners: list[SeasonListener] = []

    def on_season_ended(self, listener: SeasonListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def _announce(self, ended: SeasonEnded) -> None:
        for listener in list(self._listeners):
            await listener(ended)
"""
"""The seasons' own listeners, as they were before issue 38."""

OLD_TOURNAMENTS = """
from collections.abc import Awaitable, Callable

TournamentSubscriber = Callable[[TournamentEvent], Awaitable[None]]


class TournamentService:
    def __init__(self, context) -> None:
        self._subscribers: list[TournamentSubscriber] = []
        context.bus.subscribe(self._on_match_event)

    def subscribe(self, callback: TournamentSubscriber) -> Callable[[], None]:
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    async def _publish(self, events: list[TournamentEvent]) -> None:
        for event in events:
            for subscriber in list(self._subscribers):
                await subscriber(event)
"""
"""The tournaments' own subscribers, as they were before issue 38."""

A_SIDE_CHANNEL = """
class Podiums:
    def __init__(self, hub) -> None:
        self._hub = hub

    def tell(self, ended) -> None:
        self._hub.publish(ended)
"""


def test_the_bus_check_finds_a_feature_keeping_its_own_listeners() -> None:
    found = publishing_outside_the_bus({"seasons/service.py": OLD_SEASONS})
    assert any("keeps listeners: self._listeners" in line for line in found), found
    assert any("MatchSeasons.on_season_ended takes a listener" in line for line in found), found

    found = publishing_outside_the_bus({"tournaments/service.py": OLD_TOURNAMENTS})
    assert any("keeps listeners: self._subscribers" in line for line in found), found
    assert any("TournamentService.subscribe subscribes other than" in line for line in found)
    assert any("TournamentService._publish publishes by itself" in line for line in found)

    found = publishing_outside_the_bus({"seasons/podiums.py": A_SIDE_CHANNEL})
    assert found == ["seasons/podiums.py:7 publishes on self._hub, not the bus"]


def test_the_bus_check_lets_the_service_hand_subscribers_to_the_bus() -> None:
    facade = """
class MatchService:
    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        return self._ctx.bus.subscribe(callback)
"""
    bus = """
Subscriber = Callable[[Event], Awaitable[None]]

class EventBus:
    def __init__(self) -> None:
        self._subscriptions: list[Subscriber] = []

    def subscribe(self, callback: Subscriber) -> None:
        self._subscriptions.append(callback)
"""
    sources = {"match_service.py": facade, "announcing/event_bus.py": bus}
    assert publishing_outside_the_bus(sources) == []
    # The same bus anywhere else is a second bus.
    assert publishing_outside_the_bus({"seasons/event_bus.py": bus}) != []


# -- one clock ----------------------------------------------------------------------------------

SCHEDULING = "scheduling/"
"""The frame that waits for time (the alarm clock, match deadlines, pauses)."""
THE_CLOCK = "clock.py"
"""The service clock itself: what the alarm clock sleeps on."""
TIMER_METHODS = frozenset({"sleep_until", "call_later", "call_at"})
SLEEPS = frozenset({"asyncio.sleep", "sleep", "time.sleep"})
TIMERS = frozenset({"threading.Timer", "Timer"})


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def timers_outside_scheduling(sources: dict[str, str]) -> list[str]:
    """Where a module outside the scheduling frame waits for time by itself: the clock's
    ``sleep_until``, ``asyncio.sleep`` (but ``sleep(0)``, a yield), the loop's
    ``call_later``/``call_at``, or a ``threading.Timer``."""
    found: list[str] = []
    for path, source in sources.items():
        if path.startswith(SCHEDULING) or path == THE_CLOCK:
            continue
        for call in ast.walk(ast.parse(source, path)):
            if not isinstance(call, ast.Call):
                continue
            name = _dotted(call.func)
            sleeps = name in SLEEPS and not (len(call.args) == 1 and _is_zero(call.args[0]))
            if name.split(".")[-1] in TIMER_METHODS or sleeps or name in TIMERS:
                found.append(f"{path}:{call.lineno} {ast.unparse(call)}")
    return sorted(found, key=_place)


def _place(line: str) -> tuple[str, int]:
    path, lineno = line.split(" ", 1)[0].split(":")
    return path, int(lineno)


def test_only_the_scheduling_frame_waits_for_time() -> None:
    assert timers_outside_scheduling(service_sources()) == []


def test_the_timer_check_finds_a_feature_waiting_by_itself() -> None:
    feature = """
import asyncio
import threading


class Feature:
    async def _run(self) -> None:
        await self._ctx.clock.sleep_until(self._armed)
        await asyncio.sleep(5.0)
        await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        loop.call_later(1.0, self._tick)
        loop.call_at(loop.time() + 1.0, self._tick)
        loop.call_soon(self._tick)
        threading.Timer(1.0, self._tick).start()
"""
    found = timers_outside_scheduling({"seasons/service.py": feature})
    assert [line.split(" ", 1)[0] for line in found] == [
        "seasons/service.py:8",
        "seasons/service.py:9",
        "seasons/service.py:12",
        "seasons/service.py:13",
        "seasons/service.py:15",
    ]
    assert timers_outside_scheduling({"scheduling/alarm_clock.py": feature}) == []

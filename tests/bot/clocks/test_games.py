"""`/hanamikoji games`: a member's matches under way, theirs to play first, each with its
thread, opponent, pace and time left, in both languages."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, cast

import pytest

from bot.clocks.commands import clock_commands
from bot.clocks.deps import ClocksDeps
from bot.clocks.words import games_text, time_left_text
from bot.words.i18n import text
from engine.clocks import Pace
from engine.model import MatchInfo, MatchStatus, Placement
from tests.bot.fakes import FakeInteraction, FakeNames
from tests.builders import match_info

ME, ANA, BEN, CLEO = 11, 21, 22, 23
DAY = 86400.0


def seeded() -> list[MatchInfo]:
    """Four matches as ``games_of`` orders them: mine to play first, then by deadline."""
    active = MatchStatus.ACTIVE
    return [
        match_info(
            3,
            (ME, ANA),
            active,
            pace=Pace.CLOCK,
            turn_seconds=300.0,
            increment_seconds=5.0,
            to_move=ME,
            turn_deadline=1_000_200.0,
            placement=Placement(thread_id=903),
        ),
        match_info(
            4,
            (BEN, ME),
            active,
            pace=Pace.DAYS,
            turn_seconds=2 * DAY,
            to_move=ME,
            overdue_since=900_000.0,
            turn_deadline=1_043_200.0,
        ),
        match_info(
            5,
            (ME, CLEO),
            active,
            pace=Pace.DAYS,
            turn_seconds=DAY,
            to_move=CLEO,
            overdue_since=800_000.0,
            turn_deadline=None,
            placement=Placement(thread_id=905),
        ),
        match_info(
            6,
            (ME, BEN),
            active,
            pace=Pace.DAYS,
            turn_seconds=3 * DAY,
            to_move=BEN,
            paused_until=2_000_000.0,
            turn_deadline=2_259_200.0,
        ),
    ]


OPPONENTS = {3: "ana", 4: "ben", 5: "cleo", 6: "ben"}


def test_my_turn_comes_first_with_each_thread_pace_and_time_left():
    lines = games_text("en", ME, seeded(), OPPONENTS).splitlines()
    assert lines[0] == "**Your turn (2)**"
    assert lines[1] == "`#3` <#903> vs **ana** · clock 5+5 · time runs out <t:1000200:R>"
    assert lines[2].startswith("`#4` <#2> vs **ben** · 2 days a move · your days ran out")
    assert "<t:1043200:R>" in lines[2]
    assert lines[3] == ""
    assert lines[4] == "**Your opponent's turn (2)**"
    assert lines[5] == (
        "`#5` <#905> vs **cleo** · 1 day a move · their days ran out: you may claim the win "
        "now, in its thread"
    )
    assert lines[6] == "`#6` <#2> vs **ben** · 3 days a move · on vacation until <t:2000000:D>"


def test_the_order_is_the_services():
    # Within each heading the matches keep games_of's order (soonest deadline first).
    games = seeded()
    shown = games_text("en", ME, [games[1], games[0], *games[2:]], OPPONENTS)
    assert shown.index("`#4`") < shown.index("`#3`") < shown.index("`#5`") < shown.index("`#6`")


def test_a_timer_per_turn_reads_as_its_length_a_move_and_the_ai_thinking_has_no_time():
    per_turn = match_info(7, (ME, 0), MatchStatus.ACTIVE, turn_seconds=900.0, to_move=0)
    assert games_text("en", ME, [per_turn], {7: "AI (normal)"}) == (
        "**Your opponent's turn (1)**\n`#7` <#2> vs **AI (normal)** · 15 minutes a move"
    )
    assert time_left_text("en", per_turn, ME) is None


def test_a_claim_still_to_come_reads_from_both_sides():
    overdue = seeded()[1]
    assert time_left_text("en", overdue, ME) == (
        "your days ran out: move before your opponent may claim the win <t:1043200:R>"
    )
    assert time_left_text("en", overdue, BEN) == (
        "their days ran out: you may claim the win <t:1043200:R>"
    )
    offered = seeded()[2]
    assert time_left_text("en", offered, CLEO) == (
        "your days ran out: your opponent may now claim the win"
    )


def test_no_match_says_how_to_start_one():
    assert games_text("en", ME, [], {}) == text("en", "clocks.games_none")
    assert "/hanamikoji retar" in games_text("es", ME, [], {})


def test_spanish_reads_every_line():
    shown = games_text("es", ME, seeded(), OPPONENTS)
    assert "**Tu turno (2)**" in shown and "**Turno de tu oponente (2)**" in shown
    assert "reloj 5+5" in shown and "2 días por jugada" in shown
    assert "de vacaciones hasta el <t:2000000:D>" in shown


def test_a_long_list_is_counted_past_twenty():
    many = [replace(seeded()[0], match_id=n) for n in range(1, 26)]
    shown = games_text("en", ME, many, {})
    assert shown.count("\n`#") == 20 and shown.endswith("…and 5 more")


@dataclass
class FakeGames:
    games: list[MatchInfo]
    asked: list[tuple[int, int]] = field(default_factory=list)

    async def games_of(self, guild_id: int, user_id: int) -> list[MatchInfo]:
        self.asked.append((guild_id, user_id))
        return self.games


def command(deps: ClocksDeps, name: str) -> Any:
    return next(c for c in clock_commands(deps) if c.name == name)


@dataclass
class Followup:
    """Followups with or without content (an embed alone)."""

    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


def asked_by(user_id: int, **fields: Any) -> FakeInteraction:
    asking = FakeInteraction.by(user_id, **fields)
    asking.followup = cast(Any, Followup())
    return asking


def answer(asking: FakeInteraction) -> dict[str, Any]:
    """The private answer the member read, after the "thinking…"."""
    assert asking.log[0] == "defer", "thinking first"
    sent = asking.followup.sent[-1]
    assert sent["ephemeral"] is True
    return sent


@pytest.mark.parametrize("games", [[], seeded()])
async def test_the_command_answers_privately_in_one_read(games):
    queries = FakeGames(games)
    deps = ClocksDeps(cast(Any, queries), cast(Any, None), cast(Any, FakeNames(("me", "ana"))))
    asking = asked_by(ME)
    await command(deps, "games").callback(asking)
    assert queries.asked == [(1, ME)]
    embed = answer(asking)["embed"]
    assert embed.title == "Your matches in this server"
    if games:
        assert "`#3` <#903> vs **ana**" in embed.description
    else:
        assert embed.description == text("en", "clocks.games_none")


def test_an_overdue_turn_against_the_ai_says_the_ai_waits():
    against_ai = match_info(
        9,
        (ME, 0),
        MatchStatus.ACTIVE,
        pace=Pace.DAYS,
        turn_seconds=DAY,
        to_move=ME,
        overdue_since=1_000_000.0,
        turn_deadline=None,
        ai_level="normal",
    )
    assert time_left_text("en", against_ai, ME) == (
        "your days ran out: the AI waits for you (it never claims a win)"
    )

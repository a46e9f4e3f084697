"""The `time` and `min_reliability` options: the choices every command offers read in each
language within Discord's limits, their values are time control codes, and the whole
`/hanamikoji` group still fits Discord's 8000 characters."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import pytest
from discord import app_commands

from bot.challenge.commands import challenge_commands
from bot.discord_plumbing.command_choices import (
    PER_TURN_TIME,
    SERVER_DEFAULT_TIME,
    SETTINGS_TIME_CHOICES,
    TIME_CHOICES,
    chosen_time,
)
from bot.settings.commands import settings_commands
from bot.tournaments.commands import tournament_group
from bot.words.i18n import catalogues, text
from engine.clocks import CLOCK_PRESETS, DAYS_CHOICES, BadTimeControl, Pace, TimeControl
from tests.bot.whole_group import whole_group_payload
from tests.discord_emulator.application_commands import MAX_COMMAND_SIZE, command_size

SENTINELS = {SERVER_DEFAULT_TIME, PER_TURN_TIME}


def _key(choice: app_commands.Choice[Any]) -> str:
    """The catalogue key of a choice's name (discord.py keeps its ``locale_str`` aside)."""
    return str(choice._locale_name.extras["key"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("choices", [TIME_CHOICES, SETTINGS_TIME_CHOICES])
def test_the_choices_fit_discord_in_every_language(choices):
    assert len(choices) <= 25
    for choice in choices:
        key = _key(choice)
        for lang in catalogues():
            assert 1 <= len(text(lang, key)) <= 100, (lang, key)
        assert len(choice.value) <= 100


@pytest.mark.parametrize("choices", [TIME_CHOICES, SETTINGS_TIME_CHOICES])
def test_every_value_is_a_code_and_every_preset_is_offered(choices):
    codes = [c.value for c in choices if c.value not in SENTINELS]
    controls = [TimeControl.parse(code) for code in codes]
    assert [c.code for c in controls] == codes, "each value is the code it parses to"
    assert {(c.seconds / 60, c.increment) for c in controls if c.pace is Pace.CLOCK} == {
        (float(m), float(s)) for m, s in CLOCK_PRESETS
    }
    assert [c.day_count for c in controls if c.pace is Pace.DAYS] == list(DAYS_CHOICES)
    assert len(choices) == len(codes) + 1, "one way to ask for a timer per turn"


def test_the_default_asks_for_nothing_and_a_code_for_its_time_control():
    assert chosen_time(None) is None
    assert chosen_time(TIME_CHOICES[0]) is None and chosen_time(SETTINGS_TIME_CHOICES[0]) is None
    assert chosen_time(app_commands.Choice(name="x", value="clock:300+5")) == TimeControl.clock(
        5, 5
    )
    with pytest.raises(BadTimeControl):
        chosen_time(app_commands.Choice(name="x", value="clock:5"))


def test_the_choices_read_as_the_brief_says():
    assert [text("en", _key(c)) for c in TIME_CHOICES][:2] == [
        "Turn timer (server default)",
        "Clock 3+2",
    ]
    assert text("es", _key(TIME_CHOICES[-1])) == "3 días por jugada"


def _options(command: Any) -> dict[str, app_commands.Parameter]:
    return {p.name: p for p in command.parameters}


def test_each_way_of_starting_a_match_takes_a_time_and_seats_a_reliability():
    deps = MagicMock()
    commands = {c.name: c for c in challenge_commands(deps, ("easy", "normal"))}
    for name in ("challenge", "open", "ai"):
        time = _options(commands[name])["time"]
        assert not time.required and [c.value for c in time.choices] == [
            c.value for c in TIME_CHOICES
        ]
    reliability = _options(commands["open"])["min_reliability"]
    assert (reliability.min_value, reliability.max_value, reliability.required) == (0, 100, False)
    create = tournament_group(deps).get_command("create")
    assert create is not None
    assert {"time", "min_reliability"} <= set(_options(create))
    settings = next(c for c in settings_commands(deps) if c.name == "settings")
    vacation_days = _options(settings)["vacation_days"]
    assert (vacation_days.min_value, vacation_days.max_value) == (0, 366)
    assert _options(settings)["time"].choices[0].value == PER_TURN_TIME


async def test_the_whole_group_fits_discords_limits():
    payload = await whole_group_payload()
    assert len(payload["options"]) <= 25
    assert command_size(payload) <= MAX_COMMAND_SIZE

"""`/hanamikoji settings`: a server's default time (back to a timer per turn, too) and its
vacation days a year, saved and shown in the summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from discord import app_commands

from bot.discord_plumbing.command_choices import SETTINGS_TIME_CHOICES, TIMER_CHOICES
from bot.settings.commands import settings_commands
from bot.settings.deps import SettingsDeps
from bot.settings.words import settings_lines
from engine.model import GuildSettings
from engine.service import MatchSettings
from engine.service.config import ServiceConfig
from tests.bot.fakes import FakeInteraction

GUILD = 1


@dataclass
class SettingsStore:
    """The two reads and writes of a server's settings that `MatchSettings` makes."""

    saved: dict[int, GuildSettings] = field(default_factory=dict)

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        return self.saved.get(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        self.saved[settings.guild_id] = settings


@dataclass
class Followup:
    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


def service(store: SettingsStore) -> MatchSettings:
    return MatchSettings(cast(Any, store), ServiceConfig())


def choice(value: str) -> app_commands.Choice[str]:
    return next(c for c in SETTINGS_TIME_CHOICES if c.value == value)


async def run_settings(store: SettingsStore, lang: str = "en-US", **options: Any) -> str:
    deps = SettingsDeps(service(store), cast(Any, None), cast(Any, None), cast(Any, None))
    command = next(c for c in settings_commands(deps) if c.name == "settings")
    asking = FakeInteraction.by(5, locale=lang)
    asking.followup = cast(Any, Followup())
    await command.callback(asking, **options)
    sent = asking.followup.sent[-1]
    assert sent["ephemeral"] is True
    return str(sent["embed"].description)


async def test_a_clock_becomes_the_default_and_the_summary_says_so():
    store = SettingsStore()
    shown = await run_settings(store, time=choice("clock:300+5"), vacation_days=20)
    assert store.saved[GUILD].time_control == "clock:300+5"
    assert store.saved[GUILD].vacation_days == 20
    assert "Default time: **clock 5+5**" in shown
    assert "Vacation days a year: **20**" in shown


@pytest.mark.parametrize(
    "options",
    [{"time": choice("turn")}, {"turn_timer": TIMER_CHOICES[0]}],
    ids=["turn timer chosen", "only a turn timer chosen"],
)
async def test_a_timer_per_turn_is_the_way_back(options):
    store = SettingsStore({GUILD: GuildSettings(GUILD, time_control="days:2", vacation_days=3)})
    shown = await run_settings(store, **options)
    assert store.saved[GUILD].time_control is None
    assert store.saved[GUILD].vacation_days == 3, "left as it was"
    assert "Default time: **a timer per turn**" in shown


async def test_nothing_chosen_changes_nothing_and_shows_the_defaults_in_spanish():
    store = SettingsStore({GUILD: GuildSettings(GUILD, time_control="days:2")})
    shown = await run_settings(store, lang="es-ES")
    assert store.saved[GUILD].time_control == "days:2"
    assert "Tiempo por defecto: **2 días por jugada**" in shown
    assert "Días de vacaciones al año: **14**" in shown


def test_the_summary_of_a_server_that_chose_nothing():
    lines = settings_lines(service(SettingsStore()), "en", GuildSettings(GUILD), None)
    assert "Default time: **a timer per turn**" in lines
    assert "Vacation days a year: **14**" in lines

"""Whole matches through the local Discord emulator, with the bot started as production
starts it except for the two Discord URLs, the database file and no AI pause."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.client import HanamikojiBot, build_service
from bot.config import AI_FIELDS, BotConfig, load_config
from bot.operations.metrics import BotMetrics
from engine.service.clock import Clock
from tests.discord_emulator.clients import RunningClient, start_client
from tests.discord_emulator.fixtures import emulator  # noqa: F401
from tests.discord_emulator.server import DiscordEmulator


def toml_value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def e2e_config(
    running: DiscordEmulator,
    database: Path,
    database_settings: dict[str, object] | None = None,
    metrics_settings: dict[str, object] | None = None,
    **matches: object,
) -> BotConfig:
    """The settings file the bot is started with; ``matches`` are ``[matches]`` keys, but
    for the search budgets (``hint_iterations``, ``review_iterations``), which go to ``[ai]``;
    ``database_settings`` more ``[database]`` keys (its timeouts), ``metrics_settings``
    ``[metrics]`` keys (none: metrics off)."""
    matches = {"ai_move_delay_seconds": 0, **matches}
    ai = {key: matches.pop(key) for key in AI_FIELDS if key in matches}
    lines = [
        "[discord]",
        f'token = "{running.bot_token}"',
        f'api_base = "{running.api_base}"',
        f'gateway_url = "{running.gateway_url}"',
        f"dev_guild_id = {running.guild_id}",
        "[database]",
        f'path = "{database}"',
        *(f"{key} = {toml_value(value)}" for key, value in (database_settings or {}).items()),
        "[matches]",
        *(f"{key} = {toml_value(value)}" for key, value in matches.items()),
        "[ai]",
        *(f"{key} = {toml_value(value)}" for key, value in ai.items()),
    ]
    if metrics_settings is not None:
        lines += ["[metrics]"]
        lines += [f"{key} = {toml_value(value)}" for key, value in metrics_settings.items()]
    path = database.with_suffix(".toml")
    path.write_text("\n".join(lines) + "\n")
    return load_config(path, environ={})


StartBot = Callable[..., Awaitable[HanamikojiBot]]


@pytest.fixture(autouse=True)
def global_429s_fail(emulator: DiscordEmulator) -> None:  # noqa: F811
    """The bot paces itself under Discord's global limit: a global 429 fails the test."""
    emulator.rate_limits.settings.global_429_is_failure = True


PATIENT_SECONDS = 600.0
"""A wait for a held-back answer (and an emulator deadline) no busy machine reaches."""


@pytest.fixture
def patient_answers(emulator: DiscordEmulator, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A press's answer is always its first response (never deferred by the 1.5 s timer),
    for tests that record which callbacks were sent: what they see then never depends on
    how fast the machine is."""
    monkeypatch.setattr(
        "bot.discord_plumbing.first_response.PRIVATE_ANSWER_WAIT_SECONDS", PATIENT_SECONDS
    )
    emulator.response_deadline = PATIENT_SECONDS


@pytest.fixture
async def start_bot(emulator: DiscordEmulator, tmp_path: Path) -> AsyncIterator[StartBot]:  # noqa: F811
    """Start (or restart) the bot on one database file; every bot is stopped at the end."""
    running: list[RunningClient] = []

    async def start(
        clock: Clock | None = None,
        database_settings: dict[str, object] | None = None,
        rng: random.Random | None = None,
        metrics_settings: dict[str, object] | None = None,
        **matches: object,
    ) -> HanamikojiBot:
        database = tmp_path / "matches.sqlite3"
        config = e2e_config(emulator, database, database_settings, metrics_settings, **matches)
        metrics = BotMetrics() if config.metrics.enabled else None
        service = build_service(config, clock, rng, metrics)
        client = await start_client(emulator, HanamikojiBot(config, service, metrics))
        running.append(client)
        assert isinstance(client.client, HanamikojiBot)
        return client.client

    yield start
    for client in running:
        if not client.client.is_closed():
            await client.stop()


@pytest.fixture
async def bot(start_bot: StartBot) -> HanamikojiBot:
    return await start_bot()

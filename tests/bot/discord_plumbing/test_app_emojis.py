"""The bot's emojis are uploaded once: what the application has is reused by name, only
what is missing is uploaded, and whatever Discord answers the cards still show (as
letters, the log saying why)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.discord_plumbing.app_emojis import AppEmojis, button_emoji, emoji_name
from bot.pictures.emoji_images import emoji_images
from bot.words.card_faces import LETTERS, card_key


def refused(status: int, message: str | dict[str, Any]) -> discord.HTTPException:
    """What discord.py raises when Discord answers ``status``."""
    response: Any = type("Response", (), {"status": status, "reason": "refused"})()
    return discord.HTTPException(response, message)


@pytest.fixture
def no_waiting(monkeypatch):
    """A process that waits for another's uploads looks again at once."""
    monkeypatch.setattr("bot.discord_plumbing.app_emojis.WAIT_SECONDS", 0)
    monkeypatch.setattr("bot.discord_plumbing.app_emojis.SLOW_WAIT_SECONDS", 0)


@dataclass
class FakeEmoji:
    name: str
    id: int


class FakeApplication:
    """The two calls the installer makes, on a store of emojis by name."""

    def __init__(self, have: dict[str, int] | None = None, refuse: bool = False) -> None:
        self.have = dict(have or {})
        self.created: list[str] = []
        self.refuse = refuse

    async def fetch_application_emojis(self) -> list[FakeEmoji]:
        if self.refuse:
            raise refused(500, "Discord is down")
        return [FakeEmoji(name, emoji_id) for name, emoji_id in self.have.items()]

    async def create_application_emoji(self, *, name: str, image: bytes) -> FakeEmoji:
        self.have[name] = 1000 + len(self.have)
        self.created.append(name)
        return FakeEmoji(name, self.have[name])


async def test_the_first_start_uploads_every_emoji_and_a_restart_none():
    application = FakeApplication()
    first = AppEmojis()
    await first.install(application)  # type: ignore[arg-type]
    assert len(application.created) == len(emoji_images())
    again = AppEmojis()
    await again.install(application)  # type: ignore[arg-type]
    assert len(application.created) == len(emoji_images())  # nothing uploaded twice
    assert again.faces == first.faces
    name, emoji_id = again.faces.emojis[card_key(4)]
    assert again.faces.card(4) == f"<:{name}:{emoji_id}> **E**"


async def test_only_the_missing_emojis_are_uploaded():
    images = emoji_images()
    kept = {emoji_name(key, image): 7 for key, image in list(images.items())[:3]}
    application = FakeApplication(kept)
    emojis = AppEmojis()
    await emojis.install(application)  # type: ignore[arg-type]
    assert len(application.created) == len(images) - 3
    assert not set(application.created) & set(kept)


async def test_when_discord_refuses_the_cards_are_letters_and_the_log_says_so(caplog):
    emojis = AppEmojis()
    with caplog.at_level(logging.WARNING):
        await emojis.install(FakeApplication(refuse=True))  # type: ignore[arg-type]
    assert emojis.faces == LETTERS
    assert LETTERS.card(4) == "**E**"
    assert button_emoji(emojis.faces, card_key(4)) is None
    assert "cards are shown as letters" in caplog.text


@pytest.mark.parametrize("key", ["card_a", "action_competition"])
def test_emoji_names_are_what_discord_allows(key):
    name = emoji_name(key, emoji_images()[key])
    assert 2 <= len(name) <= 32 and name.replace("_", "").isalnum()


class RacedApplication(FakeApplication):
    """Another process uploads each emoji between this one's list and its upload."""

    async def create_application_emoji(self, *, name: str, image: bytes) -> FakeEmoji:
        self.have[name] = 7000 + len(self.have)  # the other process's upload
        raise refused(400, {"code": 50035, "message": "name taken"})


async def test_two_processes_starting_together_end_with_the_same_emojis():
    application = RacedApplication()
    emojis = AppEmojis()
    await emojis.install(application)  # type: ignore[arg-type]
    assert emojis.faces != LETTERS
    assert {emoji_id for _, emoji_id in emojis.faces.emojis.values()} == set(
        application.have.values()
    )


async def test_a_process_that_does_not_upload_waits_for_the_one_that_does(no_waiting):
    application = FakeApplication()
    reader = AppEmojis()
    await reader.install(application, upload=False)  # type: ignore[arg-type]
    assert reader.faces == LETTERS and application.created == []  # nothing uploaded here
    uploader = AppEmojis()
    await uploader.install(application)  # type: ignore[arg-type]
    assert reader._work is not None
    await reader._work  # it looks again, and finds them
    assert reader.faces == uploader.faces


class UnreadableOnce(FakeApplication):
    """The first list fails (Discord down for a moment), the later ones answer."""

    def __init__(self) -> None:
        super().__init__()
        self.lists = 0

    async def fetch_application_emojis(self) -> list[FakeEmoji]:
        self.lists += 1
        if self.lists == 1:
            raise refused(503, "Service Unavailable")
        return await super().fetch_application_emojis()


async def test_a_reader_whose_first_look_fails_keeps_looking(no_waiting):
    application = UnreadableOnce()
    reader = AppEmojis()
    await reader.install(application, upload=False)  # type: ignore[arg-type]
    await AppEmojis().install(application)  # type: ignore[arg-type]
    assert reader._work is not None
    await reader._work
    assert reader.faces != LETTERS


class SlowApplication(FakeApplication):
    """Discord makes the bot wait out a long rate limit on the emoji routes."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def fetch_application_emojis(self) -> list[FakeEmoji]:
        await self.go.wait()
        return await super().fetch_application_emojis()


async def test_a_slow_discord_does_not_hold_the_start_up(monkeypatch):
    monkeypatch.setattr("bot.discord_plumbing.app_emojis.INSTALL_SECONDS", 0)
    application = SlowApplication()
    emojis = AppEmojis()
    await emojis.install(application)  # type: ignore[arg-type]
    assert emojis.faces == LETTERS  # the bot starts with letters
    application.go.set()
    assert emojis._work is not None
    await emojis._work  # the upload finishes in the background
    assert emojis.faces != LETTERS

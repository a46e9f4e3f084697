"""Players' names: per server (a nickname never leaves its server), looked up once when
unknown, and markdown-safe wherever Discord renders text."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.words.player_names import PlayerNames, markdown_safe, needed_no_escaping, one_line
from engine.model import AI_USER_ID

ANA = 101
SERVER_A, SERVER_B = 1, 2

_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")


def as_read(shown: str) -> str:
    """What a Discord reader sees: escaped characters as themselves."""
    return _ESCAPED.sub(r"\1", shown).replace("@\u200b", "@")


def as_parsed(shown: str) -> str:
    """What Discord's parser meets: an escaped character starts no markup."""
    return _ESCAPED.sub("\x00", shown)


@pytest.mark.parametrize(
    "name",
    [
        "```@everyone",
        "[x](https://e.vil)",
        "https://e.vil",
        "<@123456789012345678>",
        "@here",
        "# header",
        "> quote",
        "||spoiler||",
        "**bold** _it_ ~~s~~",
        "<t:0:R>",
        "a\\",
        "- item",
        "1. first",
        "-# small",
    ],
)
def test_a_markdown_name_reads_as_written_and_makes_no_markup(name):
    shown = markdown_safe(name)
    assert as_read(shown) == name
    parsed = as_parsed(shown)
    for markup in ("](", "://", "```", "||", "**", "~~", "<@", "<t:", "@everyone", "@here"):
        assert markup not in parsed, (name, shown)
    assert not parsed.startswith(("#", ">", "-"))


@given(st.text(st.characters(blacklist_characters="\u200b"), max_size=40))
def test_any_name_reads_as_written_on_one_line(name):
    shown = markdown_safe(name)
    assert "\n" not in shown and "\r" not in shown
    assert as_read(shown) == one_line(name)


def test_two_names_cannot_make_a_link_between_them():
    first, second = markdown_safe("[x"), markdown_safe("](https://e.vil)")
    assert "](" not in as_parsed(f"{first} vs {second}")


def test_a_plain_name_is_unchanged_and_may_go_in_a_code_block():
    assert markdown_safe("ana") == "ana"
    assert needed_no_escaping(markdown_safe("ana"))
    assert not needed_no_escaping(markdown_safe("a`b"))
    assert not needed_no_escaping(markdown_safe("@here"))


# -- per server ---------------------------------------------------------------------------


def member(guild_id: int, nick: str | None, global_name: str = "Ana") -> Any:
    return SimpleNamespace(
        id=ANA,
        guild=SimpleNamespace(id=guild_id),
        display_name=nick or global_name,
        global_name=global_name,
        name="ana",
    )


def http_error(status: int, code: int = 0, message: str = "") -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=message)
    error = discord.NotFound if status == 404 else discord.DiscordServerError
    return error(response, {"code": code, "message": message})


class FakeGuild:
    def __init__(
        self,
        guild_id: int,
        nick: str | None,
        *,
        present: bool = True,
        failures: tuple[Exception, ...] = (),
    ) -> None:
        self.id, self.nick, self.present = guild_id, nick, present
        self.failures = list(failures)  # raised by the first fetches, in order
        self.fetched = 0

    def get_member(self, user_id: int) -> None:
        return None  # no members intent: the cache holds nobody

    async def fetch_member(self, user_id: int) -> Any:
        self.fetched += 1
        if self.failures:
            raise self.failures.pop(0)
        if not self.present:
            raise discord.NotFound(
                SimpleNamespace(status=404, reason="Not Found"),
                {"code": 10007, "message": "Unknown Member"},
            )
        return member(self.id, self.nick)


class FakeHttp:
    """``GET /guilds/{id}/members/{user}`` for a server the client has not cached."""

    def __init__(self, guilds: dict[int, FakeGuild]) -> None:
        self.guilds = guilds

    async def get_member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        guild = self.guilds[guild_id]
        await guild.fetch_member(user_id)  # counts, fails and refuses as the guild does
        user = {"id": str(user_id), "username": "ana", "global_name": "Ana"}
        return {"nick": guild.nick, "user": user}


class FakeClient:
    def __init__(self, *guilds: FakeGuild) -> None:
        self.guilds = {g.id: g for g in guilds}
        self.ready = True  # before the Gateway is ready, no server is cached
        self.user_fetches = 0
        self.http = FakeHttp(self.guilds)

    def get_guild(self, guild_id: int) -> FakeGuild | None:
        return self.guilds.get(guild_id) if self.ready else None

    def get_user(self, user_id: int) -> None:
        return None

    async def fetch_user(self, user_id: int) -> Any:
        self.user_fetches += 1
        return SimpleNamespace(id=user_id, display_name="Ana", global_name="Ana", name="ana")


def names_with(*guilds: FakeGuild) -> tuple[PlayerNames, FakeClient]:
    client = FakeClient(*guilds)
    return PlayerNames(client), client  # type: ignore[arg-type]


async def test_a_nickname_shows_only_in_its_own_server():
    names, _ = names_with()
    names.remember(member(SERVER_A, "Ana of A"))
    names.remember(member(SERVER_B, "Ana of B"))
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert await names.raw_name(ANA, guild_id=SERVER_B) == "Ana of B"
    assert await names.raw_name(ANA) == "Ana"  # a DM: the user's own name


async def test_a_member_not_seen_yet_is_fetched_from_their_server_once():
    server_a, server_b = FakeGuild(SERVER_A, "Ana of A"), FakeGuild(SERVER_B, None)
    names, _ = names_with(server_a, server_b)
    names.remember(member(SERVER_B, "Ana of B"))  # seen in B only
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert server_a.fetched == 1
    assert server_b.fetched == 0


async def test_someone_who_left_the_server_shows_their_own_name():
    gone = FakeGuild(SERVER_A, "old nick", present=False)
    names, client = names_with(gone)
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"
    assert gone.fetched == 1 and client.user_fetches == 1


async def test_someone_who_left_is_asked_about_once_even_if_they_have_no_own_name_yet():
    gone = FakeGuild(SERVER_A, "old nick", present=False)
    names, client = names_with(gone)
    names.remember(SimpleNamespace(id=ANA, display_name="Ana", global_name="Ana", name="ana"))
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"
    assert gone.fetched == 1 and client.user_fetches == 0


@pytest.mark.parametrize(
    "failure",
    [
        http_error(503, message="Service Unavailable"),
        http_error(404, 10004, "Unknown Guild"),
        aiohttp.ClientConnectionError("connection reset"),
        OSError("network unreachable"),
    ],
    ids=["server error", "not found but not 'unknown member'", "connection", "os"],
)
async def test_a_failed_look_up_shows_the_own_name_once_then_the_nickname(failure):
    server = FakeGuild(SERVER_A, "Ana of A", failures=(failure,))
    names, _ = names_with(server)
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert server.fetched == 2


async def test_a_server_not_cached_here_is_asked_for_the_member_once():
    # Not ready yet, or on a shard another bot process holds: the name still comes from
    # the server (GET /guilds/{id}/members/{user}), so every process shows the same name.
    server = FakeGuild(SERVER_A, "Ana of A")
    names, client = names_with(server)
    client.ready = False
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana of A"
    assert server.fetched == 1


async def test_a_member_without_a_nickname_in_a_server_not_cached_shows_their_own_name():
    names, client = names_with(FakeGuild(SERVER_A, None))
    client.ready = False
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"


async def test_an_unknown_user_is_not_remembered_by_a_placeholder():
    gone = FakeGuild(SERVER_A, None, present=False)
    names, client = names_with(gone)

    async def no_user(user_id: int) -> Any:
        raise http_error(503, message="Service Unavailable")

    client.fetch_user = no_user  # type: ignore[method-assign]
    assert await names.raw_name(ANA, guild_id=SERVER_A) == f"#{ANA:04d}"
    del client.fetch_user
    assert await names.raw_name(ANA, guild_id=SERVER_A) == "Ana"


async def test_text_gets_the_safe_form_and_pictures_the_raw_one():
    names, _ = names_with()
    names.remember(member(SERVER_A, "[x](https://e.vil)"))
    players = (ANA, AI_USER_ID)
    raw = await names.raw_pair(players, "easy", "en", guild_id=SERVER_A)
    assert raw == ("[x](https://e.vil)", "AI (easy)")
    shown = await names.pair(players, "easy", "en", guild_id=SERVER_A)
    assert shown == (markdown_safe(raw[0]), markdown_safe(raw[1]))
    assert as_read(shown[0]) == raw[0]

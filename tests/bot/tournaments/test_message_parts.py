"""What the tournament feature says fits Discord: the start and each round's pairings of a
large event are split into messages of at most 2000 characters, each allowing at most 100
mentioned users; and a second event is refused by naming the open one."""

from __future__ import annotations

import re

import pytest

from bot.tournaments.words import pairings_parts, started_parts, tournament_refusal
from bot.words.i18n import text
from engine.model import TournamentGame
from engine.service.tournaments.errors import TournamentAlreadyOpen

PLAYERS = list(range(100_000_000_000_000_000, 100_000_000_000_000_151))  # 151, ids of 18 digits


def fits_discord(content: str, users: tuple[int, ...]) -> None:
    assert len(content) <= 2000
    assert len(users) <= 100
    # Everyone the message mentions is allowed, and no one else.
    assert {int(m) for m in re.findall(r"<@(\d+)>", content)} == set(users)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_start_of_an_event_of_256_names_everyone_in_messages_that_fit(lang: str) -> None:
    players = list(range(10**17, 10**17 + 256))
    parts = started_parts(lang, players)
    assert len(parts) > 1
    for part in parts:
        fits_discord(part.content, part.users)
    assert [user for part in parts for user in part.users] == players
    opening = text(lang, "tournaments.thread.started", players="").split("\n")[0]
    assert parts[0].content.startswith(opening.strip())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pairings_of_151_players_are_every_table_once_in_messages_that_fit(
    lang: str,
) -> None:
    games = [
        TournamentGame(3, table + 1, PLAYERS[2 * table], PLAYERS[2 * table + 1])
        for table in range(75)
    ] + [TournamentGame(3, 76, PLAYERS[150], None)]
    names = {p: f"<@{p}>" for p in PLAYERS}
    parts = pairings_parts(lang, 3, games, names)
    assert len(parts) > 1
    for part in parts:
        fits_discord(part.content, part.users)
    assert parts[0].content.startswith(text(lang, "tournaments.thread.round", round=3))
    lines = "\n".join(part.content for part in parts).split("\n")[1:]
    assert len(lines) == 76  # every table, none cut between two messages
    assert [user for part in parts for user in part.users] == PLAYERS


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_second_event_is_refused_quoting_the_open_one(lang: str) -> None:
    refusal = tournament_refusal(lang, TournamentAlreadyOpen(1, 7, "Autumn Cup"))
    assert "**Autumn Cup**" in refusal

"""Scripted members who play Hanamikoji by clicking what a person would click."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.panel import face_down_text, hand_text
from engine import Phase
from engine.service.match_service import MatchService
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.users import EmulatedUser

HAND = "Hand 🂠"


@dataclass
class Match:
    match_id: int
    thread_id: int
    players: tuple[EmulatedUser, EmulatedUser]


async def answered(interaction) -> MessageSnapshot:
    await interaction.first_response()
    return interaction.message


def board_message(user: EmulatedUser, thread_id: int) -> MessageSnapshot:
    """The latest board in the thread: the message with the Hand button."""
    boards = [m for m in user.messages(thread_id) if any(b.label == HAND for b in m.buttons())]
    assert boards, "no board with a Hand button in the thread"
    return boards[-1]


def offer_message(user: EmulatedUser, thread_id: int) -> MessageSnapshot:
    offers = [
        m
        for m in user.messages(thread_id)
        if any((b.label or "").startswith("Take ") for b in m.buttons()) and not m.ephemeral
    ]
    assert offers, "no open offer in the thread"
    return offers[-1]


async def play_decision(
    emulator: DiscordEmulator, service: MatchService, match: Match, rng: random.Random
) -> None:
    """Whoever must decide does so through the UI, choosing at random like a new player."""
    table = await service.public_view(match.match_id)
    info = await service.match_info(match.match_id)
    seat = table.current_player
    assert seat is not None
    user = next(u for u in match.players if u.id == info.players[seat])
    if table.phase is not Phase.ACTION:
        offer = offer_message(user, match.thread_id)
        take = rng.choice([b.label for b in offer.buttons() if b.label.startswith("Take ")])
        await answered(await user.click(offer, take))
        await emulator.idle()
        return
    panel = await answered(await user.click(board_message(user, match.thread_id), HAND))
    assert panel.ephemeral
    actions = [b.label for b in panel.buttons() if b.label != "Refresh"]
    panel = await answered(await user.click(panel, rng.choice(actions)))
    select = panel.select()
    values = [o.value for o in select.options]
    picked = rng.sample(values, select.min_values)
    panel = await answered(await user.select(panel, picked))
    confirms = [b.label for b in panel.buttons() if b.label != "Back"]
    panel = await answered(await user.click(panel, rng.choice(confirms)))
    assert "✅ Done" in panel.content, panel.content
    await emulator.idle()


async def private_texts(service: MatchService, match_id: int) -> dict[int, set[str]]:
    """Per player, the hand and face-down lines their panel shows now."""
    info = await service.match_info(match_id)
    found: dict[int, set[str]] = {}
    for user_id in info.players:
        mine = await service.view_for(match_id, user_id)
        found[user_id] = {hand_text(mine), face_down_text(mine)}
    return found


async def challenge_and_accept(emulator: DiscordEmulator, bot, **options) -> Match:
    """ana challenges ben, ben accepts; returns the match once its board is up."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben, **options))
    await answered(await ben.click(challenge, "Accept"))
    await settle(emulator, bot)
    (info,) = await bot.service.open_matches_for(ana.id)
    assert info.thread_id is not None
    return Match(info.match_id, info.thread_id, (ana, ben))


async def settle(emulator: DiscordEmulator, bot) -> None:
    """Until the bot has shown every event and answered every request."""
    for _ in range(3):
        await emulator.idle()
        await bot.service.wait_idle()
        await bot.table.wait_idle()
    await emulator.idle()


async def whose_turn(bot, match: Match) -> tuple[EmulatedUser, EmulatedUser]:
    """(the player who must decide now, the other one)."""
    table = await bot.service.public_view(match.match_id)
    info = await bot.service.match_info(match.match_id)
    assert table.current_player is not None
    mover = next(u for u in match.players if u.id == info.players[table.current_player])
    other = next(u for u in match.players if u is not mover)
    return mover, other

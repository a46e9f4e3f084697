"""Scripted members who play Hanamikoji by clicking what a person would click."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from bot.discord_plumbing.app_emojis import emoji_name
from bot.pictures.emoji_images import emoji_images
from bot.play.presence import Presence
from bot.words.card_faces import CardFaces
from bot.words.hand_lines import face_down_text, hand_text
from bot.words.i18n import text
from engine.rules import Phase
from engine.service.match_service import MatchService
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.message_text import emoji_text
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.users import EmulatedUser

HAND = "Hand 🂠"
UPLOADED = CardFaces({key: (emoji_name(key, image), 0) for key, image in emoji_images().items()})
"""The card emojis as the bot uploads them to the emulator at start-up; their ids do not
matter, a transcript reads a custom emoji as ``:name:`` (:func:`as_read`)."""


def as_read(words: str) -> str:
    """``words`` as a transcript reads them: each custom emoji as ``:name:``."""
    return emoji_text(words)


HANG_GUARD_SECONDS = 120.0
"""Only a hung bot waits this long: settling waits on events, not on the bot being quick."""


def labels(lang: str) -> dict[str, str]:
    """Button labels as a player of that language sees them."""
    return {
        "hand": f"{text(lang, 'board.hand_button')} 🂠",
        "accept": text(lang, "challenge.accept"),
        "refresh": text(lang, "panel.refresh"),
        "back": text(lang, "panel.back"),
        "take": text(lang, "panel.take", cards=""),
    }


@dataclass
class Match:
    match_id: int
    thread_id: int
    players: tuple[EmulatedUser, EmulatedUser]


async def answered(interaction) -> MessageSnapshot:
    """The bot's answer once it is complete (a deferred answer once it is filled in, however
    long the work in between takes on a busy machine)."""
    return await interaction.answer(wait=HANG_GUARD_SECONDS)


def board_message(user: EmulatedUser, thread_id: int, lang: str = "en") -> MessageSnapshot:
    """The latest board in the thread: the message with the Hand button."""
    hand = labels(lang)["hand"]
    boards = [m for m in user.messages(thread_id) if any(b.label == hand for b in m.buttons())]
    assert boards, "no board with a Hand button in the thread"
    return boards[-1]


def offer_message(user: EmulatedUser, thread_id: int, lang: str = "en") -> MessageSnapshot:
    """The message with an open offer's Take buttons: the board, while an offer waits."""
    take = labels(lang)["take"]
    offers = [
        m
        for m in user.messages(thread_id)
        if any((b.label or "").startswith(take) for b in m.buttons()) and not m.ephemeral
    ]
    assert offers, "no open offer in the thread"
    return offers[-1]


async def play_decision(
    emulator: DiscordEmulator,
    bot,
    match: Match,
    rng: random.Random,
    lang: str = "en",
) -> None:
    """Whoever must decide does so through the UI, choosing at random like a new player,
    then waits until the bot has shown the move (the board edit may wait on Discord's
    rate limits)."""
    service = bot.service
    await settle(emulator, bot)  # an AI's move may still be reaching the board
    table = await service.queries.public_view(match.match_id)
    info = await service.queries.match_info(match.match_id)
    seat = table.current_player
    assert seat is not None
    user = next(u for u in match.players if u.id == info.players[seat])
    if table.phase is not Phase.ACTION:
        offer = offer_message(user, match.thread_id, lang)
        take_label = labels(lang)["take"]
        take = rng.choice([b.label for b in offer.buttons() if b.label.startswith(take_label)])
        await answered(await user.click(offer, take))
        await settle(emulator, bot)
        return
    said = labels(lang)
    panel = await answered(
        await user.click(board_message(user, match.thread_id, lang), said["hand"])
    )
    assert panel.ephemeral
    actions = [b.label for b in panel.buttons() if b.label != said["refresh"]]
    panel = await answered(await user.click(panel, rng.choice(actions)))
    select = panel.select()
    values = [o.value for o in select.options]
    picked = rng.sample(values, select.min_values)
    panel = await answered(await user.select(panel, picked))
    confirms = [b.label for b in panel.buttons() if b.label != said["back"]]
    panel = await answered(await user.click(panel, rng.choice(confirms)))
    # The move confirmed in words with its notation beside it: "✅ Gift: C D E (3CDE)".
    assert re.search(r"✅ [^:\n]+: [A-G |]+ \([1-4][A-G]{1,4}\)", panel.text()), panel.text()
    await settle(emulator, bot)


async def private_texts(service: MatchService, match_id: int) -> dict[int, set[str]]:
    """Per player, the hand and face-down lines their panel shows now."""
    info = await service.queries.match_info(match_id)
    found: dict[int, set[str]] = {}
    for user_id in info.players:
        mine = await service.queries.view_for(match_id, user_id)
        # A process that does not upload the emojis shows letters until the other has.
        found[user_id] = {
            as_read(hand_text("en", mine, UPLOADED)),
            hand_text("en", mine),
            as_read(face_down_text("en", mine, UPLOADED)),
            face_down_text("en", mine),
        }
    return found


async def challenge_and_accept(
    emulator: DiscordEmulator, bot, lang: str = "en", **options
) -> Match:
    """ana challenges ben, ben accepts; returns the match once its board is up."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben, **options))
    await answered(await ben.click(challenge, labels(lang)["accept"]))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.placement.thread_id is not None
    return Match(info.match_id, info.placement.thread_id, (ana, ben))


async def settle(emulator: DiscordEmulator, bot) -> None:
    """Until the bot has shown every event and answered every request: every interaction
    answered and its handler returned (`emulator.idle`), the service and the bot's queues
    empty."""
    for _ in range(3):
        await emulator.idle(max_wait=HANG_GUARD_SECONDS)
        await bot.service.wait_idle()
        await bot.wait_idle()
    await emulator.idle(max_wait=HANG_GUARD_SECONDS)


async def whose_turn(bot, match: Match) -> tuple[EmulatedUser, EmulatedUser]:
    """(the player who must decide now, the other one)."""
    table = await bot.service.queries.public_view(match.match_id)
    info = await bot.service.queries.match_info(match.match_id)
    assert table.current_player is not None
    mover = next(u for u in match.players if u.id == info.players[table.current_player])
    other = next(u for u in match.players if u is not mover)
    return mover, other


def presence_of(bot) -> Presence:
    """The play feature's record of who is at the table (tests set its clock)."""
    play = bot.get_cog("Play")
    assert play is not None, "the play extension is not loaded"
    return play.presence


async def start_ai_match(emulator: DiscordEmulator, bot, user: EmulatedUser, **options) -> Match:
    """``user`` starts a match against the AI (``options`` as on `/hanamikoji ai`); returns
    it once its board is up (the AI's seat is shown as the user too: only they click)."""
    await answered(await user.slash("hanamikoji ai", **options))
    await settle(emulator, bot)
    infos = [i for i in await bot.service.queries.open_matches_for(user.id) if i.is_ai_match]
    assert len(infos) == 1, infos
    assert infos[0].placement.thread_id is not None
    return Match(infos[0].match_id, infos[0].placement.thread_id, (user, user))

"""The board and the private panel as a phone shows them, 360 px wide, drawn from the
messages a seeded match leaves in the emulator: the Components V2 layout, the board's
picture in its gallery, the card emojis the bot uploaded in the hand's text and on the
choices. The pictures in ``docs/`` are these (the test checks they exist; it does not
compare pixels, which differ with the fonts a machine has); after a deliberate change of the
layout, redraw them and look at them:

    PHONE_PICTURES_UPDATE=1 .venv/bin/python -m pytest tests/e2e/test_phone_pictures.py -q
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from PIL import Image

from engine.rules import Phase
from engine.service.clock import ManualClock
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.phone_preview import phone_png, world_options
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.players import (
    answered,
    board_message,
    challenge_and_accept,
    labels,
    offer_message,
    play_decision,
    presence_of,
    settle,
    whose_turn,
)

DOCS = Path(__file__).parents[2] / "docs"
UPDATE = os.environ.get("PHONE_PICTURES_UPDATE") == "1"
SEED = 11
BOARD_BACKGROUND = (43, 29, 26)
"""The board picture's own ground (:mod:`bot.pictures.palette`): seen once it is drawn."""


def drawn(emulator: DiscordEmulator, message: MessageSnapshot, now: float) -> Image.Image:
    png = phone_png(message, now=now, **world_options(emulator.world))
    return Image.open(io.BytesIO(png)).convert("RGB")


def has_colour(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(pixel == colour for _, pixel in image.getcolors(maxcolors=1 << 20) or [])


def keep(image: Image.Image, name: str) -> None:
    path = DOCS / name
    if UPDATE:
        image.save(path, optimize=True)
    assert path.is_file(), f"no docs/{name}: run the command in this module's docstring"


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_board_and_the_panel_on_a_phone(emulator: DiscordEmulator, start_bot, lang):
    if lang == "es":
        emulator.world.guild.preferred_locale = "es-ES"
        for name in ("ana", "ben"):
            emulator.user(name).record.locale = "es-ES"
    clock = ManualClock()
    bot = await start_bot(clock=clock, rng=random.Random(SEED))
    presence_of(bot).clock = lambda: 0.0
    assert len(emulator.world.application_emojis) == 11  # 7 cards, 4 markers, uploaded once
    match = await challenge_and_accept(emulator, bot, lang)
    rng = random.Random(SEED)
    while (await bot.service.queries.public_view(match.match_id)).phase is not Phase.GIFT_CHOICE:
        await play_decision(emulator, bot, match, rng, lang)
    await settle(emulator, bot)
    mover, _ = await whose_turn(bot, match)

    board = offer_message(mover, match.thread_id, lang)
    takes = [b for b in board.buttons() if b.label.startswith(labels(lang)["take"])]
    assert takes and all(b.emoji and b.emoji.startswith("hk_card_") for b in takes)
    board_picture = drawn(emulator, board, clock.now())
    assert board_picture.width == 720
    assert has_colour(board_picture, BOARD_BACKGROUND)  # the gallery shows the board
    keep(board_picture, f"phone-board-{lang}.png")

    said = labels(lang)
    panel = await answered(
        await mover.click(board_message(mover, match.thread_id, lang), said["hand"])
    )
    assert ":hk_card_" in panel.text()  # the hand's cards as the bot's own emojis
    panel_picture = drawn(emulator, panel, clock.now())
    assert panel_picture.width == 720
    without_emojis = phone_png(panel, now=clock.now(), emoji_images={})
    assert (
        panel_picture.tobytes() != Image.open(io.BytesIO(without_emojis)).convert("RGB").tobytes()
    )  # the emojis are drawn, where a client without them shows :names:
    keep(panel_picture, f"phone-panel-{lang}.png")


async def test_a_clock_and_an_overdue_turn_on_a_phone(emulator: DiscordEmulator, start_bot):
    """A clock's board (both banks, the running one counting down) and a turn-based board
    once the late player's grace is over (the three choices), as docs/time-controls.md
    shows them."""
    clock = ManualClock()
    bot = await start_bot(clock=clock, rng=random.Random(SEED))
    presence_of(bot).clock = lambda: 0.0
    blitz = await challenge_and_accept(emulator, bot, time="clock:300+5")
    rng = random.Random(SEED)
    for wait in (25, 40):
        await clock.advance(wait, settle=bot.service.wait_idle)
        await play_decision(emulator, bot, blitz, rng)
    await clock.advance(12, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    _, watching = await whose_turn(bot, blitz)
    board = board_message(watching, blitz.thread_id)
    assert "⏱" in board.text()
    keep(drawn(emulator, board, clock.now()), "phone-board-clock-en.png")

    ana, ben = emulator.user("ana"), emulator.user("ben")
    ask = await answered(await ana.slash("hanamikoji resign", channel=blitz.thread_id))
    await answered(await ana.click(ask, "Yes, resign"))
    await settle(emulator, bot)
    slow = await challenge_and_accept(emulator, bot, time="days:2")
    await play_decision(emulator, bot, slow, rng)
    await clock.advance(3 * 24 * 3600, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    _, waiting = await whose_turn(bot, slow)
    board = board_message(waiting, slow.thread_id)
    assert "Claim the win" in [b.label for b in board.buttons()], board.text()
    assert waiting.id in (ana.id, ben.id)
    keep(drawn(emulator, board, clock.now()), "phone-board-claim-en.png")

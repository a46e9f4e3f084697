"""Settings from the bot's TOML file change what players see: each `[matches]` key that once
was parsed and dropped, through the real bot and the emulator."""

import random

import pytest

from engine.rules import Variant
from tests.e2e.players import Match, answered, labels, play_decision, settle

MANAGE_SERVER = 1 << 5


@pytest.mark.slow
@pytest.mark.parametrize("thread_per_match", [True, False])
async def test_thread_per_match_decides_where_a_match_is_played(
    emulator, start_bot, thread_per_match
):
    bot = await start_bot(thread_per_match=thread_per_match)
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.grant(MANAGE_SERVER)
    shown = await answered(await ana.slash("hanamikoji settings"))
    on_off = "on" if thread_per_match else "off"
    assert f"thread per match: **{on_off}**" in shown.text(), "the server default is the file's"

    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    await answered(await ben.click(challenge, labels("en")["accept"]))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    if thread_per_match:
        assert info.placement.thread_id is not None and len(ana.threads()) == 1
        return

    assert info.placement.thread_id is None and ana.threads() == []
    match = Match(info.match_id, emulator.channel.id, (ana, ben))
    rng = random.Random(3)
    # A whole round: every kind of action, offer and answer, then the round's scoring.
    while not (await bot.service.queries.public_view(match.match_id)).rounds:
        await play_decision(emulator, bot, match, rng)
    texts = [m.text() for m in ana.messages(emulator.channel.id)]
    assert any("is scored" in t for t in texts), "the round is scored in the channel"
    assert ana.threads() == [], "no thread was opened on the way"


@pytest.mark.parametrize(
    ("settings", "variant"),
    [({}, Variant.STANDARD), ({"three_rounds": True}, Variant.THREE_ROUNDS)],
)
async def test_three_rounds_is_the_variant_of_a_challenge_that_names_none(
    emulator, start_bot, settings, variant
):
    bot = await start_bot(**settings)
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    shown = "three rounds" if variant is Variant.THREE_ROUNDS else "standard"
    assert f"Variant: **{shown}**" in challenge.text()
    await answered(await ben.click(challenge, labels("en")["accept"]))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.variant is variant
    board = (await bot.service.queries.public_view(info.match_id)).variant
    assert board is variant, "the game itself is played in that variant"


async def test_a_challenge_that_names_its_variant_is_not_overridden_by_three_rounds(
    emulator, start_bot
):
    bot = await start_bot(three_rounds=True)
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(
        await ana.slash("hanamikoji challenge", opponent=ben, variant="standard")
    )
    assert "Variant: **standard**" in challenge.text()
    await answered(await ben.click(challenge, labels("en")["accept"]))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.variant is Variant.STANDARD


async def test_ai_levels_decide_which_levels_slash_ai_offers(emulator, start_bot):
    await start_bot(ai_levels=["easy", "normal"])
    group = emulator.commands.find("hanamikoji", guild_id=emulator.guild_id)
    ai = next(option for option in group["options"] if option["name"] == "ai")
    level = next(option for option in ai["options"] if option["name"] == "level")

    assert [choice["value"] for choice in level["choices"]] == ["easy", "normal"]

"""A server's thread-per-match and three-rounds choices, and the configured defaults."""

from __future__ import annotations

from engine.model import GuildSettings
from engine.rules.state import Variant

GUILD = 1


async def test_a_server_that_saved_only_its_language_follows_the_configured_defaults(
    make_service,
):
    service = await make_service(three_rounds=True, thread_per_match=False)
    await service.settings.set_guild_settings(GuildSettings(GUILD, language="es"))
    saved = await service.settings.guild_settings(GUILD)

    assert service.settings.three_rounds(saved) is True
    assert service.settings.thread_per_match(saved) is False
    challenge = await service.challenges.challenge(101, 202, guild_id=GUILD, channel_id=2)
    assert challenge.variant is Variant.THREE_ROUNDS


async def test_a_server_choice_wins_over_the_configured_default(make_service):
    service = await make_service(three_rounds=True, thread_per_match=False)
    await service.settings.set_guild_settings(
        GuildSettings(GUILD, thread_per_match=True, three_rounds_default=False)
    )
    saved = await service.settings.guild_settings(GUILD)

    assert service.settings.thread_per_match(saved) is True
    challenge = await service.challenges.challenge(101, 202, guild_id=GUILD, channel_id=2)
    assert challenge.variant is Variant.STANDARD


async def test_a_server_that_never_chose_follows_the_config_as_it_changes(make_service):
    standard = await make_service()
    first = await standard.challenges.challenge(101, 202, guild_id=GUILD, channel_id=2)
    await standard.close()
    three = await make_service(three_rounds=True)
    second = await three.challenges.challenge(303, 404, guild_id=GUILD, channel_id=2)

    assert (first.variant, second.variant) == (Variant.STANDARD, Variant.THREE_ROUNDS)

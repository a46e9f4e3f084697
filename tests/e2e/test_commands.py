"""Slash commands that need no match: rules, notify, settings, refusals."""

from tests.discord_emulator import CallbackType


async def test_rules_are_a_short_ephemeral_summary(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    interaction = await ana.slash("hanamikoji rules")
    assert await interaction.first_response() is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    rules = interaction.message
    assert rules is not None and rules.ephemeral
    assert "4 geishas" in rules.text() and "Gift" in rules.text()
    assert not ben.can_see(rules)

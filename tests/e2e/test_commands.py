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


async def test_a_restart_does_not_send_unchanged_commands_again(emulator, start_bot):
    """Discord rate-limits command syncs tightly: a bot restarting often must not spend it."""

    def syncs():
        return [
            path for method, path, _ in emulator.requests if method == "PUT" and "/commands" in path
        ]

    bot = await start_bot()
    assert len(syncs()) == 2  # global, and the development server
    await bot.close()
    restarted = await start_bot()
    assert len(syncs()) == 2, "the same commands: nothing sent"
    answer = await emulator.user("ana").slash("hanamikoji rules")
    await answer.first_response()
    assert "4 geishas" in answer.message.text()
    await restarted.close()


async def test_the_commands_are_never_offered_in_a_server_the_bot_is_not_in(emulator, bot):
    """A new application is installable to users too; a user who adds it to their account
    must not see /hanamikoji in servers where no bot could host the match."""
    ana = emulator.user("ana")
    ana.install_app()
    assert ana.commands_offered_in_a_server_without_the_bot() == []
    synced = emulator.commands.global_commands["hanamikoji"]
    assert synced["integration_types"] == [0] and synced["contexts"] == [0]
    answer = await ana.slash("hanamikoji rules")
    await answer.first_response()
    assert "4 geishas" in answer.message.text()

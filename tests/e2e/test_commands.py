"""Slash commands that need no match: rules, notify, settings, refusals."""

from tests.discord_emulator import CallbackType
from tests.e2e.players import answered


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


async def test_the_commands_go_wherever_a_user_installed_the_app(emulator, bot):
    """Installable to servers and to users: a user who adds the app to their account sees
    /hanamikoji in DMs, group DMs and servers without the bot, where only the commands that
    work there answer (the rest say so, privately); in the bot's servers, all of them."""
    ana = emulator.user("ana")
    synced = emulator.commands.global_commands["hanamikoji"]
    assert synced["integration_types"] == [0, 1] and synced["contexts"] == [0, 1, 2]
    assert ana.commands_offered_in_a_server_without_the_bot() == []
    ana.install_app()
    assert ana.commands_offered_in_a_server_without_the_bot() == ["hanamikoji"]
    group = emulator.group_dm(ana, emulator.user("ben"), name="friends")
    rules = await answered(await ana.slash("hanamikoji rules", channel=group))
    assert "4 geishas" in rules.text()
    games = await answered(await ana.slash("hanamikoji games", channel=group))
    assert games.ephemeral
    assert games.text().startswith("`/hanamikoji games` works in a server where the bot is")
    answer = await ana.slash("hanamikoji rules")
    await answer.first_response()
    assert "4 geishas" in answer.message.text()

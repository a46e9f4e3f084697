"""A small discord.py bot that exercises what the emulator must support.

Only the emulator's own tests use it; the real bot lives in `bot/`.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<count>\d+)"
):
    """A persistent button whose state lives in its custom_id, so any client can handle it."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {count}", custom_id=f"counter:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.count + 1))
        await interaction.response.edit_message(content=f"count is {self.count + 1}", view=view)


class AcceptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"accept:(?P<opponent>\d+)"
):
    """Only the challenged player may press; everyone else gets an ephemeral refusal."""

    def __init__(self, opponent_id: int) -> None:
        super().__init__(discord.ui.Button(label="Accept", custom_id=f"accept:{opponent_id}"))
        self.opponent_id = opponent_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AcceptButton:
        return cls(int(match["opponent"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.opponent_id:
            await interaction.response.send_message(
                "This challenge is not for you.", ephemeral=True
            )
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="Challenge accepted!", view=None)
        assert interaction.message is not None
        thread = await interaction.message.create_thread(name="match")
        await thread.send(f"Welcome {interaction.user.mention}")


class GotItView(discord.ui.View):
    @discord.ui.button(label="Got it")
    async def got_it(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.edit_message(content="Enjoy the game.", view=None)


class TidyView(discord.ui.View):
    @discord.ui.button(label="Tidy")
    async def tidy(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE on a component
        await asyncio.sleep(0.02)
        await interaction.edit_original_response(content="tidied", view=None)


class CardSelect(discord.ui.View):
    @discord.ui.select(
        placeholder="Pick cards",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=f"Card {n}", value=str(n)) for n in range(1, 6)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(
            content=f"picked {', '.join(select.values)}", view=None
        )


class NameModal(discord.ui.Modal, title="Name your tea house"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Welcome to {self.name.value}", ephemeral=True)


class Hanamikoji(app_commands.Group):
    def __init__(self, bot: SampleBot) -> None:
        super().__init__(name="hanamikoji", description="Play Hanamikoji")
        self.bot = bot

    @app_commands.command(description="Read the rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        self.bot.seen.append(interaction)
        await interaction.response.send_message(
            "Rules: win 4 geishas or 11 charm.", ephemeral=True, view=GotItView()
        )

    @app_commands.command(description="Challenge someone")
    @app_commands.describe(opponent="Who to play against")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(opponent.id))
        await interaction.response.send_message(
            f"{interaction.user.mention} challenges {opponent.mention} ({opponent.display_name})",
            view=view,
        )

    @app_commands.command(description="Answer after a delay")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(self.bot.slow_seconds)
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(description="Think, then answer")
    async def think(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("your hand: Gift, Secret")
        second = await interaction.followup.send("a second followup", ephemeral=True, wait=True)
        await second.edit(content="an edited followup")
        third = await interaction.followup.send("a short-lived followup", ephemeral=True, wait=True)
        await third.delete()

    @app_commands.command(description="Show a mess")
    async def mess(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("a mess", view=TidyView(), ephemeral=True)

    @app_commands.command(description="Pick cards")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose:", view=CardSelect(), ephemeral=True)

    @app_commands.command(description="Name the house")
    async def house(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="DM me")
    async def dm(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send(
                "psst, your secret hand", file=discord.File(io.BytesIO(b"HAND:GIFT"), "hand.txt")
            )
        except discord.Forbidden as exc:
            self.bot.errors.append(exc)
            await interaction.response.send_message("I cannot DM you.", ephemeral=True)
        else:
            await interaction.response.send_message("Check your DMs.", ephemeral=True)

    @app_commands.command(description="Post a message")
    @app_commands.describe(text="What to post")
    async def post(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send(text)
        await interaction.followup.send("posted", ephemeral=True)

    @app_commands.command(description="Send a button with a too long custom_id")
    async def broken(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
        try:
            await interaction.response.send_message("broken", view=view)
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(description="Count")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message("count is 0", view=view)


class GlobalPingClient(discord.Client):
    """A plain Client with a globally synced command, usable in DMs."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_ids_seen: list[int | None] = []

        @self.tree.command(description="Ping")
        async def ping(interaction: discord.Interaction) -> None:
            self.guild_ids_seen.append(interaction.guild_id)
            pong = discord.File(io.BytesIO(b"PNG"), "pong.png")
            await interaction.response.send_message("pong", file=pong)

    async def setup_hook(self) -> None:
        await self.tree.sync()


class SampleBot(commands.Bot):
    def __init__(self, *, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_id = guild_id
        self.slow_seconds = 0.0
        self.seen: list[discord.Interaction] = []
        self.errors: list[discord.HTTPException] = []
        self.tree.add_command(Hanamikoji(self))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton, AcceptButton)
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


class PourView(discord.ui.View):
    """A button anyone who sees the message may press, answered by editing the message."""

    def __init__(self, app: PocketApp) -> None:
        super().__init__(timeout=None)
        self.app = app

    @discord.ui.button(label="Pour", custom_id="pocket:pour")
    async def pour(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.app.seen.append(interaction)
        await interaction.response.edit_message(content=f"poured by {interaction.user.name}")


class PocketApp(discord.Client):
    """A user-installable app: one global command group allowed in every installation
    context (guilds, the bot's DMs, private channels), synced globally."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(
            self,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        )
        self.seen: list[discord.Interaction] = []
        self.errors: list[discord.HTTPException] = []
        self.tree.add_command(self._group())

    def _group(self) -> app_commands.Group:
        group = app_commands.Group(name="pocket", description="A pocket tea set")

        @group.command(description="Serve tea with a button")
        async def tea(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.send_message("tea is ready", view=PourView(self))

        @group.command(description="Think, then send followups")
        @app_commands.describe(count="How many followups after the answer")
        async def burst(interaction: discord.Interaction, count: int) -> None:
            self.seen.append(interaction)
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("the answer")  # fills "thinking..."
            for n in range(count):
                try:
                    await interaction.followup.send(f"followup {n + 1}")
                except discord.HTTPException as exc:
                    self.errors.append(exc)

        @group.command(description="Post through the channel")
        async def post(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            try:
                await interaction.channel.send("posted through the channel")
            except discord.HTTPException as exc:
                self.errors.append(exc)
            await interaction.response.send_message("answered through the interaction")

        return group

    async def setup_hook(self) -> None:
        self.add_view(PourView(self))
        await self.tree.sync()

"""Play: the private panel (action buttons, card select, confirm), the opponent's Take
buttons, the thread and the board, recent moves, and who is away and gets a mention.

A discord.py extension: :func:`setup` adds `/hanamikoji hand`, `board`, `moves` and
`resign`, and registers one `DynamicItem` per verb.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.discord_plumbing.channel_permissions import permission_list
from bot.features import AnyBot, Feature, SharedParts, command_group, shared_parts
from bot.play.action_buttons import CompetitionButton, GiftButton, SecretButton, TradeOffButton
from bot.play.ai_turn_button import AiTurnButton
from bot.play.card_select import CardSelect
from bot.play.claim_button import ClaimButton
from bot.play.commands import play_commands
from bot.play.confirm_button import ConfirmButton
from bot.play.deps import PlayDeps
from bot.play.match_presenter import MatchPresenters
from bot.play.moves_button import MovesButton
from bot.play.navigation_buttons import BackButton, HandButton
from bot.play.panel import Panel
from bot.play.presence import Presence
from bot.play.resign_button import ResignButton
from bot.play.server_changes import ServerChanges
from bot.play.show_board_button import ShowBoardButton
from bot.play.take_button import TakeButton
from bot.play.wait_button import WaitButton
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service import MatchAbandonment

ITEMS = (
    HandButton,
    SecretButton,
    TradeOffButton,
    GiftButton,
    CompetitionButton,
    CardSelect,
    ConfirmButton,
    TakeButton,
    BackButton,
    ResignButton,
    MovesButton,
    ClaimButton,
    AiTurnButton,
    WaitButton,
    ShowBoardButton,
)


async def _tell_by_dm(
    parts: SharedParts, user_id: int, match_id: int, key: str, values: dict[str, str | list[str]]
) -> None:
    lang = parts.names.language(user_id)
    # A list holds permission keys: named in the DM's language, as Discord names them.
    worded = {
        name: permission_list(lang, value) if isinstance(value, list) else value
        for name, value in values.items()
    }
    line = text(lang, key, match=match_id, **worded)
    await parts.direct_messages.send(user_id, f"match {match_id}: {key}", {"content": line})


async def _end_channel(abandonment: MatchAbandonment, info: MatchInfo) -> None:
    """The match's channel was found deleted: its open matches end as a CHANNEL_DELETE
    ends them (the players hear of it through MatchAbandoned)."""
    if info.guild_id is not None and info.channel_id is not None:
        await abandonment.abandon_channel(info.guild_id, info.channel_id)


def has_left(bot: AnyBot, guild_id: int) -> bool:
    """Whether the bot has left this server, as far as this process can tell: only a server
    on one of its own shards (another process's shards hold the rest), and not in its list
    of servers (an unavailable server is in it: an outage is not a removal)."""
    count = bot.shard_count or 1
    shards = getattr(bot, "shard_ids", None)
    if shards is None and bot.shard_id is not None:
        shards = [bot.shard_id]
    if shards is not None and (guild_id >> 22) % count not in shards:
        return False
    return bot.get_guild(guild_id) is None


class Play(Feature):
    """Holds the play feature's parts; the presenters show the matches' events."""

    def __init__(
        self, deps: PlayDeps, presenters: MatchPresenters, unsubscribe: Callable[[], None]
    ) -> None:
        super().__init__(deps, unsubscribe=unsubscribe)
        self.presenters = presenters
        self.presence = presenters.presence

    async def wait_idle(self) -> None:
        await self.presenters.wait_idle()


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    presence = Presence()
    panel = Panel(service.queries, parts.names, parts.direct_messages, service.hints, parts.emojis)
    presenters = MatchPresenters(
        service.queries,
        service.placements,
        service.settings,
        parts.names,
        parts.languages,
        parts.places,
        presence,
        notify=panel.your_turn,
        retire_panel=panel.retire_dm,
        announced=service.announced,
        ready=bot.wait_until_ready,
        tell=lambda user_id, match_id, key, values: _tell_by_dm(
            parts, user_id, match_id, key, values
        ),
        channel_gone=lambda info: _end_channel(service.abandonment, info),
        emojis=parts.emojis,
        notify_claim=panel.claim_offered,
        interaction_boards=parts.interaction_boards,
    )
    deps = PlayDeps(
        queries=service.queries,
        names=parts.names,
        seen=presence.seen,
        commands=service.commands,
        placements=service.placements,
        panel=panel,
        board_presses=presenters.presses,
        overdue=service.overdue,
        interaction_boards=presenters.interaction_boards,
    )
    await bot.add_cog(Play(deps, presenters, service.subscribe(presenters.on_event)))
    changes = ServerChanges(
        service.abandonment,
        service.placements,
        parts.places,
        presenters.mark_board,
        presenters.board_deleted,
        presenters.permissions_changed,
        names=parts.names,
        direct_messages=parts.direct_messages,
        clock=service.clock,
        left=lambda guild_id: has_left(bot, guild_id),
    )
    changes.unsubscribe = service.subscribe(changes.on_event)
    await bot.add_cog(changes)
    group = command_group(bot)
    for command in play_commands(deps, presenters):
        group.add_command(command)
    bot.add_dynamic_items(*ITEMS)

"""`/hanamikoji hand`, `board`, `moves` and `resign`: the commands of a match being played.

Each answers privately, so each is acknowledged with a private "thinking…" before it asks
the database anything (:func:`think_privately`): a stalled database, or one still being
reached while the process starts, never leaves a command unanswered."""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.pages import message_kwargs, text_page
from bot.discord_plumbing.places import UNKNOWN_CHANNEL
from bot.discord_plumbing.translator import localised
from bot.play.deps import PlayDeps
from bot.play.match_presenter import MatchPresenters
from bot.play.moves_button import moves_page
from bot.play.resign_button import resign_question
from bot.words.i18n import language_of, text
from engine.model import MatchInfo, MatchStatus

Command = app_commands.Command[Any, ..., None]


def play_commands(deps: PlayDeps, presenters: MatchPresenters) -> list[Command]:
    """The commands, bound to the play feature's parts (added to `/hanamikoji` by setup)."""

    async def match_here(interaction: discord.Interaction[Any]) -> MatchInfo | None:
        """The caller's match in this channel or thread, or a helpful reply saying why not."""
        lang = language_of(interaction.locale)
        user_id = interaction.user.id
        info = await deps.queries.active_match_for(user_id, interaction.channel_id or 0)
        if info is not None and info.status is MatchStatus.ACTIVE:
            deps.seen(info.match_id, user_id)
            return info
        open_matches = await deps.queries.open_matches_for(user_id)
        elsewhere = [m for m in open_matches if m.status is MatchStatus.ACTIVE]
        if elsewhere:
            links = ", ".join(f"<#{m.placement.thread_id or m.channel_id}>" for m in elsewhere[:5])
            message = text(lang, "commands.no_match_here", links=links)
        else:
            message = text(lang, "commands.no_match")
        await send_private(interaction, content=message)
        return None

    @app_commands.command(name=localised("names.hand"), description=localised("slash.hand"))
    async def hand(interaction: discord.Interaction[Any]) -> None:
        await think_privately(interaction)
        info = await match_here(interaction)
        if info is not None:
            lang = language_of(interaction.locale)
            await deps.panel.home(interaction, lang, info, edit=False, picture=True)

    async def match_shown_here(interaction: discord.Interaction[Any]) -> MatchInfo | None:
        """The match of this thread (or the caller's match in this channel), or a reply
        saying there is none."""
        lang = language_of(interaction.locale)
        channel_id = interaction.channel_id or 0
        info = await deps.placements.match_of_thread(channel_id)
        if info is None:
            info = await deps.queries.active_match_for(interaction.user.id, channel_id)
        if info is None:
            await send_private(interaction, content=text(lang, "commands.no_match_in_channel"))
        return info

    @app_commands.command(name=localised("names.board"), description=localised("slash.board"))
    async def board(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        info = await match_shown_here(interaction)
        if info is None:
            return
        if not may_move_board(interaction, info):
            await send_private(interaction, content=text(lang, "commands.board_refused"))
            return
        deps.seen(info.match_id, interaction.user.id)
        if info.status is not MatchStatus.ACTIVE and await presenters.place(info) is None:
            # Over, and its thread deleted: a finished match is not moved anywhere, so
            # there is nowhere to show its board again.
            answer = text(lang, "commands.board_place_gone", match=info.match_id)
            await send_private(interaction, content=answer)
            return
        await send_private(interaction, content=text(lang, "commands.board_again"))
        if presenters.place_is_gone(info):
            # Its thread was deleted: the match moves to a new one (or the channel) with
            # a new board; the old board went with the thread.
            await presenters.repair(info)
            return
        old = info.placement.board_message_id
        place = await presenters.place(info)
        try:
            message = await presenters.post_board(info)
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL or info.placement.thread_id is None:
                raise
            # Deleted while the bot was not looking (it was down): as above (repaired only
            # while the match is being played).
            presenters.places.forget(info.placement.thread_id)
            await presenters.repair(info)
            return
        if old is not None and message is not None and place is not None:
            public = await presenters.public_language(info)
            with contextlib.suppress(discord.HTTPException):
                moved = text(public, "commands.board_moved", link=message.jump_url)
                await place.get_partial_message(old).edit(  # type: ignore[attr-defined]
                    **message_kwargs(text_page(moved), editing=True)
                )

    @app_commands.command(name=localised("names.moves"), description=localised("slash.moves"))
    async def moves(interaction: discord.Interaction[Any]) -> None:
        await think_privately(interaction)
        info = await match_shown_here(interaction)
        if info is not None:
            page = await moves_page(deps, language_of(interaction.locale), info)
            await send_private(interaction, **message_kwargs(page))

    @app_commands.command(name=localised("names.resign"), description=localised("slash.resign"))
    async def resign(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        info = await match_here(interaction)
        if info is None:
            return
        view = resign_question(lang, info.match_id, info.version)
        await send_private(interaction, content=text(lang, "commands.resign_ask"), view=view)

    return [hand, board, moves, resign]


def may_move_board(interaction: discord.Interaction[Any], info: MatchInfo) -> bool:
    """The match's players, and members who may manage messages here: moving the board
    moves it away from where the players look, so not every member may."""
    if info.seat_of(interaction.user.id) is not None:
        return True
    return interaction.permissions.manage_messages

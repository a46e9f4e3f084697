"""The thread's messages a plan asks for (:mod:`bot.play.display_plan`): the thread and
board set up at the start, lines someone must see (who starts, the timer played, the next
player is away, a reminder), an offer asked of an away chooser, round summaries and the
result. Each is worded in the server's language; nothing here decides what to show.
Outside any server the bot is in there is nowhere to post: the board alone shows the match
(:mod:`bot.discord_plumbing.interaction_boards`)."""

from __future__ import annotations

import discord

from bot.discord_plumbing.interaction_boards import shown_by_interactions
from bot.discord_plumbing.result_buttons import open_review_button, rematch_button
from bot.play.board_editor import BoardEditor
from bot.play.display_plan import AskOffer, OfferAnswered, Post, PostResult, PostSummary
from bot.play.match_place import MatchPlace
from bot.play.offer_ask import OfferAsks
from bot.play.rating_line import rating_change_line
from bot.play.thread import add_players, close_thread, locks_when_over, open_thread
from bot.play.words import line_text, outcome_line, round_summary
from bot.words.i18n import text
from bot.words.player_names import mention
from engine.model import MatchInfo
from engine.rules import PublicView
from engine.service import MatchPlacements, MatchQueries, MatchSettings


class Announcements:
    """Posts what a plan says in a match's place, in the server's language."""

    def __init__(
        self,
        queries: MatchQueries,
        placements: MatchPlacements,
        settings: MatchSettings,
        place: MatchPlace,
        board: BoardEditor,
    ) -> None:
        self._queries = queries
        self._placements = placements
        self._settings = settings
        self._place = place
        self._board = board
        self._offers = OfferAsks(place)

    async def set_up(
        self, info: MatchInfo, public: PublicView, greet: int | None = None
    ) -> MatchInfo:
        """The match's thread (where the server wants one) and board, each made once: shown
        again after a restart, the start finds them. The thread is remembered as soon as it
        exists, before its players are added, so a restart never opens a second one. A
        board already there is left to the board editor, which brings it up to date. The
        match as placed afterwards. The board's first post greets ``greet``, who starts.

        A match outside any server the bot is in has its board already (the interaction's
        message that started it) and no thread."""
        if shown_by_interactions(info):
            return info
        placement = info.placement
        thread: discord.abc.Messageable | None = None
        if placement.thread_id is None and placement.board_message_id is None:
            lang = await self._place.public_language(info)
            thread = await self._open_thread(lang, info, await self._place.raw_names(info))
            if thread is not None:
                info = await self._placements.set_location(info.match_id, thread_id=thread.id)
        if info.placement.board_message_id is None:
            # The players before the board: a restart that finds no board adds them again,
            # which changes nothing for one already in.
            if thread is None:
                thread = await self._place.places.channel(info.placement.thread_id)
            if isinstance(thread, discord.Thread):
                await add_players(thread, info)
            await self._board.post_board(info, public, greet=greet)
            info = await self._queries.match_info(info.match_id)
        return info

    async def _open_thread(
        self, lang: str, info: MatchInfo, names: tuple[str, str]
    ) -> discord.Thread | None:
        if info.channel_id is None or info.guild_id is None:
            return None
        settings = await self._settings.guild_settings(info.guild_id)
        if not self._settings.thread_per_match(settings):
            return None

        async def say(line: str) -> None:
            await self._place.post(info, line)

        return await open_thread(self._place.places, lang, info, names, say)

    async def post(self, info: MatchInfo, step: Post) -> None:
        if shown_by_interactions(info):
            return  # nowhere to post: its board says it
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        lines = [line_text(lang, line, names) for line in step.lines]
        await self._place.post(info, "\n".join(lines), mention=step.mention)

    async def summary(self, info: MatchInfo, step: PostSummary) -> None:
        if shown_by_interactions(info):
            return  # nowhere to post: its board says it
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        summary = round_summary(lang, step.result, names)
        if step.next_starter is not None:
            round_number = step.result.round_number + 1
            nxt = text(
                lang, "summary.next_round", round=round_number, name=names[step.next_starter]
            )
            summary = f"{summary}\n\n{nxt}"
        embed = discord.Embed(description=summary, colour=discord.Colour.gold())
        content = ""
        if step.mention is not None:
            content = text(lang, "match.your_turn", mention=mention(step.mention))
        await self._place.post(info, content, mention=step.mention, embed=embed)

    async def ask_offer(self, info: MatchInfo, step: AskOffer) -> None:
        if shown_by_interactions(info):
            return  # nowhere to post: its board says it
        lang = await self._place.public_language(info)
        await self._offers.ask(step.offer, info, lang, await self._place.names(info))

    async def offer_answered(self, info: MatchInfo, step: OfferAnswered) -> None:
        if shown_by_interactions(info):
            return  # nowhere to post: its board says it
        lang = await self._place.public_language(info)
        await self._offers.answered(step.decision, lang, await self._place.names(info))

    async def result(self, info: MatchInfo, step: PostResult) -> None:
        """The result with the rating change, a rematch and a review button; then the thread
        is closed (an archived thread still shows it, and no longer counts as active)."""
        match_id = info.match_id
        if shown_by_interactions(info):
            self._board.forget(match_id)  # its final board says who won
            return
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        self._offers.forget(match_id)
        view = discord.ui.View(timeout=None)
        lines = [outcome_line(lang, step.outcome, names)]
        ratings = await rating_change_line(self._queries, match_id, names, lang)
        if ratings:
            lines.append(ratings)
        if await locks_when_over(self._place.places, info):
            lines.append(text(lang, "outcome.ai_again"))  # a locked thread's button is dead
            lines.append(text(lang, "review.use_command", match=match_id))
        else:
            label = text(lang, "outcome.rematch_button")
            view.add_item(rematch_button(label, match_id, step.version))
            view.add_item(open_review_button(text(lang, "review.button"), match_id))
            if not info.is_ai_match:
                lines.append(text(lang, "outcome.rematch_hint"))
        await self._place.post(info, "\n".join(lines), view=view)
        await close_thread(self._place.places, info)
        self._board.forget(match_id)

"""A move the service took is never answered with "nothing was changed": when the read that
redraws the private panel after it gets no answer from the database, the player reads the
move's notice, that it was played, and gets a Refresh for later."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.features import Feature
from bot.play.confirm_button import ConfirmButton, done_text
from bot.play.deps import PlayDeps
from bot.play.navigation_buttons import HandButton
from bot.play.panel import Panel
from bot.play.take_button import TakeButton
from bot.words.decision_words import taken_words
from bot.words.i18n import text
from engine.model import MatchInfo, MatchStatus
from engine.rules import Decision, Gift, PlayerView, new_game, view
from engine.rules.decisions import GiftChoice
from engine.rules.views import public_move
from engine.service import SubmitResult
from engine.store.errors import DatabaseUnavailable
from tests.bot.fakes import (
    FakeDirectMessages,
    FakeHints,
    FakeInteraction,
    FakeNames,
    FakeQueries,
    layout_texts,
)
from tests.builders import match_info

ANA, BEN = 11, 12


@dataclass
class StallsAfterTheMove(FakeQueries):
    """The match's queries; once the move is in, the database stops answering reads."""

    moved: bool = False

    async def view_for(self, match_id: int, user_id: int) -> PlayerView:
        if self.moved:
            raise DatabaseUnavailable("test.sqlite3", "no answer in time")
        return await super().view_for(match_id, user_id)


@dataclass
class TakingCommands:
    """The service's commands: every submission is taken (committed)."""

    queries: StallsAfterTheMove
    submitted: list[Decision] = field(default_factory=list)

    async def submit(
        self, match_id: int, user_id: int, decision: Decision, expected_version: int
    ) -> SubmitResult:
        self.submitted.append(decision)
        self.queries.moved = True
        game = new_game(seed=5)  # the move as spectators see it: the bot does not show it here
        move = public_move(game, game.legal_decisions()[0])
        return SubmitResult(match_id, expected_version + 1, move, False, None)


class Played(Feature):
    pass


def setting(chooser: bool) -> tuple[MatchInfo, PlayerView, discord.ui.Item[Any], str]:
    """ANA's private panel and what she presses on it: a Confirm of her first action, or
    (``chooser``) a Take of what BEN gave her. With the notice she must read after it."""
    game = new_game(seed=5)
    if chooser:
        gift = next(d for d in game.legal_decisions() if isinstance(d, Gift))
        game.apply(gift)
        choice = GiftChoice(0)
        item: Any = TakeButton(7, game.version, choice)
        notice = text("en", "panel.took", cards=taken_words("en", choice))
    else:
        decision = game.legal_decisions()[0]
        item = ConfirmButton(7, game.version, decision)
        notice = done_text("en", decision)
    seat = game.current_player
    assert seat is not None
    players = (ANA, BEN) if seat == 0 else (BEN, ANA)
    return match_info(7, players, MatchStatus.ACTIVE), view(game, seat), item, notice


@pytest.mark.parametrize("chooser", [False, True], ids=["confirm", "take"])
async def test_a_move_taken_is_reported_as_played_when_the_redraw_gets_no_answer(chooser):
    info, seen, item, notice = setting(chooser)
    queries = StallsAfterTheMove(info=info, seen=seen)
    commands_ = TakingCommands(queries)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    panel = Panel(
        queries,  # type: ignore[arg-type]
        FakeNames(),  # type: ignore[arg-type]
        FakeDirectMessages(),  # type: ignore[arg-type]
        FakeHints({}),  # type: ignore[arg-type]
    )
    deps = PlayDeps(
        queries=queries,  # type: ignore[arg-type]
        names=FakeNames(),  # type: ignore[arg-type]
        commands=commands_,  # type: ignore[arg-type]
        placements=None,  # type: ignore[arg-type]
        panel=panel,
    )
    await bot.add_cog(Played(deps))
    private_panel = SimpleNamespace(flags=SimpleNamespace(ephemeral=True))
    press = FakeInteraction.by(ANA, client=bot, message=private_panel)

    assert await item.interaction_check(press)  # type: ignore[arg-type]
    await item.callback(press)  # type: ignore[arg-type]

    assert len(commands_.submitted) == 1
    assert press.followup.sent == []  # no refusal: nothing says "nothing was changed"
    [shown] = press.response.updated  # the panel redrawn as the first response
    assert layout_texts(shown)[0] == notice  # the move's own notice, as after any move
    assert press.shown == text("en", "database.played_not_redrawn")
    [refresh] = [i for i in shown["view"].walk_children() if isinstance(i, HandButton)]
    assert refresh.version == seen.table.version + 1

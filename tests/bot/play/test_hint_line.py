"""The hint line of a hint match against the AI: in the panel of the player to decide, in the
panel's own words, never in a match without hints, and never a wait of more than a moment."""

from __future__ import annotations

from dataclasses import replace

from bot.play.board import board_page
from bot.play.hint_line import hint_line, hint_text
from bot.play.panel import home_page
from bot.words.i18n import text
from engine.model import AI_USER_ID
from engine.review.hint import Suggestion
from engine.rules import (
    Gift,
    Secret,
    new_game,
    public_view,
)
from engine.service import MatchInfo, MatchStatus
from tests.bot.fakes import FakeHints
from tests.builders import first_deal_views, match_info

ANA = 11
BEN = 12


def _info(*, hints: bool, players: tuple[int, int]) -> MatchInfo:
    return match_info(7, players, MatchStatus.ACTIVE, hints=hints)


def test_a_hint_reads_as_the_panel_words_the_move_and_the_chance():
    shown = hint_text("en", Suggestion(Gift((0, 1, 2)), 0.6249))
    assert shown == "💡 **Hint:** Gift A B C — your chance of winning about 62%"


def test_a_hint_is_in_spanish_for_a_spanish_reader():
    shown = hint_text("es", Suggestion(Secret(4), 0.5))
    assert shown.startswith("💡 **Pista:** ")
    assert "50%" in shown and text("es", "actions.secret") in shown


def test_a_chance_is_shown_as_a_whole_percentage_within_bounds():
    assert hint_text("en", Suggestion(Secret(0), 1.0)).endswith("about 100%")
    assert hint_text("en", Suggestion(Secret(0), 0.004)).endswith("about 0%")


def test_the_first_page_shows_the_hint_under_whose_turn_it_is():
    mine, _ = first_deal_views()
    line = hint_text("en", Suggestion(mine.legal[0], 0.62))
    page = home_page("en", mine, 7, ("ana", "AI (normal)"), hint=line)
    lines = page.text.splitlines()
    assert lines[-1] == line
    assert lines[-2].startswith("👉 **Your turn.**")


def test_the_first_page_without_a_hint_has_no_hint_line():
    mine, _ = first_deal_views()
    page = home_page("en", mine, 7, ("ana", "AI (normal)"))
    assert "💡" not in page.text


async def test_the_player_to_decide_in_a_hint_match_gets_the_hint():
    mine, _ = first_deal_views()
    hints = FakeHints({ANA: mine})
    info = _info(hints=True, players=(ANA, AI_USER_ID) if mine.player == 0 else (AI_USER_ID, ANA))
    line = await hint_line("en", hints, info, mine, wait=2.0)
    assert line == hint_text("en", Suggestion(mine.legal[0], 0.62))
    assert hints.asked == [(7, ANA, mine.table.version)]


async def test_a_match_without_hints_never_asks_for_one():
    mine, theirs = first_deal_views()
    players = (ANA, BEN) if mine.player == 0 else (BEN, ANA)
    hints = FakeHints({ANA: mine, BEN: theirs})
    line = await hint_line("en", hints, _info(hints=False, players=players), mine, wait=2.0)
    assert line == ""
    assert hints.asked == []


async def test_the_seat_that_is_not_deciding_gets_no_hint():
    _, theirs = first_deal_views()
    players = (ANA, AI_USER_ID) if theirs.player == 0 else (AI_USER_ID, ANA)
    hints = FakeHints({ANA: theirs})
    assert await hint_line("en", hints, _info(hints=True, players=players), theirs, wait=2.0) == ""
    assert hints.asked == []


async def test_a_slow_hint_says_it_is_thinking_and_is_still_worked_out():
    mine, _ = first_deal_views()
    players = (ANA, AI_USER_ID) if mine.player == 0 else (AI_USER_ID, ANA)
    hints = FakeHints({ANA: mine}, released=False)  # answers only once released
    line = await hint_line("en", hints, _info(hints=True, players=players), mine, wait=0)
    assert line == text("en", "ai_hints.thinking")
    assert not hints.answered.done()
    hints.release.set()
    await hints.answered  # not cancelled with the panel: ready for the Refresh


async def test_a_hint_for_a_position_the_match_has_left_is_not_shown():
    mine, _ = first_deal_views()
    players = (ANA, AI_USER_ID) if mine.player == 0 else (AI_USER_ID, ANA)
    # The match moved on after this page's view was read: the service is a version ahead.
    ahead = replace(mine, table=replace(mine.table, version=mine.table.version + 1))
    hints = FakeHints({ANA: ahead})
    info = _info(hints=True, players=players)
    assert await hint_line("en", hints, info, mine, wait=2.0) == ""
    assert hints.asked == [(7, ANA, mine.table.version)]


async def test_a_failing_hint_leaves_the_panel_without_a_line():
    mine, _ = first_deal_views()
    players = (ANA, AI_USER_ID) if mine.player == 0 else (AI_USER_ID, ANA)

    class Broken:
        async def hint(
            self, match_id: int, user_id: int, *, version: int | None = None
        ) -> Suggestion | None:
            raise RuntimeError("the AI worker died")

    assert await hint_line("en", Broken(), _info(hints=True, players=players), mine, wait=2) == ""


async def test_the_board_of_a_hint_match_says_so_in_its_title_in_both_languages():
    table = public_view(new_game(seed=5))
    names = ("ana", "AI (normal)")
    plain = await board_page("en", 7, table, names, ai_seat=1)
    hinted = await board_page("en", 7, table, names, ai_seat=1, hints=True)
    hinted_es = await board_page("es", 7, table, names, ai_seat=1, hints=True)
    assert "hint match" not in plain.title
    assert hinted.title == f"{plain.title} · 💡 hint match"
    assert "partida con pistas" in hinted_es.title
    # The picture is the same with or without hints: a review draws it again.
    assert hinted.image == plain.image
    assert hinted.text == plain.text

"""A board edit that would change nothing is not sent; any change at all is."""

from __future__ import annotations

import discord

from bot.discord_plumbing.pages import Page
from bot.play.shown_boards import ShownBoards

BOARD = Page(
    text="Round 1",
    title="ana vs ben",
    rows=((discord.ui.Button(label="Hand", custom_id="hk:1:4:hand"),),),
    image=("board.png", b"png-1"),
    image_description="Hanamikoji board, round 1.",
)


def test_the_same_page_again_would_change_nothing():
    shown = ShownBoards()
    assert shown.would_change(10, BOARD)
    shown.shown(10, BOARD)
    assert not shown.would_change(10, BOARD)
    assert shown.would_change(11, BOARD), "another message shows nothing yet"


def test_any_difference_a_reader_could_notice_is_a_change():
    shown = ShownBoards()
    shown.shown(10, BOARD)
    newer_button = discord.ui.Button(label="Hand", custom_id="hk:1:5:hand")
    for changed in (
        Page(**{**vars_of(BOARD), "text": "Round 2"}),
        Page(**{**vars_of(BOARD), "image": ("board.png", b"png-2")}),
        Page(**{**vars_of(BOARD), "image_description": "Hanamikoji board, round 2."}),
        Page(**{**vars_of(BOARD), "rows": ((newer_button,),)}),
        Page(**{**vars_of(BOARD), "notice": "Refused"}),
    ):
        assert shown.would_change(10, changed)
    assert shown.would_change(10, BOARD, (False, True)), "the picture may no longer be shown"


def test_the_least_recently_shown_boards_are_forgotten_first():
    shown = ShownBoards(remembered=2)
    for message_id in (1, 2, 3):
        shown.shown(message_id, BOARD)
    assert shown.would_change(1, BOARD)
    assert not shown.would_change(3, BOARD)


def vars_of(page: Page) -> dict[str, object]:
    return {f: getattr(page, f) for f in page.__dataclass_fields__}

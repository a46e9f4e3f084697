"""The slot through which a press on a board carries the board's next edit: taken by the
edit that shows a later version than the one pressed, once; a refused press leaves it."""

from __future__ import annotations

import doctest

from bot.play import board_interactions
from bot.play.board_interactions import BoardInteractions


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(board_interactions).failed == 0


def test_a_later_press_replaces_an_earlier_one_and_a_refused_one_leaves_the_slot():
    slots = BoardInteractions[str]()
    slots.leave(1, pressed_on=4, interaction="first", note="")
    slots.leave(1, pressed_on=4, interaction="second", note="")
    slots.withdraw(1, "first")  # refused, but no longer the one waiting: nothing changes
    press = slots.take(1, showing=5)
    assert press is not None and press.interaction == "second"
    slots.leave(1, pressed_on=5, interaction="third", note="")
    slots.withdraw(1, "third")
    assert slots.take(1, showing=6) is None


def test_a_withdrawn_edit_gives_its_press_back_unless_a_newer_one_waits():
    slots = BoardInteractions[str]()
    slots.leave(1, pressed_on=4, interaction="a", note="")
    press = slots.take(1, showing=5)
    assert press is not None
    slots.put_back(1, press)
    assert slots.take(1, showing=5) is press
    slots.leave(1, pressed_on=5, interaction="b", note="")
    slots.put_back(1, press)
    again = slots.take(1, showing=6)
    assert again is not None and again.interaction == "b"


def test_the_presses_of_a_finished_match_are_forgotten():
    slots = BoardInteractions[str]()
    slots.leave(1, pressed_on=4, interaction="a", note="")
    slots.leave(2, pressed_on=4, interaction="b", note="")
    slots.forget(1)
    assert slots.take(1, showing=9) is None
    assert slots.take(2, showing=9) is not None


def test_only_the_latest_presses_are_kept():
    slots = BoardInteractions[str](remembered=2)
    for match_id in (1, 2, 3):
        slots.leave(match_id, pressed_on=0, interaction=str(match_id), note="")
    assert slots.take(1, showing=1) is None, "the oldest press was dropped"
    assert slots.take(3, showing=1) is not None

"""A streak's pages: the run so far in the title, the choices with streak ids that tell
nothing of the answer; once answered, the verdict, the run going on with Next in streak or
over with New streak and the rated puzzles; the top of the ladder; in both languages."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import discord

from bot.custom_ids import Prefix
from bot.puzzles.streak_page import climbed_page, streak_answered_page, streak_page
from engine.model.puzzles import PuzzleStanding, StreakRun
from engine.puzzles import puzzle_view
from engine.ratings.glicko2 import Glicko2Rating
from engine.service.puzzles.service import PosedPuzzle, PuzzleAnswer
from engine.service.puzzles.streaks import StreakStep
from tests.bot.puzzles.conftest import BUILTIN

KEY = "builtin/2/18"


def posed() -> PosedPuzzle:
    found = BUILTIN[KEY]
    view = puzzle_view(found.record, found.puzzle.step)
    return PosedPuzzle(KEY, found.puzzle, view, Glicko2Rating(), None, None)


def answered(choice: str, solved: bool, after_run: StreakRun | None) -> PuzzleAnswer:
    run = StreakRun(KEY, 1500.0, 0.2, solved=3)
    before = PuzzleStanding(1, 11, run=run, run_best=5)
    after = replace(before, run=after_run)
    return PuzzleAnswer(KEY, choice, solved, BUILTIN[KEY].puzzle, before, after)


def ids(page) -> list[list[str]]:
    return [[b.custom_id for b in row] for row in page.rows]


def test_a_posed_streak_puzzle_shows_the_run_and_streak_choices():
    page = asyncio.run(streak_page("en", StreakStep(posed(), 3, 5)))
    assert page.title == "🔥 Puzzle streak · 3 solved · best 5"
    assert "Unrated: each puzzle is harder than the last, and one miss ends the streak." in (
        page.text
    )
    puzzle = BUILTIN[KEY].puzzle
    [choices] = ids(page)
    assert choices == [f"{Prefix.PUZZLE_STREAK}:{KEY}:{c.decision}" for c in puzzle.choices]
    assert page.image is not None and page.image[0] == "board.png"
    spanish = asyncio.run(streak_page("es", StreakStep(posed(), 3, 5)))
    assert spanish.title == "🔥 Racha de problemas · 3 resueltos · mejor 5"


def test_a_solve_goes_on_with_next_in_streak():
    puzzle = BUILTIN[KEY].puzzle
    on = StreakRun(KEY, 1500.0, 0.2, solved=4, answered=True)
    page = asyncio.run(streak_answered_page("en", answered(puzzle.solution, True, on), posed()))
    assert page.title == "🔥 Puzzle streak · ✅ solved"
    assert "✅ **Solved!**" in page.text
    assert "🔥 **4 in a row** (best 5). The next one is harder." in page.text
    choices, after = page.rows
    assert all(b.disabled for b in choices)
    assert [b.label for b in after] == ["Next in streak"] and after[0].custom_id == "pzs:next"
    solution = next(b for b in choices if b.custom_id.endswith(f":{puzzle.solution}"))
    assert solution.style is discord.ButtonStyle.success


def test_a_miss_ends_the_run_with_new_streak_and_the_rated_puzzles():
    puzzle = BUILTIN[KEY].puzzle
    wrong = next(c.decision for c in puzzle.choices if not puzzle.solved_by(c.decision))
    page = asyncio.run(streak_answered_page("en", answered(wrong, False, None), None))
    assert page.title == "🔥 Puzzle streak · ❌ over"
    assert "❌ **Missed.**" in page.text and "Streak over: **3 in a row** (best 5)." in page.text
    assert page.image is None, "the puzzle is gone: the verdict without the position"
    _, after = page.rows
    assert [(b.label, b.custom_id) for b in after] == [
        ("New streak", "pzs:new"),
        ("Next puzzle", "pz:next"),
    ]
    spanish = asyncio.run(streak_answered_page("es", answered(wrong, False, None), None))
    assert "Racha terminada: **3 seguidos** (mejor 5)." in spanish.text


def test_the_top_of_the_ladder_says_the_run_stands_and_none_at_all_says_so():
    page = climbed_page("en", 6, 6)
    assert "your streak stands unbroken at **6** (best 6)" in page.text
    assert [b.custom_id for row in page.rows for b in row] == ["pz:next"]
    empty = climbed_page("en", 0, 6)
    assert empty.text.startswith("You have tried every puzzle") and empty.rows == ()

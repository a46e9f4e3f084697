"""A member's puzzle line in `/hanamikoji stats` and a server's puzzle leaderboard, in both
languages."""

from __future__ import annotations

from bot.stats.puzzle_leaderboard import puzzle_leaderboard_text, puzzle_standing_lines
from engine.model.puzzles import PuzzleStanding
from engine.ratings.glicko2 import Glicko2Rating


def test_the_stats_line_says_rating_solved_and_best_streak():
    standing = PuzzleStanding(1, 11, Glicko2Rating(1662.4, 290.0), 15, 12, 2, 4)
    assert puzzle_standing_lines("en", standing) == [
        "Puzzles: rating **1662?** · 12 solved of 15 · best streak 4"
    ]
    [spanish] = puzzle_standing_lines("es", standing)
    assert spanish.startswith("Problemas: puntuación **1662?**")


def test_the_streak_modes_best_run_has_its_own_line_and_no_puzzle_none():
    streaker = PuzzleStanding(1, 11, run_best=7)
    assert puzzle_standing_lines("en", streaker) == ["Puzzle streak mode: best run **7**"]
    both = PuzzleStanding(1, 11, Glicko2Rating(1500.0, 350.0), 1, 1, 1, 1, run_best=2)
    assert len(puzzle_standing_lines("es", both)) == 2
    assert puzzle_standing_lines("en", PuzzleStanding(1, 11)) == []


def test_the_leaderboard_ranks_as_given_and_says_when_empty():
    standings = [
        PuzzleStanding(1, 11, Glicko2Rating(1700.0, 60.0), 20, 16),
        PuzzleStanding(1, 12, Glicko2Rating(1550.0, 60.0), 9, 5),
    ]
    said = puzzle_leaderboard_text("en", standings, {11: "ana", 12: "ben"})
    assert said.splitlines() == [
        "**1.** ana — **1700** · 16 solved of 20",
        "**2.** ben — **1550** · 5 solved of 9",
    ]
    assert "`/hanamikoji puzzle`" in puzzle_leaderboard_text("en", [], {})

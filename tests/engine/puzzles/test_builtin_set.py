"""The built-in puzzles a server has on day one: the shipped file reads, every puzzle is a
real position of its match posed from its mover's view, and the file is what its matches
give again (the first one is played, reviewed and searched again here)."""

from __future__ import annotations

from engine.puzzles import puzzle_view
from engine.puzzles.builtin import BUILTIN_MATCHES, builtin_puzzles, puzzles_of_match
from engine.review.steps import match_steps
from engine.rules.views import view


def test_the_shipped_set_has_a_puzzle_for_most_of_its_matches():
    shipped = builtin_puzzles()
    assert len(shipped) >= BUILTIN_MATCHES // 2
    assert len({p.key for p in shipped}) == len(shipped)


def test_every_builtin_puzzle_is_its_movers_position_and_one_choice_solves_it():
    for entry in builtin_puzzles():
        puzzle = entry.puzzle
        state = next(s for step, s in match_steps(entry.record) if step.index == puzzle.step)
        seen = puzzle_view(entry.record, puzzle.step)
        assert seen == view(state, puzzle.seat)
        legal = {str(d) for d in seen.legal}
        assert {c.decision for c in puzzle.choices} <= legal
        assert [c.decision for c in puzzle.choices if puzzle.solved_by(c.decision)] == [
            puzzle.solution
        ]
        assert puzzle.played != puzzle.solution and puzzle.played in legal


def test_the_file_is_what_its_first_match_gives_again():
    shipped = [p for p in builtin_puzzles() if p.key.startswith("builtin/0/")]
    again = puzzles_of_match(0)
    assert [(p.key, p.puzzle, p.record) for p in again] == [
        (p.key, p.puzzle, p.record) for p in shipped
    ]

"""A puzzle as the store keeps it: its JSON reads back as the same puzzle, a damaged one is
refused quoting it, and a choice solves it only within the margin of the best."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.puzzles import Choice, Puzzle, PuzzleFormatError, Reason, ReasonKind
from tests.engine.puzzles.conftest import Generated

_DECISIONS = ("1A", "2FG", "3EEG", "4ABEG", "-E", "-AB", "3CDD", "1G")


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    decisions = draw(
        st.lists(st.sampled_from(_DECISIONS), min_size=2, max_size=4, unique=True).map(sorted)
    )
    chance = st.floats(min_value=0.0, max_value=1.0)
    choices = tuple(Choice(d, draw(chance)) for d in decisions)
    solution, played = draw(st.permutations(decisions))[:2]
    return Puzzle(
        step=draw(st.integers(1, 80)),
        seat=draw(st.integers(0, 1)),
        round_number=draw(st.integers(1, 9)),
        choices=choices,
        solution=solution,
        played=played,
        reason=Reason(
            draw(st.sampled_from(ReasonKind)),
            tuple(draw(st.lists(st.integers(0, 6), max_size=3, unique=True).map(sorted))),
        ),
        iterations=draw(st.integers(1, 100_000)),
        solved_margin=draw(st.floats(min_value=0.0, max_value=0.1)),
    )


@given(puzzles())
def test_a_puzzles_json_reads_back_as_the_same_puzzle(puzzle: Puzzle) -> None:
    text = puzzle.to_json()
    assert Puzzle.from_json(text) == puzzle
    assert Puzzle.from_json(text).to_json() == text


def test_every_generated_puzzle_reads_back_from_its_json(generated: list[Generated]) -> None:
    for item in generated:
        assert Puzzle.from_json(item.puzzle.to_json()) == item.puzzle


_GOOD = (
    '{"format":1,"step":24,"seat":1,"round":2,"choices":[["-DF",0.0],["-EG",0.75]],'
    '"solution":"-EG","played":"-DF","reason":["denies",[4,6]],"iterations":4000,'
    '"margin":0.02}'
)


def test_the_stored_form_of_a_puzzle_reads() -> None:
    puzzle = Puzzle.from_json(_GOOD)
    assert puzzle.solution == "-EG" and puzzle.chance_of("-DF") == 0.0
    assert puzzle.reason == Reason(ReasonKind.DENIES, (4, 6))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "null",
        "[]",
        "{}",
        _GOOD.replace('"format":1', '"format":2'),
        _GOOD.replace('"step":24,', ""),
        _GOOD.replace('"step":24', '"step":"x"'),
        _GOOD.replace('["denies",[4,6]]', '["because",[4,6]]'),
        _GOOD.replace('["denies",[4,6]]', '"denies"'),
        _GOOD.replace('[["-DF",0.0],["-EG",0.75]]', '[["-DF"],["-EG",0.75]]'),
        _GOOD.replace('[["-DF",0.0],["-EG",0.75]]', "7"),
        _GOOD.replace('"solution":"-EG"', '"solution":"-CC"'),  # not a choice
        _GOOD.replace('"played":"-DF"', '"played":"1A"'),  # not a choice
        _GOOD.replace('"margin":0.02', '"margin":null'),
        "[" * 100_000,  # deep enough to exhaust the JSON reader's stack
    ],
)
def test_a_damaged_puzzle_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(PuzzleFormatError) as raised:
        Puzzle.from_json(text)
    assert repr(text[:20])[:-1] in str(raised.value)


def test_a_choice_solves_only_within_the_margin_of_the_best() -> None:
    puzzle = Puzzle(
        step=5,
        seat=0,
        round_number=1,
        choices=(
            Choice("1A", 0.50),
            Choice("1B", 0.69),
            Choice("1C", 0.70),
            Choice("1D", 0.67),
        ),
        solution="1C",
        played="1A",
        reason=Reason(ReasonKind.CHANCE),
        iterations=400,
        solved_margin=0.02,
    )
    assert [c.decision for c in puzzle.choices if puzzle.solved_by(c.decision)] == ["1B", "1C"]
    with pytest.raises(KeyError, match="1E"):
        puzzle.solved_by("1E")


def test_exactly_one_button_solves_a_generated_puzzle(generated: list[Generated]) -> None:
    for item in generated:
        puzzle = item.puzzle
        solving = [c.decision for c in puzzle.choices if puzzle.solved_by(c.decision)]
        assert solving == [puzzle.solution], puzzle
        assert not puzzle.solved_by(puzzle.played)

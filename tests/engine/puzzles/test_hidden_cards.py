"""A puzzle never shows a card its mover could not see: its picture is the mover's own view
of the position, and its words (choices, answer, move played, reason) come from that view
only, never from the opponent's hand, Secret or Trade-off."""

from __future__ import annotations

import json
from dataclasses import replace

from engine.puzzles import Puzzle, Reason, ReasonKind, puzzle_view, reason_for
from engine.review.steps import match_steps
from engine.rules.cards import card_letter
from engine.rules.decisions import parse_decision
from engine.rules.record import MatchRecord
from engine.rules.state import GameState
from engine.rules.views import view
from tests.engine.puzzles.conftest import Generated

_WORDS = {"format", "step", "seat", "round", "choices", "solution", "played", "reason"}
_NUMBERS = {"iterations", "margin"}


def _state_before(record: MatchRecord, index: int) -> GameState:
    return next(state for step, state in match_steps(record) if step.index == index)


def unseen_shown(record: MatchRecord, puzzle: Puzzle, shown: object) -> list[str]:
    """What ``puzzle`` and its picture ``shown`` give away that the mover could not see."""
    state = _state_before(record, puzzle.step)
    mover = view(state, puzzle.seat)
    problems = []
    if shown != mover:
        problems.append("the picture is not the mover's view")
    data = json.loads(puzzle.to_json())
    if set(data) != _WORDS | _NUMBERS:
        problems.append(f"the puzzle has other fields: {sorted(set(data) - _WORDS - _NUMBERS)}")
    # A legal decision only names cards of the mover's own hand or of the offer on the
    # table: a card from anywhere else is one the mover could not see.
    legal = {str(d) for d in mover.legal}
    named = [d for d, _ in data["choices"]] + [data["solution"], data["played"]]
    problems += [f"{text} is no decision of the mover's" for text in named if text not in legal]
    known = reason_for(mover, parse_decision(data["solution"]), parse_decision(data["played"]))
    if data["reason"] != [str(known.kind), list(known.geishas)]:
        problems.append(f"the reason {data['reason']} is not what the mover's view tells")
    return problems


def test_no_puzzle_shows_a_card_its_mover_could_not_see(generated: list[Generated]) -> None:
    for item in generated:
        shown = puzzle_view(item.record, item.puzzle.step)
        assert unseen_shown(item.record, item.puzzle, shown) == [], item.puzzle


def test_the_check_catches_the_opponents_view_or_the_whole_state(
    generated: list[Generated],
) -> None:
    item = generated[0]
    state = _state_before(item.record, item.puzzle.step)
    opponent = 1 - item.puzzle.seat
    assert unseen_shown(item.record, item.puzzle, view(state, opponent))
    assert unseen_shown(item.record, item.puzzle, state)
    # The mover's view with the opponent's hand in it.
    everything = replace(view(state, item.puzzle.seat), hand=state.hand_cards(opponent))
    assert state.hand_cards(opponent) != state.hand_cards(item.puzzle.seat)
    assert unseen_shown(item.record, item.puzzle, everything)


def test_the_check_catches_words_naming_an_opponents_hidden_card(
    generated: list[Generated],
) -> None:
    for item in generated:
        state = _state_before(item.record, item.puzzle.step)
        mover, opponent = item.puzzle.seat, 1 - item.puzzle.seat
        hidden = set(state.hand_cards(opponent))
        secret, trade_off = state.secret[opponent], state.tradeoff[opponent]
        hidden.update(() if secret is None else (secret,), trade_off or ())
        mine = set(state.hand_cards(mover))
        unseen = sorted(hidden - mine)
        if unseen:
            break
    else:
        raise AssertionError("some puzzle's opponent should hide a card its mover lacks")
    shown = puzzle_view(item.record, item.puzzle.step)
    assert unseen_shown(item.record, item.puzzle, shown) == []
    letter = card_letter(unseen[0])

    leaked_played = replace(item.puzzle, played=f"1{letter}")
    assert unseen_shown(item.record, leaked_played, shown)
    leaked_choice = replace(
        item.puzzle,
        choices=tuple(
            replace(c, decision=f"1{letter}") if c.decision == item.puzzle.solution else c
            for c in item.puzzle.choices
        ),
        solution=f"1{letter}",
    )
    assert unseen_shown(item.record, leaked_choice, shown)
    told = next(
        r
        for r in (
            Reason(ReasonKind.MAJORITY, (unseen[0],)),
            Reason(ReasonKind.DENIES, (unseen[0],)),
        )
        if r != item.puzzle.reason
    )
    assert unseen_shown(item.record, replace(item.puzzle, reason=told), shown)

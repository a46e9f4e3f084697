"""A match record replayed one decision at a time: the positions a review steps through.

Step 0 is the first deal; step ``k`` (1-based) is the table right after the match's
``k``-th decision, which is what the thread's board showed then. A resignation or a
timeout is not a decision: it only changes the last step's outcome.

A step also carries the number the match's Moves log gives it: the log counts a round's
moves (an offer and the take that answers it are one move), so a take shares its offer's
number.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.rules.decisions import CompetitionChoice, Decision, GiftChoice
from engine.rules.record import MatchRecord, replay
from engine.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Step:
    """The ``index``-th decision of a match (1-based), and who made it in which round."""

    index: int
    round_number: int
    player: int
    decision: Decision
    move_number: int
    """The move's number within its round as the Moves log numbers it (1 to 8); a take
    has the number of the offer it answers."""

    @property
    def answers_offer(self) -> bool:
        """Whether this decision takes from an opponent's Gift or Competition."""
        return isinstance(self.decision, GiftChoice | CompetitionChoice)


def match_steps(record: MatchRecord) -> Iterator[tuple[Step, GameState]]:
    """Each decision with the state it was applied to (a copy the caller may keep)."""
    final = replay(record)
    state = GameState(first_player=record.first_player, variant=record.variant, deals=final.deals)
    index = 0
    for round_log in final.log:
        moves = 0
        for decision in round_log:
            index += 1
            if not isinstance(decision, GiftChoice | CompetitionChoice):
                moves += 1
            step = Step(index, state.round_number, state.to_move, decision, moves)
            yield step, state.clone()
            state.apply_unchecked(decision)


def step_count(record: MatchRecord) -> int:
    """How many decisions the match had."""
    return sum(len(round_log) for round_log in replay(record).log)


def state_at(record: MatchRecord, step: int) -> GameState:
    """The state after ``step`` decisions (0: the first deal); the last step includes how
    the match ended, a resignation or timeout too."""
    final = replay(record)
    total = sum(len(round_log) for round_log in final.log)
    if not 0 <= step <= total:
        raise ValueError(f"step must be between 0 and {total}, got {step!r}")
    if step == total:
        return final  # the replayed match itself: it alone knows how the match ended
    for current, state in match_steps(record):
        if current.index == step + 1:
            return state  # the state the next decision was applied to
    raise AssertionError("unreachable: step < total has a next decision")

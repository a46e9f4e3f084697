"""Why the answer is better, from hand-built positions: a Gift or Secret that secures a
majority the move played did not (more than half a geisha's charm, the mover's side and
own Secret counted), a Gift that lets the opponent take one, or only the chances."""

from __future__ import annotations

from dataclasses import replace

from engine.puzzles import Reason, ReasonKind, reason_for
from engine.rules.cards import parse_card
from engine.rules.deal import Deal
from engine.rules.decisions import parse_decision
from engine.rules.state import GameState
from engine.rules.views import PlayerView, view

D = parse_card("D")

# Player 0 starts and draws the pile in turn with player 1: A, B, C, E, ...
_DEAL = Deal.from_text("G", ("DDDABC", "EEFFGG"), "ABCEFFGG")


def mover_after(*moves: str) -> PlayerView:
    """Player 0's view after ``moves`` (decisions in notation), player 0 to decide."""
    state = GameState(first_player=0, deals=[_DEAL])
    for text in moves:
        state.apply(parse_decision(text))
    assert state.current_player == 0
    return view(state, 0)


def why(seen: PlayerView, best: str, played: str) -> Reason:
    assert {parse_decision(best), parse_decision(played)} <= set(seen.legal)
    return reason_for(seen, parse_decision(best), parse_decision(played))


def test_a_gift_of_three_of_a_kind_secures_her_whichever_card_is_taken() -> None:
    # 3DDD leaves at least DD on the mover's side: 2 of D's 3.
    seen = mover_after()
    assert why(seen, "3DDD", "3ABC") == Reason(ReasonKind.MAJORITY, (D,))
    assert why(seen, "3ABC", "3DDD") == Reason(ReasonKind.CHANCE)


def test_a_secret_that_completes_a_majority_on_the_mover_side_secures_it() -> None:
    # 3ABD-A put B and D on player 0's side; a Secret D makes two of D's three.
    seen = mover_after("3ABD", "-A", "2EE")
    assert seen.table.items[0][D] == 1
    assert why(seen, "1D", "1C") == Reason(ReasonKind.MAJORITY, (D,))


def test_the_movers_own_secret_counts_toward_a_gifts_majority() -> None:
    # Secret D first: a Gift of A, D, D leaves at least one D on the side, two with the Secret.
    seen = mover_after("1D", "2EE")
    assert seen.secret == D
    assert why(seen, "3ADD", "3ABC") == Reason(ReasonKind.MAJORITY, (D,))
    # Without the Secret, the opponent taking a D would leave the mover only one.
    assert why(replace(seen, secret=None), "3ADD", "3ABC") == Reason(ReasonKind.CHANCE)


def test_a_gift_that_lets_the_opponent_take_a_majority_the_answer_does_not_denies_it() -> None:
    # 4ADBD-AD put a D on player 1's side: a Gift with another D offers them two of three.
    seen = mover_after("4ADBD", "-AD", "2EE")
    assert seen.table.items[1][D] == 1
    assert why(seen, "2CD", "3CCD") == Reason(ReasonKind.DENIES, (D,))
    assert why(seen, "3CCD", "2CD") == Reason(ReasonKind.CHANCE)


def test_without_a_majority_between_them_only_the_chances_tell() -> None:
    seen = mover_after()
    assert why(seen, "1A", "1B") == Reason(ReasonKind.CHANCE)
    assert why(seen, "2AB", "4ABCD") == Reason(ReasonKind.CHANCE)
    # Both secure D: nothing tells them apart but the chances.
    assert why(seen, "3DDD", "3DDD") == Reason(ReasonKind.CHANCE)

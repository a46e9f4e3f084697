"""The fast play-out: finish_round's policy move for move, valued by the match chance."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.ai.determinize import Determinizer
from engine.ai.ismcts import finish_round
from engine.ai.match_chance import leaf_value, match_chance
from engine.ai.playout import (
    _chooser_best,
    choice_score,
    least_helpful_offer,
    offer_options,
    offer_parts,
    play_out_value,
    policy_cards,
)
from engine.rules import GameState, view
from engine.rules.decisions import Action, Competition, Gift
from tests.engine.ai.positions import positions


def mid_round(seed: int) -> list[GameState]:
    """Determinized states of random games, from every seat's view, where a round is on."""
    rng = random.Random(seed)
    found = []
    for state in positions(seed, games=2):
        if state.turn == 0 and not state.log[-1]:
            continue  # a round not begun yet: nothing to play out
        player = state.current_player
        assert player is not None
        found.append(Determinizer(view(state, player)).sample(rng))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_it_ends_every_round_as_finish_round_does_from_the_same_seed(seed: int) -> None:
    # The chance table was fitted on rounds finish_round played: the fast play-out must
    # play the same policy for the table to value its ends right.
    for index, state in enumerate(mid_round(seed)):
        slow = state.clone()
        finish_round(slow, slow.round_index, random.Random(index))
        assert play_out_value(state, random.Random(index)) == leaf_value(slow)


def test_it_leaves_the_state_as_it_was() -> None:
    state = mid_round(7)[5]
    before = state.clone()
    play_out_value(state, random.Random(1))
    assert [getattr(state, name) for name in GameState.__slots__] == [
        getattr(before, name) for name in GameState.__slots__
    ]


def test_a_scored_round_or_finished_match_is_valued_as_it_stands() -> None:
    state = GameState(seed=3, first_player=1)
    state.favor = [0, 0, None, None, None, 1, 1]
    assert play_out_value(state, random.Random(0)) == 2 * match_chance(state) - 1
    state.resign(0)
    assert play_out_value(state, random.Random(0)) == -1.0


def chooser_gain(
    action: Action,
    cards: list[int],
    placed: list[list[int]],
    secret: list[int | None],
    offerer: int = 0,
) -> float:
    """What the chooser's best part of ``offerer``'s offer of ``cards`` is worth to them, by
    the rules' offer parts and the public choice score, not the play-out's precomputed
    options: the tests check the policy against an independent account."""
    chooser = 1 - offerer
    offer = (
        Gift((cards[0], cards[1], cards[2]))
        if action is Action.GIFT
        else Competition(((cards[0], cards[1]), (cards[2], cards[3])))
    )
    return max(
        choice_score(part, placed[chooser], placed[offerer], secret[chooser], secret[offerer])
        for part in offer_parts(offer)
    )


def every_offer(action: Action, hand: list[int]) -> list[list[int]]:
    """Every Gift or Competition (pairs: the first two and the last two) of ``hand``."""
    size = 3 if action is Action.GIFT else 4
    every = [[hand[i] for i in chosen] for chosen in itertools.combinations(range(len(hand)), size)]
    if action is Action.COMPETITION:  # each four cards split into pairs three ways
        every = (
            [[a, b, c, d] for a, b, c, d in every]
            + [[a, c, b, d] for a, b, c, d in every]
            + [[a, d, b, c] for a, b, c, d in every]
        )
    return every


@pytest.mark.parametrize("action", [Action.GIFT, Action.COMPETITION])
def test_weighing_offers_keeps_the_one_that_helps_the_chooser_least(action: Action) -> None:
    # Player 0 leads at A and C, trails at F; with enough tries every offer is weighed and
    # the one kept leaves the chooser's best part worth least to them.
    hand = [0, 1, 2, 4, 5, 5, 6]
    placed = [[1, 0, 2, 0, 0, 0, 0], [0, 1, 0, 0, 1, 2, 0]]
    secret: list[int | None] = [3, 6]
    every = every_offer(action, hand)
    least = min(chooser_gain(action, offer, placed, secret) for offer in every)
    gains = {chooser_gain(action, offer, placed, secret) for offer in every}
    assert len(gains) > 3  # the offers differ: the test can tell a weighed one apart
    kept = policy_cards(action, list(hand), placed, secret, 0, random.Random(3), 400)
    assert sorted(kept) in [sorted(offer) for offer in every]
    assert chooser_gain(action, kept, placed, secret) == least
    one = [
        chooser_gain(
            action,
            policy_cards(action, list(hand), placed, secret, 0, random.Random(s), 1),
            placed,
            secret,
        )
        for s in range(40)
    ]
    assert max(one) > least  # a single try is just a random offer


@pytest.mark.parametrize("offerer", [0, 1])
@pytest.mark.parametrize("action", [Action.GIFT, Action.COMPETITION])
def test_the_least_helpful_offer_is_the_least_of_every_offer_the_hand_allows(
    action: Action, offerer: int
) -> None:
    rng = random.Random(21 + offerer)
    size = 3 if action is Action.GIFT else 4
    told_apart = 0
    for _ in range(150):
        hand = sorted(rng.randrange(7) for _ in range(rng.randint(size, 7)))
        # Up to 6 items a side: leads beyond the -4..4 the search remembers them by.
        placed = [[rng.randrange(7) for _ in range(7)] for _ in range(2)]
        secret: list[int | None] = [rng.choice([None, *range(7)]), rng.choice([None, *range(7)])]
        every = every_offer(action, hand)
        gains = [chooser_gain(action, offer, placed, secret, offerer) for offer in every]
        offered = least_helpful_offer(action, hand, placed, secret, offerer)
        assert sorted(offered) in [sorted(offer) for offer in every]  # the hand's own cards
        if action is Action.COMPETITION:  # and pairs some split of four could make
            pair = sorted(offered[:2])
            assert any(sorted(offer[:2]) == pair or sorted(offer[2:]) == pair for offer in every)
        assert chooser_gain(action, offered, placed, secret, offerer) == pytest.approx(min(gains))
        told_apart += max(gains) > min(gains) + 0.1
    assert told_apart > 100  # most hands had offers worth telling apart


def test_the_part_a_chooser_takes_is_the_one_the_choice_score_rates_best() -> None:
    rng = random.Random(12)
    for _ in range(300):
        placed = [[rng.randrange(4) for _ in range(7)] for _ in range(2)]
        secret: list[int | None] = [rng.randrange(7), rng.randrange(7)]
        chooser = rng.randrange(2)
        cards = [rng.randrange(7) for _ in range(4)]
        action = rng.choice([Action.GIFT, Action.COMPETITION])
        offer = (
            Gift((cards[0], cards[1], cards[2]))
            if action is Action.GIFT
            else Competition(((cards[0], cards[1]), (cards[2], cards[3])))
        )
        mine, theirs = placed[chooser], placed[1 - chooser]
        scores = [
            choice_score(part, mine, theirs, secret[chooser], secret[1 - chooser])
            for part in offer_parts(offer)
        ]
        offered = cards[:3] if action is Action.GIFT else cards
        option, score = _chooser_best(offer_options(action, offered), mine, theirs, secret, chooser)
        assert score == pytest.approx(max(scores))
        parts = [sorted(part[0]) for part in offer_parts(offer)]
        assert scores[parts.index(sorted(option[0]))] == pytest.approx(max(scores))

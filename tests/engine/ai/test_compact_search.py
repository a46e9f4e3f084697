"""The compact search: the GameState search's statistics from the same seed, much faster."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.ai import compact_search
from engine.ai.compact_search import CompactSampler, Position, decision_of, key_of
from engine.ai.ismcts import IsmctsAgent
from engine.ai.playout import least_helpful_offer, play_out_value
from engine.ai.tree_node import Node
from engine.rules import GameState, view
from engine.rules import hand as packed_hand
from engine.rules.decisions import (
    Action,
    Competition,
    CompetitionChoice,
    Gift,
    GiftChoice,
    Secret,
)
from engine.rules.legal import legal_actions
from engine.rules.state import Variant
from tests.engine.ai.positions import positions


def searcher(*, compact: bool, read_opponent: bool) -> IsmctsAgent:
    return IsmctsAgent(
        "hard",
        iterations=150,
        time_limit=None,
        play_out=play_out_value,
        read_opponent=read_opponent,
        compact=compact,
    )


def root_statistics(
    agent: IsmctsAgent, state: GameState, seed: int
) -> dict[str, tuple[int, float, int]]:
    player = state.current_player
    assert player is not None
    seen = view(state, player)
    root = agent.search(seen, agent.root_decisions(seen), random.Random(seed))
    return {
        str(d): (node.visits, round(node.total, 9), node.available)
        for d, node in root.children.items()
    }


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("read_opponent", [False, True])
@pytest.mark.parametrize("seed", range(2))
def test_from_the_same_seed_it_reaches_the_same_root_statistics(
    seed: int, read_opponent: bool, variant: Variant
) -> None:
    # Both searches draw the same random numbers in the same order, so every visit count,
    # availability count and backed-up total at the root must agree: the same search.
    slow = searcher(compact=False, read_opponent=read_opponent)
    fast = searcher(compact=True, read_opponent=read_opponent)
    compared = 0
    for index, state in enumerate(positions(seed, games=2, variant=variant)):
        if len(state.legal_decisions()) < 2:
            continue
        assert root_statistics(fast, state, index) == root_statistics(slow, state, index)
        compared += 1
    assert compared > 30


@pytest.mark.parametrize("kind_tree", [False, True])
def test_it_picks_a_legal_decision_in_every_phase(kind_tree: bool) -> None:
    agent = searcher(compact=True, read_opponent=True)
    agent.kind_tree, agent.offer_tries = kind_tree, 3
    rng = random.Random(5)
    for state in positions(9, games=2):
        player = state.current_player
        assert player is not None
        decision = agent.decide(view(state, player), rng)
        assert decision in state.legal_decisions()


@pytest.mark.parametrize("seed", range(3))
def test_a_position_plays_a_round_as_the_rules_do(seed: int) -> None:
    # The compact position's moves, turn ends and draws follow the rules' GameState.
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=seed % 2)
    position = Position(
        list(state.hands),
        [0, 0],
        [None, None],
        [0, 0],
        state.pile[state.pile_pos :],
        0,
        state.to_move,
        -1,
    )
    ended = False
    while not ended:
        legal = position.legal()
        assert [decision_of(k) for k in legal] == list(state.legal_decisions())
        key = rng.choice(legal)
        ended = position.apply(key)
        round_index = state.round_index
        state.apply(decision_of(key))
        assert ended == (state.round_index != round_index or state.is_over)
        if not ended:
            assert (position.hands, position.placed, position.to_move) == (
                state.hands,
                state.placed,
                state.to_move,
            )
    assert position.scored_favor([None] * 7) == state.favor


def test_every_action_of_a_full_hand_has_a_key_of_its_own_and_its_cards() -> None:
    hand = GameState(seed=1).hands[0]
    decisions = legal_actions(hand, 0).decisions
    keys = [key_of(d) for d in decisions]
    assert len(set(keys)) == len(decisions) > 40  # a Secret, Trade-off, Gift, Competition each
    for decision, key in zip(decisions, keys, strict=True):
        assert decision_of(key) == decision
        cards = (decision.card,) if isinstance(decision, Secret) else decision.cards
        assert compact_search._REMOVED[key] == packed_hand.pack(cards)
        assert compact_search._MARKER[key] == decision.action


def test_a_compact_search_cannot_continue_an_earlier_root() -> None:
    agent = searcher(compact=True, read_opponent=False)
    state = next(positions(1))
    seen = view(state, 0 if state.current_player is None else state.current_player)
    root = agent.search(seen, agent.root_decisions(seen), random.Random(0))
    with pytest.raises(ValueError, match="cannot continue"):
        agent.search(seen, agent.root_decisions(seen), random.Random(0), root=root)


def test_it_plays_out_with_the_match_chance_only() -> None:
    with pytest.raises(ValueError, match="play_out_value"):
        IsmctsAgent("x", compact=True)


def kind_trees(seed: int) -> Iterator[tuple[GameState, Node[int]]]:
    """Positions of two random games with a choice, each with the kind tree hard grows
    there (a short search over the first six legal decisions)."""
    for index, state in enumerate(positions(seed, games=2)):
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        if len(seen.legal) < 2:
            continue
        root, _, _ = compact_search.compact_search(
            seen,
            seen.legal[:6],
            random.Random(index),
            iterations=200,
            exploration=0.7,
            read_opponent=True,
            deadline=None,
            offer_tries=3,
            kind_tree=True,
        )
        assert set(root.children) <= {key_of(d) for d in seen.legal[:6]}
        yield state, root


def test_a_kind_tree_branches_on_action_kinds_below_its_root() -> None:
    # Below the root an action node's children are the open action kinds (negative keys),
    # never single decisions; a choice node keeps its answers.
    kinds = {-int(a) for a in Action}
    searched = 0
    for state, root in kind_trees(4):
        if state.turn > 5:
            continue
        below = [node for child in root.children.values() for node in child.children.items()]
        stack = list(below)
        assert stack, "the tree grew no deeper than its root"
        while stack:
            key, node = stack.pop()
            if key >= 0:
                assert isinstance(decision_of(key), GiftChoice | CompetitionChoice)
            else:
                assert key in kinds
            stack.extend(node.children.items())
        searched += 1
    assert searched > 10


@pytest.mark.parametrize(("offer_tries", "least_helpful"), [(1, False), (3, False), (3, True)])
def test_the_policy_plays_a_legal_decision_of_the_kind_asked(
    offer_tries: int, least_helpful: bool
) -> None:
    rng = random.Random(8)
    checked = 0
    for state in positions(6, games=3):
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        position = CompactSampler(seen, read_opponent=True).sample(rng)
        if position.offer >= 0:
            continue  # a choice: no action to play
        for action in Action:
            if position.used[position.to_move] & action:
                continue
            offers: compact_search.OfferMemo | None = {} if least_helpful else None
            key = compact_search._policy_key(position, int(action), rng, offer_tries, offers)
            assert key in position.legal()
            assert decision_of(key).action == action
            checked += 1
    assert checked > 60


def test_a_kind_offer_in_the_tree_is_the_least_helpful_whatever_the_random_draws() -> None:
    # The policy's best of three random offers depends on the draws; the least helpful
    # offer does not, and it is the one least_helpful_offer finds for the mover's hand.
    checked = differed = 0
    for state in positions(12, games=3):
        player = state.current_player
        assert player is not None
        position = CompactSampler(view(state, player), read_opponent=True).sample(random.Random(1))
        mover = position.to_move
        if position.offer >= 0 or packed_hand.size(position.hands[mover]) < 5:
            continue
        for action in (Action.GIFT, Action.COMPETITION):
            if position.used[mover] & action:
                continue
            keys = {
                compact_search._policy_key(position, int(action), random.Random(s), 3, {})
                for s in range(6)
            }
            assert len(keys) == 1
            placed = [packed_hand.counts(p) for p in position.placed]
            expected = least_helpful_offer(
                action, packed_hand.unpack(position.hands[mover]), placed, position.secret, mover
            )
            found = decision_of(keys.pop())
            if action is Action.GIFT:
                assert isinstance(found, Gift)
                assert sorted(found.cards) == sorted(expected)
            else:
                pairs = ((expected[0], expected[1]), (expected[2], expected[3]))
                assert found == Competition(pairs)
            weighed = {
                compact_search._policy_key(position, int(action), random.Random(s), 3, None)
                for s in range(6)
            }
            differed += len(weighed) > 1
            checked += 1
    assert checked > 10
    assert differed > checked // 2  # the random tries would have varied


def test_a_search_remembers_each_offer_for_its_own_hand_items_secrets_and_mover() -> None:
    # One memo across many determinizations and movers, as a search shares it: each offer
    # it gives must be the one worked out afresh for that very position.
    offers: compact_search.OfferMemo = {}
    rng = random.Random(5)
    checked = 0
    for state in positions(14, games=4):
        player = state.current_player
        assert player is not None
        sampler = CompactSampler(view(state, player), read_opponent=True)
        for _ in range(3):
            position = sampler.sample(rng)
            if position.offer >= 0:
                continue
            for mover in (0, 1):
                position.to_move = mover
                hand = packed_hand.unpack(position.hands[mover])
                placed = [packed_hand.counts(p) for p in position.placed]
                for action in (Action.GIFT, Action.COMPETITION):
                    if len(hand) < (3 if action is Action.GIFT else 4):
                        continue
                    key = compact_search._policy_key(position, int(action), rng, 3, offers)
                    fresh = least_helpful_offer(action, hand, placed, position.secret, mover)
                    found = decision_of(key)
                    if action is Action.GIFT:
                        assert isinstance(found, Gift)
                        assert sorted(found.cards) == sorted(fresh)
                    else:  # the pairing too, not only the four cards
                        assert found == Competition(((fresh[0], fresh[1]), (fresh[2], fresh[3])))
                    checked += 1
    assert checked > 100
    assert len(offers) > 50  # many positions: a key missing a field would mix them up


def test_only_the_compact_search_weighs_offers_or_branches_on_kinds() -> None:
    with pytest.raises(ValueError, match="only the compact search"):
        IsmctsAgent("x", kind_tree=True)
    with pytest.raises(ValueError, match="only the compact search"):
        IsmctsAgent("x", offer_tries=3)
    with pytest.raises(ValueError, match="at least 1, not 0"):
        IsmctsAgent("x", compact=True, play_out=play_out_value, offer_tries=0)
    with pytest.raises(ValueError, match="kind_tree must be on"):
        IsmctsAgent("x", compact=True, play_out=play_out_value, least_helpful_offers=True)


def _walk_kinds(node: Node[int], mover: int, used: list[int], kinds_seen: list[int]) -> None:
    """Check every kind child of an action node is open for the player who moves there
    (the next action node belongs to the other player, through a choice node or not)."""
    for key, child in node.children.items():
        if key >= 0:  # a choice: the chooser moves at the next action node
            assert isinstance(decision_of(key), GiftChoice | CompetitionChoice)
            _walk_kinds(child, mover, used, kinds_seen)
            continue
        assert not used[mover] & -key, f"kind {-key} played twice by player {mover}"
        kinds_seen.append(-key)
        after = used.copy()
        after[mover] |= -key
        _walk_kinds(child, 1 - mover, after, kinds_seen)


def test_a_kind_tree_offers_each_player_only_their_open_actions() -> None:
    kinds_seen: list[int] = []
    for state, root in kind_trees(11):
        player = state.current_player
        assert player is not None
        if state.pending is not None:
            continue  # the root is a choice: the used markers stay as they are
        for key, child in root.children.items():
            used = list(state.used)
            used[player] |= compact_search._MARKER[key]
            _walk_kinds(child, 1 - player, used, kinds_seen)
    assert {1, 2, 4, 8} <= set(kinds_seen)


def test_weighed_offers_change_what_the_search_finds() -> None:
    # The same plain tree from the same seed: weighing three offers per Gift or
    # Competition in the play-outs must change some root statistics.
    plain = searcher(compact=True, read_opponent=False)
    weighed = searcher(compact=True, read_opponent=False)
    weighed.offer_tries = 3
    differ = sum(
        root_statistics(plain, state, index) != root_statistics(weighed, state, index)
        for index, state in enumerate(positions(3, games=1))
        if len(state.legal_decisions()) > 1 and state.turn < 6
    )
    assert differ > 5

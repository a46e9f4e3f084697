"""Invariants of random legal games (hypothesis), in the manner of OpenSpiel's random_sim_test."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.replay_cli import result_of
from engine.rules import IllegalDecision, Phase, Variant, public_view, view
from engine.rules import hand as packed_hand
from engine.rules.cards import FULL_DECK
from engine.rules.record import MatchRecord, replay
from engine.rules.state import GameState

seeds = st.integers(min_value=0, max_value=2**32)
variants = st.sampled_from(list(Variant))


def all_cards(state: GameState) -> Counter[int]:
    """Every card wherever it is: hands, pile, removed, sides, Secrets, Trade-offs, offer."""
    cards: Counter[int] = Counter()
    for player in (0, 1):
        cards.update(packed_hand.unpack(state.hands[player]))
        cards.update(packed_hand.unpack(state.placed[player]))
        if state.secret[player] is not None:
            cards[state.secret[player]] += 1
        if state.tradeoff[player] is not None:
            cards.update(state.tradeoff[player])
    cards.update(state.pile[state.pile_pos :])
    cards[state.removed] += 1
    if state.pending is not None:
        cards.update(state.pending.cards)
    return cards


def play(seed: int, variant: Variant, check) -> GameState:
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=seed % 2, variant=variant)
    check(state)
    while not state.is_over:
        state.apply(rng.choice(state.legal_decisions()))
        check(state)
    return state


@given(seeds, variants)
def test_all_21_cards_are_accounted_for_at_every_step(seed, variant):
    play(seed, variant, lambda s: s.is_over or _assert_equal(all_cards(s), Counter(FULL_DECK)))


def _assert_equal(a, b):
    assert a == b


@given(seeds)
def test_hands_and_pile_are_empty_when_a_round_is_scored(seed):
    def check(state):
        if state.turn == 7 and state.phase is Phase.ACTION:
            # The round's last action: the pile is used up, the opponent's hand is empty and
            # the actor holds exactly the cards their one remaining action takes.
            actor = state.current_player
            (last,) = view(state, actor).table.unused(actor)
            assert state.pile_pos == len(state.pile) == 8
            assert packed_hand.size(state.hands[1 - actor]) == 0
            assert packed_hand.size(state.hands[actor]) == last.size

    play(seed, Variant.STANDARD, check)


@given(seeds, variants)
def test_a_marker_moves_only_on_a_strict_majority(seed, variant):
    state = play(seed, variant, lambda s: None)
    for result in state.results:
        for g in range(7):
            mine, theirs = result.items[0][g], result.items[1][g]
            if mine > theirs:
                assert result.favor[g] == 0
            elif theirs > mine:
                assert result.favor[g] == 1
            else:
                assert result.favor[g] == result.favor_before[g]


def reshuffle_hidden(state: GameState, reader: int | None, rng: random.Random) -> GameState:
    """A twin whose cards hidden from ``reader`` (None: a spectator) are dealt anew.

    The opponent's hand, Secret and Trade-off, the rest of the pile and the removed card
    are shuffled among themselves; sizes stay the same, so only hidden facts change.
    """
    twin = state.clone()
    hidden_from = [p for p in (0, 1) if p != reader]
    pool = [*state.pile[state.pile_pos :], state.removed]
    for p in hidden_from:
        pool += packed_hand.unpack(state.hands[p])
        pool += [state.secret[p]] if state.secret[p] is not None else []
        pool += list(state.tradeoff[p]) if state.tradeoff[p] is not None else []
    rng.shuffle(pool)
    twin.pile = state.pile[: state.pile_pos] + tuple(pool[: len(state.pile) - state.pile_pos])
    pool = pool[len(state.pile) - state.pile_pos :]
    twin.removed = pool.pop()
    for p in hidden_from:
        size = packed_hand.size(state.hands[p])
        twin.hands[p] = packed_hand.pack(pool[:size])
        pool = pool[size:]
        if state.secret[p] is not None:
            twin.secret[p] = pool.pop()
        if state.tradeoff[p] is not None:
            a, b = pool.pop(), pool.pop()
            twin.tradeoff[p] = (min(a, b), max(a, b))
    assert not pool
    return twin


@given(seeds, seeds)
def test_views_never_contain_a_hidden_card(seed, shuffle_seed):
    """Changing every card a reader cannot see leaves that reader's view identical."""
    rng = random.Random(shuffle_seed)

    def check(state: GameState):
        if state.is_over:
            return
        assert public_view(reshuffle_hidden(state, None, rng)) == public_view(state)
        for player in (0, 1):
            twin = reshuffle_hidden(state, player, rng)
            assert view(twin, player) == view(state, player)

    play(seed, Variant.STANDARD, check)


@given(seeds)
def test_the_opponents_view_reveals_no_hidden_card(seed):
    def check(state: GameState):
        if state.is_over:
            return
        for player in (0, 1):
            mine = view(state, player)
            theirs = 1 - player
            assert len(mine.hand) == packed_hand.size(state.hands[player])
            assert mine.table.hand_sizes[theirs] == packed_hand.size(state.hands[theirs])
            # Own moves show own hidden cards, the table shows none.
            for own, public in zip(mine.own_moves, mine.table.moves, strict=True):
                assert str(public) in ("1X", "2XX") or str(public) == str(own)

    play(seed, Variant.STANDARD, check)


@given(seeds, variants)
def test_record_round_trips_and_replays_to_the_same_outcome(seed, variant):
    state = play(seed, variant, lambda s: None)
    record = MatchRecord.of(state)
    again = MatchRecord.from_json(record.to_json())
    assert again == record
    replayed = replay(again)
    assert replayed.outcome == state.outcome
    assert result_of(replayed) == result_of(state)


@given(seeds, st.integers(0, 40))
def test_an_unfinished_record_replays_to_the_same_position(seed, steps):
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=0)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_decisions()))
    replayed = replay(MatchRecord.from_json(MatchRecord.of(state).to_json()))
    assert public_view(replayed) == public_view(state)
    assert view(replayed, 0) == view(state, 0) and view(replayed, 1) == view(state, 1)


@settings(max_examples=50)
@given(seeds)
def test_legal_list_has_no_duplicates_and_is_exactly_what_apply_accepts(seed):
    def check(state: GameState):
        if state.is_over:
            return
        legal = state.legal_decisions()
        assert len(set(legal)) == len(legal)
        for decision in legal:
            twin = state.clone()
            twin.apply(decision)  # never raises
        # A sample of decisions outside the list is refused.
        from engine.rules.decisions import Competition, Gift, GiftChoice, Secret, TradeOff

        rng = random.Random(seed)
        for _ in range(10):
            a, b, c, d = (rng.randrange(7) for _ in range(4))
            for candidate in (
                Secret(a),
                TradeOff((a, b)),
                Gift((a, b, c)),
                Competition(((a, b), (c, d))),
                GiftChoice(a),
            ):
                if candidate not in legal:
                    twin = state.clone()
                    try:
                        twin.apply(candidate)
                    except IllegalDecision:
                        continue
                    raise AssertionError(f"{candidate} was applied but is not in the legal list")

    play(seed, Variant.STANDARD, check)


@given(seeds)
def test_earlier_rounds_show_their_moves_as_spectators_saw_them(seed):
    """Each scored round keeps its eight public moves; a Secret or Trade-off stays face
    down there (1X, 2XX): only the round's result reveals the Secrets."""

    def check(state: GameState):
        table = public_view(state)
        earlier = table.earlier_moves
        assert len(earlier) == len(state.log) - 1
        assert len(earlier) <= len(table.rounds)
        for moves in earlier:
            assert len(moves) == 8
            hidden = [str(m) for m in moves if str(m)[0] in "12"]
            assert sorted(hidden) == ["1X", "1X", "2XX", "2XX"]

    play(seed, Variant.THREE_ROUNDS, check)

"""One scenario per rule of docs/rules.md, named after the rule, plus the seeds' traps."""

from collections import Counter

import pytest

from engine.rules import (
    CHARM,
    Action,
    Competition,
    CompetitionChoice,
    Gift,
    GiftChoice,
    IllegalDecision,
    Phase,
    Secret,
    Termination,
    Variant,
    new_game,
    parse_cards,
    view,
)
from engine.rules.cards import FULL_DECK
from engine.rules.deal import Deal
from engine.rules.scoring import favor_totals, goal_winner, round_limit_winner, score_favor
from engine.rules.state import GameState
from tests.engine.rules.games import (
    EXAMPLE_DEAL,
    EXAMPLE_MOVES,
    apply_move,
    example_game,
    random_game,
)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


# -- Components ------------------------------------------------------------------------


def test_components_seven_geishas_charm_equals_item_count_21_cards():
    assert CHARM == (2, 2, 2, 3, 3, 4, 5)
    assert sum(CHARM) == 21
    assert Counter(FULL_DECK) == {g: CHARM[g] for g in range(7)}


# -- A round: the deal -----------------------------------------------------------------


def test_deal_removes_one_card_deals_six_each_and_leaves_eight_in_the_pile():
    state = new_game(7)
    deal = state.deals[0]
    assert len(deal.hands[0]) == len(deal.hands[1]) == 6
    assert len(deal.pile) == 8  # seed 002's "7-card pile" is wrong
    assert Counter((deal.removed, *deal.hands[0], *deal.hands[1], *deal.pile)) == Counter(FULL_DECK)


def test_deal_happens_at_the_start_of_every_round():
    """Seed 002 says the deal happens only in the first round: it is wrong."""
    state = random_game(3)
    assert len(state.results) >= 2, "seed 3 gives a game of several rounds"
    assert len(state.deals) == len(state.results)
    for deal in state.deals:
        assert Counter((deal.removed, *deal.hands[0], *deal.hands[1], *deal.pile)) == Counter(
            FULL_DECK
        )
    assert state.deals[0] != state.deals[1]


def test_deal_is_deterministic_for_a_seed():
    a, b = new_game(42), new_game(42)
    assert a.deals == b.deals and a.first_player == b.first_player
    assert new_game(43).deals != a.deals


def test_first_player_is_random_from_the_seed_and_recorded():
    firsts = {new_game(seed).first_player for seed in range(20)}
    assert firsts == {0, 1}
    assert new_game(5, first_player=1).first_player == 1


def test_removed_card_stays_out_for_the_whole_round():
    state = example_game()
    for move in EXAMPLE_MOVES:
        apply_move(state, move)
    result = state.results[0]
    total = sum(result.items[0]) + sum(result.items[1])
    assert total == 21 - 1 - 2 - 2  # removed card and both Trade-offs are not scored


# -- A round: turns --------------------------------------------------------------------


def test_draw_is_mandatory_and_comes_before_the_action():
    state = example_game()
    me = view(state, 0)
    assert len(me.hand) == 7  # 6 dealt + the G drawn from the pile
    assert me.drawn == cards("G")[0]
    assert me.table.pile_size == 7
    assert view(state, 1).table.hand_sizes == (7, 6)


def test_players_alternate_starting_with_the_rounds_starting_player():
    state = example_game()
    seen = []
    for move in EXAMPLE_MOVES:
        seen.append(state.current_player)
        apply_move(state, move)
    assert seen == [0, 1, 0, 1, 0, 1, 0, 1]


def test_each_action_marker_is_used_exactly_once_per_round():
    state = example_game()
    apply_move(state, "4BCBD-BC")
    apply_move(state, "4CDFF-FF")
    with pytest.raises(IllegalDecision, match="Competition was already used this round"):
        state.apply(Competition(((6, 6), (6, 5))))
    assert all(d.action is not Action.COMPETITION for d in state.legal_decisions())


def test_secret_is_face_down_until_scoring_then_counts_for_its_owner():
    state = example_game()
    for move in EXAMPLE_MOVES[:3]:  # ... player 0's Secret F
        apply_move(state, move)
    assert view(state, 0).secret == cards("F")[0]
    assert view(state, 1).secret is None
    assert state.placed_items(0)[5] == 2  # the two Fs taken, not the Secret
    for move in EXAMPLE_MOVES[3:]:
        apply_move(state, move)
    assert state.results[0].items[0][5] == 3
    assert state.results[0].secrets == (cards("F")[0], cards("D")[0])


def test_trade_off_cards_are_face_down_and_never_scored():
    state = example_game()
    for move in EXAMPLE_MOVES:
        apply_move(state, move)
    result = state.results[0]
    # Player 1 traded off E and F; player 0 traded off G and G.
    assert result.items[1][4] == 1 and result.items[1][5] == 0
    assert result.items[0][6] == 2


def test_gift_opponent_takes_one_card_the_giver_keeps_two():
    state = example_game()
    for move in EXAMPLE_MOVES[:5]:
        apply_move(state, move)
    before = (state.placed_items(0), state.placed_items(1))
    state.apply(Gift(cards("AEE")), 1)
    assert state.phase is Phase.GIFT_CHOICE and state.current_player == 0
    state.apply(GiftChoice(cards("E")[0]), 0)
    after = (state.placed_items(0), state.placed_items(1))
    assert after[0][4] - before[0][4] == 1
    assert after[1][0] - before[1][0] == 1 and after[1][4] - before[1][4] == 1


def test_competition_opponent_takes_one_pair_the_offerer_keeps_the_other():
    state = example_game()
    state.apply(Competition(((1, 2), (1, 3))), 0)
    assert state.phase is Phase.COMPETITION_CHOICE and state.current_player == 1
    state.apply(CompetitionChoice((1, 2)), 1)
    assert state.placed_items(1)[1:3] == (1, 1)
    assert state.placed_items(0)[1] == 1 and state.placed_items(0)[3] == 1


def test_every_hand_and_the_pile_are_empty_at_the_end_of_a_round():
    state = example_game()
    for move in EXAMPLE_MOVES[:7]:
        apply_move(state, move)
    assert state.hands[0] == 0 and len(state.hand_cards(1)) == 1
    apply_move(state, EXAMPLE_MOVES[7])
    # Round 2 has begun: its fresh deal, 6 + the draw for the new starting player.
    assert len(state.results) == 1 and len(state.hand_cards(1)) == 7


# -- Scoring ---------------------------------------------------------------------------


def test_scoring_majority_wins_the_favor():
    state = example_game()
    for move in EXAMPLE_MOVES:
        apply_move(state, move)
    result = state.results[0]
    assert result.items == ((0, 1, 0, 1, 1, 3, 2), (2, 1, 2, 2, 1, 0, 0))
    assert result.favor == (1, None, 1, 1, None, 0, 0)
    assert result.geishas == (2, 3) and result.charm == (9, 7)


def test_scoring_majority_moves_a_marker_even_from_the_other_side():
    favor = score_favor(((2, 0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0, 0)), (1,) + (None,) * 6)
    assert favor[0] == 0


def test_scoring_tie_leaves_the_marker_where_it_was():
    before = (0, 1, None, 0, 1, None, None)
    items = ((1, 0, 0, 2, 1, 0, 0), (1, 0, 0, 2, 1, 0, 0))  # ties, 0–0 included
    assert score_favor(items, before) == before


def test_scoring_counts_geishas_and_charm_from_the_markers():
    assert favor_totals((0, 0, 1, None, 1, 0, 1)) == ((3, 3), (8, 10))


# -- End of the game -------------------------------------------------------------------


def test_end_four_geishas_wins():
    assert goal_winner((4, 2), (9, 8)) == (0, Termination.GEISHAS)


def test_end_eleven_charm_wins():
    assert goal_winner((2, 3), (11, 7)) == (0, Termination.CHARM)


def test_end_charm_beats_four_geishas():
    """Seed 003 words it "more charm wins": the same outcome, since 4 geishas ≤ 10 charm."""
    assert goal_winner((4, 2), (8, 11)) == (1, Termination.CHARM)
    assert goal_winner((3, 4), (12, 9)) == (0, Termination.CHARM)


def test_end_no_goal_means_another_round():
    assert goal_winner((3, 3), (10, 9)) is None


def test_end_the_game_ends_at_once_when_a_round_reaches_the_goal():
    for seed in range(30):
        state = random_game(seed)
        final = state.results[-1]
        assert goal_winner(final.geishas, final.charm) is not None
        assert all(goal_winner(r.geishas, r.charm) is None for r in state.results[:-1])
        assert state.outcome is not None and state.outcome.rounds_played == len(state.results)


def test_new_round_keeps_markers_and_alternates_the_starting_player():
    state = example_game()
    for move in EXAMPLE_MOVES:
        apply_move(state, move)
    assert state.start_player == 1 and state.current_player == 1
    assert tuple(state.favor) == state.results[0].favor
    assert view(state, 0).table.favor == (1, None, 1, 1, None, 0, 0)


def test_starting_player_alternates_every_round_in_long_games():
    state = random_game(3)
    assert [r.starting_player for r in state.results] == [
        (state.first_player + i) % 2 for i in range(len(state.results))
    ]


def test_no_round_limit_in_the_standard_game():
    longest = max(len(random_game(seed).results) for seed in range(300))
    assert longest > 3


def test_random_play_lasts_as_rules_md_reports():
    """About 31% end after round 1, 53% after round 2, 14% after round 3."""
    rounds = Counter(len(random_game(seed).results) for seed in range(2000))
    assert 0.26 < rounds[1] / 2000 < 0.36
    assert 0.48 < rounds[2] / 2000 < 0.58
    assert 0.10 < rounds[3] / 2000 < 0.18


# -- Optional variant: three rounds ----------------------------------------------------


def test_three_round_variant_is_off_by_default():
    assert new_game(1).variant is Variant.STANDARD


def test_three_round_variant_more_geishas_then_more_charm_then_draw():
    assert round_limit_winner((3, 2), (7, 9)) == (0, Termination.ROUND_LIMIT)
    assert round_limit_winner((3, 3), (7, 9)) == (1, Termination.ROUND_LIMIT)
    assert round_limit_winner((3, 3), (8, 8)) == (None, Termination.DRAW)


def test_three_round_variant_stops_after_round_three():
    for seed in range(300):
        state = random_game(seed, Variant.THREE_ROUNDS)
        assert len(state.results) <= 3
        outcome = state.outcome
        assert outcome is not None
        if outcome.termination in (Termination.ROUND_LIMIT, Termination.DRAW):
            assert len(state.results) == 3
    drawn = [
        s for s in (random_game(seed, Variant.THREE_ROUNDS) for seed in range(300)) if s.outcome
    ]
    assert any(s.outcome.termination is Termination.ROUND_LIMIT for s in drawn if s.outcome)


# -- Resignation and timeout -----------------------------------------------------------


def test_resignation_gives_the_opponent_the_win():
    state = example_game()
    state.resign(0)
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.termination) == (1, Termination.RESIGNATION)
    assert state.legal_decisions() == ()
    with pytest.raises(IllegalDecision, match="the match is over"):
        state.apply(Secret(6))


def test_timeout_forfeits_the_match():
    state = example_game()
    version = state.version
    state.forfeit(1)
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.termination) == (0, Termination.TIMEOUT)
    assert state.version == version + 1
    with pytest.raises(IllegalDecision):
        state.resign(0)


# -- Where the seeds disagree ----------------------------------------------------------


def test_seed_002_trap_three_items_of_each_type_is_wrong():
    with pytest.raises(ValueError, match="not the 21 item cards"):
        Deal.from_text("G", ("AAABBB", "CCCDDD"), "EEEFFFGG")


def test_seed_002_trap_a_seven_card_pile_is_wrong():
    with pytest.raises(ValueError, match="pile of 7"):
        Deal.from_text("G", ("BBCDGG", "CEEFFF"), "GDFEAAD")


def test_seed_002_trap_removal_is_never_skipped():
    for seed in range(50):
        state = random_game(seed)
        assert all(isinstance(d.removed, int) for d in state.deals)


def test_second_round_starting_player_draws_first_from_a_fresh_pile():
    second = Deal.from_text("A", ("ABCDEF", "BCDEFG"), "DEFFGGGG")
    state = GameState(first_player=0, deals=[EXAMPLE_DEAL, second])
    for move in EXAMPLE_MOVES:
        apply_move(state, move)
    me = view(state, 1)
    assert me.hand == cards("BCDDEFG")
    assert me.drawn == cards("D")[0]

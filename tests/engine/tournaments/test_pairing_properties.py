"""Properties of the pairings over random events of 4–64 players (hypothesis).

Swiss: no pair meets twice while a pairing without it exists; colours stay within ±1
while a pairing keeping them exists; at most one bye a round, never a second to anyone
while an active player has had none; no two tables could swap partners to bring
scores closer. Round robin: each pair once. Knockout: the seeds meet as a bracket should.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournaments import (
    Entrant,
    Finished,
    Format,
    Game,
    Pairing,
    Result,
    Round,
    TournamentPlan,
    bracket,
    bracket_order,
    default_rounds,
    next_round,
    round_robin_round,
    round_robin_rounds,
    seeded,
    swiss_round,
)
from engine.tournaments.swiss import History, colours_fit

RESULTS = (Result.FIRST_WON, Result.SECOND_WON, Result.DRAW)


def entrants(count: int, rng: random.Random) -> tuple[Entrant, ...]:
    return seeded([Entrant(player, rng.uniform(1000, 2000)) for player in range(1, count + 1)])


def played(round_: Round, rng: random.Random) -> list[Game]:
    return [
        Game(round_.number, pairing, None if pairing.is_bye else rng.choice(RESULTS))
        for pairing in round_.pairings
    ]


def perfect_exists(players: list[int], allowed: set[frozenset[int]], bye_to: set[int]) -> bool:
    """Whether the players can all be paired using only ``allowed`` pairs (and a bye)."""
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(tuple(pair) for pair in allowed if pair <= set(players))
    if len(players) % 2:
        graph.add_edges_from((player, -1) for player in bye_to)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(players) + len(players) % 2


def check_swiss_round(round_: Round, active: list[int], history: History) -> None:
    seated = [player for pairing in round_.pairings for player in pairing.players]
    assert sorted(seated) == sorted(active), "everyone active plays once, nobody else"
    byes = [pairing.first for pairing in round_.pairings if pairing.is_bye]
    assert len(byes) == len(active) % 2, "a bye only for the odd one out"
    without_bye = {player for player in active if player not in history.byes}
    for bye in byes:
        assert bye in without_bye or not without_bye, "a second bye while others had none"
    bye_to = without_bye or set(active)
    pairs = [
        frozenset((pairing.first, pairing.second))
        for pairing in round_.pairings
        if pairing.second is not None
    ]
    everyone = {frozenset((a, b)) for a in active for b in active if a < b}
    fresh = everyone - history.met
    if any(pair in history.met for pair in pairs):
        assert not perfect_exists(active, fresh, bye_to), "a rematch that could be avoided"
    fitting = {pair for pair in fresh if colours_fit(*(history.balance(p) for p in pair))}
    if perfect_exists(active, fitting, bye_to):
        for pairing in round_.pairings:
            if pairing.second is not None:
                first, second = history.balance(pairing.first), history.balance(pairing.second)
                assert first + 1 <= 1 and second - 1 >= -1, "colours beyond ±1"
        # No two tables can swap partners, within the same rules, for closer scores.
        allowed = fitting
        tables = [tuple(pair) for pair in pairs if pair in allowed]

        def cost(a: int, b: int) -> Fraction:
            return (history.score(a) - history.score(b)) ** 2

        for index, (a, b) in enumerate(tables):
            for c, d in tables[index + 1 :]:
                now = cost(a, b) + cost(c, d)
                for (w, x), (y, z) in (((a, c), (b, d)), ((a, d), (b, c))):
                    if frozenset((w, x)) in allowed and frozenset((y, z)) in allowed:
                        assert cost(w, x) + cost(y, z) >= now, "a swap brings scores closer"


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(4, 64),
    seed=st.integers(0, 2**32),
    withdraw_share=st.sampled_from([0.0, 0.0, 0.05, 0.15]),
)
def test_swiss_rounds_keep_the_pairing_rules(count: int, seed: int, withdraw_share: float) -> None:
    rng = random.Random(seed)
    players = entrants(count, rng)
    games: list[Game] = []
    withdrawn: set[int] = set()
    rounds = default_rounds(count)
    for number in range(1, rounds + 1):
        active = [e.player for e in players if e.player not in withdrawn]
        if len(active) < 2:
            break
        round_ = swiss_round(players, games, number, withdrawn=frozenset(withdrawn))
        check_swiss_round(round_, active, History.of(games))
        games += played(round_, rng)
        for player in active:
            if rng.random() < withdraw_share:
                withdrawn.add(player)


def test_the_first_swiss_round_pairs_top_half_against_bottom_half() -> None:
    players = seeded([Entrant(player, 2000.0 - player) for player in range(1, 9)])
    round_ = swiss_round(players, [], 1)
    assert {frozenset(p.players) for p in round_.pairings} == {
        frozenset((1, 5)),
        frozenset((2, 6)),
        frozenset((3, 7)),
        frozenset((4, 8)),
    }
    starters = [p.first for p in round_.pairings]
    assert starters == [1, 6, 3, 8]  # the better seed starts on odd tables


def test_the_first_swiss_bye_goes_to_the_lowest_seed() -> None:
    players = seeded([Entrant(player, 2000.0 - player) for player in range(1, 8)])
    round_ = swiss_round(players, [], 1)
    assert round_.pairings[-1] == Pairing(4, 7, None)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 64), seed=st.integers(0, 2**32))
def test_round_robin_meets_each_pair_once(count: int, seed: int) -> None:
    rng = random.Random(seed)
    players = entrants(count, rng)
    met: Counter[frozenset[int]] = Counter()
    starts: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, round_robin_rounds(count) + 1):
        round_ = round_robin_round(players, number)
        assert sorted(p for pairing in round_.pairings for p in pairing.players) == list(
            range(1, count + 1)
        )
        for pairing in round_.pairings:
            if pairing.second is None:
                byes[pairing.first] += 1
                continue
            met[frozenset(pairing.players)] += 1
            starts[pairing.first] += 1
            starts[pairing.second] -= 1
    assert set(met.values()) == {1}
    assert len(met) == count * (count - 1) // 2
    assert all(abs(balance) <= 1 for balance in starts.values()), "colours over the event"
    assert set(byes.values()) <= {1} and len(byes) == count % 2 * count


def test_round_robin_gives_a_withdrawn_players_opponent_a_bye() -> None:
    players = seeded([Entrant(player, 2000.0 - player) for player in range(1, 5)])
    round_ = round_robin_round(players, 1, withdrawn=frozenset({4}))
    assert round_.pairings == (Pairing(1, 2, 3), Pairing(2, 1, None))


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 64), seed=st.integers(0, 2**32))
def test_knockout_byes_go_to_the_top_seeds_and_the_favourites_meet_last(
    count: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = entrants(count, rng)
    seed_of = {entrant.player: index + 1 for index, entrant in enumerate(players)}
    size = 1 << (count - 1).bit_length()
    plan = TournamentPlan(Format.KNOCKOUT)
    games: list[Game] = []
    step = next_round(plan, players, games)
    assert isinstance(step, Round)
    byes = [pairing.first for pairing in step.pairings if pairing.is_bye]
    assert [seed_of[p] for p in byes] == list(range(1, size - count + 1))
    rounds = 0
    while isinstance(step, Round):
        rounds += 1
        for pairing in step.pairings:
            if pairing.second is None:
                games.append(Game(step.number, pairing))
                continue
            # The better seed always wins, after a draw now and then (replayed).
            if rng.random() < 0.2:
                games.append(Game(step.number, pairing, Result.DRAW))
                continue
            better = min(pairing.players, key=seed_of.__getitem__)
            result = Result.FIRST_WON if better == pairing.first else Result.SECOND_WON
            games.append(Game(step.number, pairing, result))
        step = next_round(plan, players, games)
    assert step == Finished()
    state = bracket(players, games)
    assert state.champion == players[0].player
    final = games[-1]  # the last game played: the final (or its replay)
    assert {seed_of[p] for p in final.pairing.players} == {1, 2}


def test_a_drawn_knockout_game_is_replayed_with_the_other_player_starting() -> None:
    players = seeded([Entrant(player, 2000.0 - player) for player in range(1, 5)])
    plan = TournamentPlan(Format.KNOCKOUT)
    first = next_round(plan, players, [])
    assert isinstance(first, Round)
    assert first.pairings == (Pairing(1, 1, 4), Pairing(2, 2, 3))
    games = [
        Game(1, Pairing(1, 1, 4), Result.DRAW),
        Game(1, Pairing(2, 2, 3), Result.SECOND_WON),
    ]
    replay = next_round(plan, players, games)
    assert replay == Round(2, (Pairing(1, 4, 1),))
    games.append(Game(2, Pairing(1, 4, 1), Result.FIRST_WON))
    final = next_round(plan, players, games)
    assert final == Round(3, (Pairing(1, 3, 4),))  # seed 3 beat 2; seed 4 beat 1


def test_bracket_order_keeps_the_top_two_seeds_apart() -> None:
    for size in (2, 4, 8, 16, 32, 64):
        order = bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        half = size // 2
        assert 1 in order[:half] and 2 in order[half:]
        # Each first-round pair adds up to size + 1: the best meets the worst.
        assert {a + b for a, b in zip(order[::2], order[1::2], strict=True)} == {size + 1}

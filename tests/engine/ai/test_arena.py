"""The arena: Wilson intervals, draws as half wins, seats swapped, same result in parallel."""

from __future__ import annotations

import random

import pytest

from engine.ai.agent import RandomAgent
from engine.ai.arena import (
    ArenaSummary,
    DecisionTimes,
    GameResult,
    game_seed,
    play_arena_game,
    run_arena,
    run_cli,
    seat_of_a,
    wilson_interval,
)
from engine.rules.decisions import Decision
from engine.rules.views import PlayerView


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # p = 0: centre = half = (z²/2n) / (1 + z²/n) = 0.19207 / 1.38415 = 0.13877
        (0, 10, 0.0, 0.27754),
        # p = 1/2: half = z / (1 + z²/n) * sqrt(1/4n + z²/4n²) = 1.88746 * 0.050951
        (50, 100, 0.40383, 0.59617),
        # p = 0.95: centre = (0.95 + 0.019207) / 1.038415, half = 1.88746 * 0.023897
        (95, 100, 0.88825, 0.97845),
        (10, 10, 0.72246, 1.0),
    ],
)
def test_wilson_interval_matches_hand_computed_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(1, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_draws_count_as_half_a_win_for_each_side() -> None:
    results = [
        GameResult(0, a_seat=0, winner_seat=0, rounds=2),  # A wins
        GameResult(1, a_seat=1, winner_seat=1, rounds=1),  # A wins from seat 1
        GameResult(2, a_seat=0, winner_seat=1, rounds=3),  # B wins
        GameResult(3, a_seat=1, winner_seat=None, rounds=3),  # draw
    ]
    summary = ArenaSummary.of("hard", "normal", results)
    assert (summary.wins_a, summary.wins_b, summary.draws) == (2, 1, 1)
    assert summary.win_rate("a") == 2.5 / 4
    assert summary.win_rate("b") == 1.5 / 4
    assert summary.interval("a") == wilson_interval(2.5, 4)
    lines = summary.lines()
    assert lines[0].startswith("A hard")
    assert "win rate  62.5%" in lines[0]
    assert "draws 1 (each counted as half a win)" in lines[2]


class SeatRecorder:
    """Plays randomly and remembers which seat it was asked to decide for."""

    name = "recorder"

    def __init__(self) -> None:
        self.seats: set[int] = set()
        self.random = RandomAgent()

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        self.seats.add(view.player)
        return self.random.decide(view, rng)


def test_seats_swap_every_other_game_on_the_same_deals() -> None:
    assert [seat_of_a(i) for i in range(4)] == [0, 1, 0, 1]
    assert game_seed(7, 0) == game_seed(7, 1) != game_seed(7, 2)
    for index in range(4):
        a, b = SeatRecorder(), SeatRecorder()
        result = play_arena_game(a, b, seed=7, index=index)
        assert result.a_seat == index % 2
        assert a.seats == {index % 2}
        assert b.seats == {1 - index % 2}


def test_parallel_jobs_give_the_same_result_as_one() -> None:
    alone = run_arena("random", "easy", games=24, seed=3, jobs=1)
    shared = run_arena("random", "easy", games=24, seed=3, jobs=2)
    assert alone == shared
    assert alone.wins_a + alone.wins_b + alone.draws == 24


def test_the_arena_command_prints_both_sides_with_intervals() -> None:
    import io

    out = io.StringIO()
    assert run_cli("normal", "random", 10, 1, 1, out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "arena: normal (A) against random (B), 10 games, seed 1, jobs 1"
    assert lines[1].startswith("A normal") and "95% CI [" in lines[1]
    assert lines[2].startswith("B random") and "95% CI [" in lines[2]


def test_a_long_arena_prints_running_tallies_then_times_and_load() -> None:
    import io

    out = io.StringIO()
    assert run_cli("random", "easy", 200, 2, 1, out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("after 100 games: A random ") and "% [" in lines[1]
    assert not any(line.startswith("after 200") for line in lines)  # the summary says it
    assert lines[-3].startswith("A random  time: decisions ")
    assert lines[-2].startswith("B easy    time: decisions ") and "guard hits 0 (0.0%)" in lines[-2]
    assert lines[-1].startswith("load average (1, 5, 15 min) at the end: ")


def test_decision_times_add_up_and_read_as_percentiles() -> None:
    times = DecisionTimes((0.3, 0.1), 1) + DecisionTimes((0.2,), 0)
    assert times == DecisionTimes((0.3, 0.1, 0.2), 1)
    assert times.line() == (
        "decisions 3  p50 200.0 ms  p95 300.0 ms  max 300.0 ms  guard hits 1 (33.3%)"
    )
    assert DecisionTimes().line() == "no timed decisions"

"""The review's figures: analysis time per match (alone and through the service), agreement
with a deeper search, hint time.

    python -m bench.review_figures [--matches 10] [--positions 30] [--depth 10] [--seed 1]
        [--parts analysis,service,hints,depth]

Prints, never asserts (run it on a quiet machine):

1. Analysis time: ``--matches`` matches of hard-v1 against normal (seeded deals and
   agents; the frozen reference level, so the positions stay the same as hard improves)
   reviewed with :data:`REVIEW_ITERATIONS` by :func:`review_match` in this process: the
   search alone; decisions per match, seconds per match (mean, max), seconds per decision.
2. Service time: the same matches stored as finished in a :class:`MatchService` on a
   temporary SQLite file whose AI worker is one spawned process, as the bot runs it; the
   time of ``service.reviews.review(match_id, player)`` from the call to the review returned (every
   step a job in the worker, the record read and the review stored), and of the second look
   (read back from the store). The worker is started before the clock runs, as the bot's is
   by its AI moves.
3. Depth: ``--positions`` non-forced positions of those matches searched with the
   review's budget and with ``--depth`` times it; how often both name the same best
   decision, and how often the review's best is within the GOOD threshold of the deeper
   search's best by the deeper search's own estimates.
4. Hint time: :func:`suggest` on the same positions at :data:`HINT_ITERATIONS` (p50, max).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from engine.ai import IsmctsAgent, agent_for_level
from engine.command_line import CommandLineParser, count, description, seed
from engine.model import ExpiryPolicy, FinishedMatch, MatchInfo, MatchStatus
from engine.review.hint import HINT_ITERATIONS, suggest
from engine.review.judge import REVIEW_ITERATIONS, review_match
from engine.review.search import MOST_ITERATIONS, evaluate
from engine.review.steps import match_steps, step_count
from engine.review.verdicts import INACCURACY_LOSS
from engine.rules import GameState, view
from engine.rules.record import MatchRecord, replay
from engine.rules.views import PlayerView
from engine.service import MatchService, ServiceConfig
from engine.store.sqlite import SqliteMatchStore

PROG = "python -m bench.review_figures"
PLAYER = 1
"""The first player of every stored match, who asks for its review."""
PARTS = ("analysis", "service", "hints", "depth")
MOST_MATCHES = 1_000
"""About three hours of analysis at 10 s a match."""
MOST_POSITIONS = 10_000
MOST_DEPTH = 100


def hard_against_normal(seed: int) -> MatchRecord:
    seat = seed % 2
    reference = agent_for_level("hard-v1")
    assert isinstance(reference, IsmctsAgent)
    reference.time_limit = None  # the budget alone decides: the same matches under any load
    agents = {seat: reference, 1 - seat: agent_for_level("normal")}
    rng = random.Random(f"review-figures/{seed}")
    state = GameState(seed=seed, first_player=(seed // 2) % 2)
    while not state.is_over:
        player = state.current_player
        assert player is not None
        state.apply(agents[player].decide(view(state, player), rng), player)
    return MatchRecord.of(state)


def analysis_time(records: list[MatchRecord], iterations: int) -> None:
    seconds: list[float] = []
    decisions: list[int] = []
    for record in records:
        started = time.perf_counter()
        review = review_match(record, iterations=iterations)
        seconds.append(time.perf_counter() - started)
        decisions.append(len(review.steps))
    print(
        f"analysis time ({len(records)} matches hard-v1 vs normal, {iterations} play-outs per "
        f"decision): {statistics.fmean(decisions):.1f} decisions per match "
        f"(max {max(decisions)}), {statistics.fmean(seconds):.1f} s per match mean, "
        f"{max(seconds):.1f} s max, {sum(seconds) / sum(decisions):.3f} s per decision"
    )


def service_time(records: list[MatchRecord], iterations: int) -> None:
    first, second = asyncio.run(_service_looks(records, iterations))
    print(
        f"service time ({len(records)} matches, {iterations} play-outs per decision, one "
        f"spawned worker, SQLite): first look {statistics.fmean(first):.1f} s mean, "
        f"{max(first):.1f} s max; second look (stored) {1000 * statistics.fmean(second):.1f} "
        f"ms mean, {1000 * max(second):.1f} ms max"
    )


async def _service_looks(
    records: list[MatchRecord], iterations: int
) -> tuple[list[float], list[float]]:
    """Seconds of each match's first review through the service, and of its second."""
    context = multiprocessing.get_context("spawn")
    with (
        tempfile.TemporaryDirectory() as folder,
        ProcessPoolExecutor(max_workers=1, mp_context=context) as worker,
    ):
        # Started (and its imports done) before the clock runs, as the bot's worker is.
        await asyncio.get_running_loop().run_in_executor(worker, step_count, records[0])
        service = MatchService(
            SqliteMatchStore(str(Path(folder) / "matches.sqlite3")),
            ServiceConfig(review_iterations=iterations),
            agent_executor=worker,
        )
        await service.start()
        try:
            match_ids = [await _stored_finished(service, record) for record in records]
            first: list[float] = []
            second: list[float] = []
            for match_id in match_ids:
                for looks in (first, second):
                    started = time.perf_counter()
                    await service.reviews.review(match_id, PLAYER)
                    looks.append(time.perf_counter() - started)
        finally:
            await service.close()
    return first, second


async def _stored_finished(service: MatchService, record: MatchRecord) -> int:
    """``record`` put in the service's store as a finished match between two members."""
    replayed = replay(record)
    outcome = replayed.outcome
    assert outcome is not None, "a bench match is played to its end"
    players = (PLAYER, PLAYER + 1)
    match = await service.store.create_match(
        MatchInfo(
            match_id=0,
            status=MatchStatus.PENDING,
            variant=record.variant,
            players=players,
            guild_id=1,
            channel_id=1,
            turn_seconds=600.0,
            expiry_policy=ExpiryPolicy.AI,
            created_at=0.0,
            challenge_expires_at=600.0,
        )
    )
    await service.store.start_match(
        match.match_id,
        seed=0,
        first_player=record.first_player,
        started_at=0.0,
        turn_deadline=None,
    )
    winner = outcome.winner
    result = FinishedMatch(
        match_id=match.match_id,
        guild_id=1,
        variant=record.variant,
        players=players,
        ai_level=None,
        winner_seat=winner,
        winner_id=None if winner is None else players[winner],
        reason=outcome.termination,
        rounds=len(record.rounds),
        started_at=0.0,
        finished_at=60.0,
        record=record.to_json(),
    )
    await service.store.finish_match(result, None, version=0)
    return match.match_id


def positions(records: list[MatchRecord], count: int, seed: int) -> list[tuple[str, PlayerView]]:
    """``count`` non-forced positions of the matches, drawn evenly with a seeded rng."""
    found = [
        (f"{index}/{step.index}", view(state, step.player))
        for index, record in enumerate(records)
        for step, state in match_steps(record)
        if len(state.legal_decisions()) > 1
    ]
    rng = random.Random(seed)
    return rng.sample(found, min(count, len(found)))


def depth_agreement(chosen: list[tuple[str, PlayerView]], iterations: int, depth: int) -> None:
    same = within = 0
    started = time.perf_counter()
    for name, seen in chosen:
        review_best = evaluate(seen, iterations=iterations, seed=name).best
        deep = evaluate(
            seen, iterations=iterations * depth, seed=f"deep/{name}", include=review_best.decision
        )
        same += deep.best.decision == review_best.decision
        within += deep.best.chance - deep.of(review_best.decision).chance < INACCURACY_LOSS
    total = len(chosen)
    print(
        f"depth ({total} positions, {iterations} vs {iterations * depth} play-outs): same best "
        f"{same}/{total} ({100 * same / total:.0f}%), review's best within the GOOD threshold "
        f"({INACCURACY_LOSS}) of the deeper best {within}/{total} ({100 * within / total:.0f}%) "
        f"({time.perf_counter() - started:.0f} s)"
    )


def hint_time(chosen: list[tuple[str, PlayerView]]) -> None:
    seconds = []
    for _, seen in chosen:
        started = time.perf_counter()
        suggest(seen)
        seconds.append(time.perf_counter() - started)
    print(
        f"hint time ({len(seconds)} positions, {HINT_ITERATIONS} play-outs): "
        f"p50 {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(
        prog="python -m bench.review_figures", description=description(__doc__)
    )
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=10,
        help=f"matches of hard-v1 against normal, 1 to {MOST_MATCHES:,} (10)",
    )
    parser.add_argument(
        "--positions",
        type=count(1, MOST_POSITIONS),
        default=30,
        help=f"positions for the hint and depth figures, 1 to {MOST_POSITIONS:,} (30)",
    )
    parser.add_argument(
        "--depth",
        type=count(1, MOST_DEPTH),
        default=10,
        help=f"how many times deeper the second search goes, 1 to {MOST_DEPTH} (10)",
    )
    parser.add_argument(
        "--iterations",
        type=count(1, MOST_ITERATIONS),
        default=REVIEW_ITERATIONS,
        help=f"play-outs per decision, 1 to {MOST_ITERATIONS:,} ({REVIEW_ITERATIONS})",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the matches and positions")
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"which figures, comma-separated ({', '.join(PARTS)})",
    )
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    if args.iterations * args.depth > MOST_ITERATIONS and "depth" in parts:
        parser.error(
            f"--iterations {args.iterations} times --depth {args.depth} is above "
            f"{MOST_ITERATIONS:,} play-outs per decision"
        )
    if not parts <= set(PARTS):
        parser.error(f"--parts takes {', '.join(PARTS)}, got {args.parts!r}")
    print(
        f"python -m bench.review_figures --matches {args.matches} --positions {args.positions} "
        f"--depth {args.depth} --iterations {args.iterations} --seed {args.seed} "
        f"--parts {args.parts}"
    )
    records = [hard_against_normal(args.seed * 1000 + i) for i in range(args.matches)]
    if "analysis" in parts:
        analysis_time(records, args.iterations)
    if "service" in parts:
        service_time(records, args.iterations)
    chosen = positions(records, args.positions, args.seed)
    if "hints" in parts:
        hint_time(chosen)
    if "depth" in parts:
        depth_agreement(chosen, args.iterations, args.depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())

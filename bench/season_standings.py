"""Season standings for a big server: how long a season's table takes to count, read and end.

Fills a SQLite file (WAL, as the bot runs it) with ``--matches`` rated matches between
``--members`` members, all finished in one running season, through the store as the
service writes them; then times, through the match service:

- the first season leaderboard page (one query for every match, then the whole season
  counted: what a process does once, after a start);
- a page once one more match has finished (one query for the new match, counted on top);
- the end of the season (counted again in full, every ranked member stored, one commit).

    python bench/season_standings.py [--members 5000] [--matches 20000] [--seed S]

Prints one line per figure; the last is ``end ms: N``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from engine.command_line import CommandLineParser, count, description, fail, seed
from engine.model import ExpiryPolicy, FinishedMatch, MatchInfo, MatchStatus
from engine.ratings import rate_finished_match
from engine.rules.outcome import Termination
from engine.rules.state import Variant
from engine.service import ManualClock, MatchService, ServiceConfig
from engine.store.sqlite import SqliteMatchStore

PROG = "bench/season_standings.py"
GUILD = 1
START = 2_000_000_000.0
BATCH = 200
"""Matches written at once (they share group commits, as concurrent endings do)."""
MOST_MEMBERS = 1_000_000
MOST_MATCHES = 1_000_000


async def finish_one(
    store: SqliteMatchStore, players: tuple[int, int], winner: int, at: float
) -> None:
    info = MatchInfo(
        0, MatchStatus.PENDING, Variant.STANDARD, players, GUILD, 2, 3600.0, ExpiryPolicy.AI, at
    )
    created = await store.create_match(info)
    match_id = created.match_id
    await store.start_match(match_id, seed=1, first_player=0, started_at=at, turn_deadline=None)
    result = FinishedMatch(
        match_id, GUILD, Variant.STANDARD, players, None, winner, players[winner],
        Termination.CHARM, 1, at, at, "{}",
    )  # fmt: skip
    await store.finish_match(
        result, None, lambda before: rate_finished_match(result, before), version=0
    )


async def run(members: int, matches: int, seed: int, db: Path) -> int:
    clock = ManualClock(START)
    service = MatchService(SqliteMatchStore(db), ServiceConfig(), clock=clock)
    await service.start()
    try:
        await service.seasons.start(GUILD)
        rng = random.Random(seed)
        # Stronger members (lower ids) win more often, so the ranking is not a coin toss.
        pairs = [tuple(rng.sample(range(1, members + 1), 2)) for _ in range(matches + 1)]
        winners = [0 if rng.random() < (0.5 + (b - a) / (4 * members)) else 1 for a, b in pairs]
        start = time.perf_counter()
        for first in range(0, matches, BATCH):
            await asyncio.gather(
                *(
                    finish_one(service.store, pairs[i], winners[i], START + 1 + i)  # type: ignore[arg-type]
                    for i in range(first, min(first + BATCH, matches))
                )
            )
        print(f"written: {matches:,} rated matches of {members:,} members "
              f"in {time.perf_counter() - start:.1f} s")  # fmt: skip

        start = time.perf_counter()
        page = await service.seasons.leaderboard(GUILD)
        cold = (time.perf_counter() - start) * 1000
        print(f"first page ms: {cold:.0f} ({page.total:,} ranked)")

        await finish_one(service.store, pairs[matches], winners[matches], START + 2 + matches)  # type: ignore[arg-type]
        start = time.perf_counter()
        page = await service.seasons.leaderboard(GUILD, offset=10)
        warm = (time.perf_counter() - start) * 1000
        print(f"page after one more match ms: {warm:.1f}")

        await clock.advance(matches + 10.0)  # the season ends after its last match
        start = time.perf_counter()
        ended = await service.seasons.end(GUILD)
        await service.wait_idle()
        end = (time.perf_counter() - start) * 1000
        print(f"end ms: {end:.0f} ({len(ended.podium)} on the podium)")
        if page.total == 0:
            needed = service.config.season_min_games
            return fail(
                PROG, f"nobody played the {needed} matches needed to be ranked: more --matches"
            )
        return 0
    finally:
        await service.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog=PROG, description=description(__doc__))
    parser.add_argument(
        "--members",
        type=count(2, MOST_MEMBERS),
        default=5000,
        help=f"members who play in the season, 2 to {MOST_MEMBERS:,} (5,000)",
    )
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=20_000,
        help=f"rated matches in the season, 1 to {MOST_MATCHES:,} (20,000)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of who plays whom")
    args = parser.parse_args(argv)
    needed = ServiceConfig().season_min_games
    fewest = -(-args.members * needed // 2)  # each match gives two members a game
    if args.matches < fewest:
        parser.error(
            f"--matches {args.matches:,} is too few for anyone to be ranked: {args.members:,} "
            f"members need at least {fewest:,} for {needed} games each"
        )
    with tempfile.TemporaryDirectory() as scratch:
        return asyncio.run(run(args.members, args.matches, args.seed, Path(scratch) / "s.sqlite3"))


if __name__ == "__main__":
    sys.exit(main())

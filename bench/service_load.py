"""Match service under load: M concurrent matches played to the end through the service.

M tables each play matches to the end, one after another, for ``--seconds``; then the
matches in progress finish. Both players of a match are random agents that look at their
view, "think" for a random time and submit; every submit is timed until the service
acknowledges it (commit included). The database is a real SQLite file (WAL,
``synchronous=NORMAL``).

    python bench/service_load.py [--matches 1000] [--think-ms 500] [--seconds 20]
                                 [--db PATH] [--seed S]

``--think-ms`` is the mean pause before each decision (uniform from 0 to twice it): M
players thinking T seconds offer about M/T decisions per second. ``--think-ms 0`` has
every player submit the moment it is their turn, which measures saturated throughput
(latency then grows with the queue, by Little's law). Prints decisions/s over the timed
window, p50/p99 submit latency, and resident memory per active match (measured once all
M matches have started and are still running).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from engine.command_line import CommandLineParser, amount, count, description, fail, seed
from engine.service import MatchService, ServiceConfig
from engine.store.sqlite import SqliteMatchStore

PROG = "bench/service_load.py"
MOST_MATCHES = 100_000
"""A hundred times the documented run; each match holds about 25 KB."""
_PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE


class Load:
    def __init__(self, service: MatchService, think: float, seed: int) -> None:
        self.service = service
        self.think = think
        self.seed = seed
        self.latencies: list[float] = []
        self.warm_up_decisions = 4
        self.warmed = 0
        self.all_warm = asyncio.Event()
        self.measured = asyncio.Event()
        self.draining = False
        """After the timed window, players stop thinking so the last matches end quickly."""

    async def table(self, index: int, matches: int, until: list[float]) -> None:
        """Play matches at one table until the window closes."""
        rng = random.Random(self.seed * 1_000_003 + index)
        first = True
        while first or time.perf_counter() < until[0]:
            await self.play(index, matches, rng, first)
            first = False

    async def play(self, index: int, matches: int, rng: random.Random, first: bool) -> None:
        a, b = 2 * index + 1, 2 * index + 2
        challenge = await self.service.challenges.challenge(a, b, guild_id=1, channel_id=index)
        match = await self.service.challenges.accept(challenge.match_id, b)
        decisions = 0
        to_move = match.first_player
        while to_move is not None:
            if first and decisions == self.warm_up_decisions:
                # Hold every match open until memory is measured with all of them active.
                self.warmed += 1
                if self.warmed == matches:
                    self.all_warm.set()
                await self.measured.wait()
            if self.think and not self.draining:
                await asyncio.sleep(rng.uniform(0, 2 * self.think))
            user = match.players[to_move]
            seen = await self.service.queries.view_for(match.match_id, user)
            started = time.perf_counter()
            result = await self.service.commands.submit(
                match.match_id, user, rng.choice(seen.legal), seen.table.version
            )
            self.latencies.append(time.perf_counter() - started)
            to_move = result.next_player
            decisions += 1


async def run(matches: int, think: float, seconds: float, db: Path, seed: int) -> int:
    """One run and its figures; exit status 1 if the window saw no decision."""
    # Each simulated pair plays match after match: the per-member hourly limit, meant for
    # abuse, would stop the load, so it is lifted here.
    config = ServiceConfig(
        max_active_matches=10,
        turn_timer_seconds=3600,
        ai_move_delay_seconds=0,
        max_new_matches_per_hour=1_000_000,
        challenge_cooldown_seconds=0,
    )
    store = SqliteMatchStore(str(db))
    service = MatchService(store, config, rng=random.Random(seed))
    await service.start()
    load = Load(service, think, seed)
    baseline = resident_bytes()
    started = time.perf_counter()
    until = [float("inf")]
    tasks = [asyncio.create_task(load.table(i, matches, until)) for i in range(matches)]
    await load.all_warm.wait()
    per_match = (resident_bytes() - baseline) / matches
    load.measured.set()
    warm_decisions = len(load.latencies)
    measure_from = time.perf_counter()
    cpu_from = time.process_time()
    until[0] = measure_from + seconds
    batches_from = store.batches
    await asyncio.sleep(seconds)
    window = load.latencies[warm_decisions:]
    steady = len(window)
    commits = store.batches - batches_from
    elapsed = time.perf_counter() - measure_from
    cpu = time.process_time() - cpu_from
    load.draining = True
    await asyncio.gather(*tasks)
    total = len(load.latencies)
    await service.close()
    if not window:
        return fail(PROG, f"no decision in the {seconds:g} s window: nothing measured")
    latencies = sorted(window)
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000
    print(f"matches: {matches}  think: {think * 1000:.0f} ms mean  database: {db}")
    print(f"decisions: {total}  in {time.perf_counter() - started:.1f} s overall")
    print(f"timed window: {elapsed:.1f} s, {steady} decisions in {commits} commits")
    print(f"decisions/s: {steady / elapsed:.0f}")
    print(f"submit latency in the window p50: {p50:.2f} ms  p99: {p99:.2f} ms")
    print(f"memory per active match: {per_match / 1024:.1f} KB")
    print(f"CPU per decision (both threads, players' views included): {cpu / steady * 1e6:.0f} us")
    print(f"load average (other processes compete for the CPU): {os.getloadavg()[0]:.2f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog=PROG, description=description(__doc__))
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=1000,
        help=f"concurrent matches, 1 to {MOST_MATCHES:,} (1000)",
    )
    parser.add_argument(
        "--think-ms",
        type=amount(0, 60_000, unit="ms"),
        default=500.0,
        help="mean think time before each decision, uniform 0..2x (500); 0 = saturation",
    )
    parser.add_argument(
        "--seconds",
        type=amount(0.1, 3600, unit="s"),
        default=20.0,
        help="the timed window (20)",
    )
    parser.add_argument(
        "--db", type=Path, default=None, help="the SQLite file (default: a temporary one)"
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the players' choices")
    args = parser.parse_args(argv)
    if args.db is not None and (args.db.is_dir() or not args.db.parent.is_dir()):
        parser.error(f"--db {str(args.db)!r} must be a file in an existing folder")
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or Path(scratch) / "service_load.sqlite3"
        return asyncio.run(run(args.matches, args.think_ms / 1000, args.seconds, db, args.seed))


if __name__ == "__main__":
    sys.exit(main())

"""Match service across processes: SQLite in one process, PostgreSQL in one, and PostgreSQL
in two processes on one database, at the same load.

The load is bench/service_load's: ``--matches`` tables, each playing match after match
between two random agents who read their view, think (uniform from 0 to twice
``--think-ms``; 0 submits at once and measures saturated throughput) and submit; each
submit is timed until the service acknowledges it (commit included). Each setup runs its
match services in worker processes (multiprocessing, "spawn"):

- ``sqlite``: one process on a SQLite file (WAL, ``synchronous=NORMAL``);
- ``pg1``: one process on PostgreSQL;
- ``pg2``: two processes on one PostgreSQL database. The two seats of a match submit
  through different processes (as in the bot, where a DM click lands on one shard's
  process and a guild click on another's): whenever the turn passes to the other player
  (nearly every decision), the process that applies the decision did not apply the one
  before and first catches up from the database; matches are created in one process and
  the other alternately (bench/cluster/players.py).

PostgreSQL is pgserver's, on a Unix socket in a scratch directory, with
``synchronous_commit=off`` (``--synchronous-commit`` turns it on), the match of SQLite's
``synchronous=NORMAL``. Prints, per setup, decisions/s and p50/p99 submit latency over
the timed window (after ``--warm-up``), StaleVersion refusals (honest players submit only
on their turn, so ~0), errors, what the database holds (acknowledged decisions lost or
stored twice, matches left unfinished: all 0), the 1-minute load average before and at
the end of the window; the latency of moves apart from that of the decisions that end a
match; and the CPU the worker processes, the PostgreSQL server and the whole machine used
in the window, per decision: with the core count, how far the figures can grow with more
cores.

    python bench/cluster_load.py [--matches 200] [--think-ms 200] [--seconds 20]
                                 [--seed S] [--only sqlite|pg1|pg2] [--warm-up 2]
                                 [--synchronous-commit] [--pool N]

The worker processes and the server are stopped and the scratch directory removed however
the run ends (Ctrl-C and SIGTERM included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import worker
from bench.cluster.audit import Audit, audit
from bench.cluster.players import Ack, Tally
from bench.cluster.server import PostgresServer, cpu_seconds, machine_cpu_seconds, postgres
from bench.cluster.worker import DRAIN_LIMIT, Plan, StoreSpec
from engine.command_line import CommandLineParser, amount, count, description, fail, seed

READY_TIMEOUT = 60.0
"""How long a worker may take to start its service."""
STOP_GRACE = 10.0
"""How long a worker told to stop (SIGTERM) may take before it is killed."""


@dataclass(frozen=True, slots=True)
class Setup:
    name: str
    store: str
    processes: int


SETUPS = (Setup("sqlite", "sqlite", 1), Setup("pg1", "postgres", 1), Setup("pg2", "postgres", 2))


@dataclass(frozen=True, slots=True)
class Usage:
    """CPU seconds: of the worker processes, the PostgreSQL server (None without one) and
    the whole machine, all between two readings; and the load average at the second."""

    python: float
    server: float | None
    machine: float
    load: float

    @classmethod
    def now(cls, pids: Sequence[int], server: PostgresServer | None) -> Usage:
        cpu = None if server is None else server.cpu_seconds()
        return cls(cpu_seconds(pids), cpu, machine_cpu_seconds(), os.getloadavg()[0])

    def __sub__(self, before: Usage) -> Usage:
        server = None
        if self.server is not None and before.server is not None:
            server = self.server - before.server
        return Usage(self.python - before.python, server, self.machine - before.machine, self.load)


@dataclass(frozen=True, slots=True)
class Row:
    setup: Setup
    acks: list[Ack]
    """Acknowledged in the timed window."""
    stale: int
    errors: list[str]
    audit: Audit
    usage: Usage
    load_before: float


@dataclass(frozen=True, slots=True)
class Window:
    start: float
    end: float

    @property
    def seconds(self) -> float:
        return self.end - self.start


def _expect(control: Connection, process: BaseProcess, kind: str, timeout: float) -> Any:
    """The worker's next message, which must be ``kind``; its payload."""
    deadline = time.monotonic() + timeout
    while not control.poll(0.5):
        if not process.is_alive():
            raise RuntimeError(f"{process.name} exited (code {process.exitcode}) before {kind!r}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{process.name} sent no {kind!r} in {timeout:.0f} s")
    message = control.recv()
    if message[0] != kind:
        raise RuntimeError(f"{process.name} sent {message[0]!r}, expected {kind!r}")
    return message[1]


def _stop(processes: Sequence[BaseProcess]) -> None:
    """Stop every worker still running: SIGTERM, then SIGKILL after a grace."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def _sleep_until(instant: float, controls: Sequence[Connection]) -> None:
    """Sleep until ``instant``, or until a worker speaks (it only does so early when all
    its tables stopped on errors)."""
    wait(controls, max(0.0, instant - time.monotonic()))


def play(
    setup: Setup, spec: StoreSpec, args: argparse.Namespace, server: PostgresServer | None
) -> tuple[list[Tally], Window, Usage]:
    """Run the workers of ``setup`` through one timed window: their tallies, the window,
    and what the window used."""
    context = multiprocessing.get_context("spawn")
    ends: Sequence[socket.socket | None] = socket.socketpair() if setup.processes == 2 else (None,)
    processes: list[BaseProcess] = []
    controls: list[Connection] = []
    try:
        for index, end in enumerate(ends):
            control, child_control = context.Pipe()
            controls.append(control)
            plan = Plan(index, setup.processes, spec, args.matches, args.think_ms / 1000, args.seed)
            started = context.Process(
                target=worker.main,
                args=(plan, child_control, end),
                name=f"{setup.name} worker {index}",
                daemon=True,
            )
            processes.append(started)
            started.start()
            child_control.close()
        for end in ends:
            if end is not None:
                end.close()
        pids = [
            _expect(c, p, "ready", READY_TIMEOUT) for c, p in zip(controls, processes, strict=True)
        ]
        go = time.monotonic() + 0.1
        window = Window(go + args.warm_up, go + args.warm_up + args.seconds)
        for control in controls:
            control.send(("go", go, window.end))
        _sleep_until(window.start, controls)
        before = Usage.now(pids, server)
        _sleep_until(window.end, controls)
        usage = Usage.now(pids, server) - before
        timeout = DRAIN_LIMIT + STOP_GRACE
        tallies = [_expect(c, p, "done", timeout) for c, p in zip(controls, processes, strict=True)]
        for process in processes:
            process.join(STOP_GRACE)
        return tallies, window, usage
    finally:
        _stop(processes)
        for control in controls:
            control.close()
        for end in ends:
            if end is not None:
                end.close()


def run_setup(
    setup: Setup, args: argparse.Namespace, scratch: Path, server: PostgresServer | None
) -> Row:
    if setup.store == "sqlite":
        spec = StoreSpec("sqlite", str(scratch / f"{setup.name}.sqlite3"))
        server = None
    else:
        assert server is not None
        spec = StoreSpec("postgres", server.database(setup.name), args.pool)
    load_before = os.getloadavg()[0]
    tallies, window, usage = play(setup, spec, args, server)
    acks = [ack for tally in tallies for ack in tally.acks if window.start <= ack.at < window.end]
    return Row(
        setup,
        acks,
        sum(tally.stale for tally in tallies),
        [error for tally in tallies for error in tally.errors],
        asyncio.run(audit(spec, tallies)),
        usage,
        load_before,
    )


def _percentiles(acks: Sequence[Ack]) -> str:
    """p50 and p99 submit latency in ms, as two 8-wide columns."""
    if not acks:
        return f"{'-':>8}{'-':>8}"
    latencies = sorted(ack.latency * 1000 for ack in acks)
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    return f"{statistics.median(latencies):>8.1f}{p99:>8.1f}"


def report(rows: Sequence[Row], args: argparse.Namespace) -> None:
    seconds = args.seconds
    print(
        f"matches: {args.matches}  think: {args.think_ms:.0f} ms mean  window: {seconds:g} s"
        f" after {args.warm_up:g} s warm-up  cores: {os.cpu_count()}"
        f"  synchronous_commit: {'on' if args.synchronous_commit else 'off'}"
        f"  pool: {args.pool or 'default'}"
    )
    header = (
        f"{'setup':<7}{'procs':>6}{'decisions':>10}{'dec/s':>8}{'p50_ms':>8}{'p99_ms':>8}"
        f"{'stale':>7}{'errors':>7}{'lost':>6}{'doubled':>8}{'unfinished':>11}{'matches':>8}"
        f"{'load_before':>12}{'load_after':>11}"
    )
    print(header)
    for row in rows:
        print(
            f"{row.setup.name:<7}{row.setup.processes:>6}{len(row.acks):>10}"
            f"{len(row.acks) / seconds:>8.0f}{_percentiles(row.acks)}"
            f"{row.stale:>7}{len(row.errors):>7}"
            f"{row.audit.lost:>6}{row.audit.doubled:>8}{row.audit.unfinished:>11}"
            f"{row.audit.matches:>8}{row.load_before:>12.2f}{row.usage.load:>11.2f}"
        )
    print(
        "Submit latency, ms: moves, and the decisions that end a match (their commit also"
        " records the result and the ratings, read in that commit):"
    )
    print(
        f"{'setup':<7}{'moves':>8}{'p50_ms':>8}{'p99_ms':>8}{'endings':>8}{'p50_ms':>8}{'p99_ms':>8}"
    )
    for row in rows:
        moves = [ack for ack in row.acks if not ack.ended]
        endings = [ack for ack in row.acks if ack.ended]
        print(
            f"{row.setup.name:<7}{len(moves):>8}{_percentiles(moves)}"
            f"{len(endings):>8}{_percentiles(endings)}"
        )
    print(
        "CPU in the window: cores busy (python: the workers; machine: every process,"
        " other work included), then microseconds per decision:"
    )
    print(
        f"{'setup':<7}{'python':>8}{'postgres':>10}{'machine':>9}"
        f"{'python_us':>11}{'postgres_us':>13}"
    )
    for row in rows:
        per = 1e6 / max(len(row.acks), 1)
        usage = row.usage
        server = usage.server
        print(
            f"{row.setup.name:<7}{usage.python / seconds:>8.2f}"
            f"{'-' if server is None else f'{server / seconds:.2f}':>10}"
            f"{usage.machine / seconds:>9.2f}{usage.python * per:>11.0f}"
            f"{'-' if server is None else f'{server * per:.0f}':>13}"
        )
    by_name = {row.setup.name: row for row in rows}
    if "pg1" in by_name and "pg2" in by_name and by_name["pg1"].acks:
        ratio = len(by_name["pg2"].acks) / len(by_name["pg1"].acks)
        print(f"pg2/pg1 throughput: {ratio:.2f}")
    for row in rows:
        for error in row.errors[:5]:
            print(f"{row.setup.name} error: {error}")


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


MOST_MATCHES = 20_000
"""Twenty times the service bench's 1,000 matches: more only measures the queue."""
LONGEST_SECONDS = 3600.0


def parse_options(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = CommandLineParser(prog="bench/cluster_load.py", description=description(__doc__))
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=200,
        help=f"concurrent matches, 1 to {MOST_MATCHES:,} (200)",
    )
    parser.add_argument(
        "--think-ms",
        type=amount(0, 60_000, unit="ms"),
        default=200.0,
        help="mean think time before each decision, uniform 0..2x (200); 0 = saturation",
    )
    parser.add_argument(
        "--seconds",
        type=amount(1, LONGEST_SECONDS, unit="s"),
        default=20.0,
        help="the timed window (20)",
    )
    parser.add_argument(
        "--warm-up",
        type=amount(0, LONGEST_SECONDS, unit="s"),
        default=2.0,
        help="play before the window opens (2)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--only", choices=[setup.name for setup in SETUPS], help="run one setup only"
    )
    parser.add_argument(
        "--synchronous-commit", action="store_true", help="PostgreSQL's synchronous_commit on"
    )
    parser.add_argument(
        "--pool",
        type=count(1, 100),
        help="PostgreSQL connections per process, 1 to 100 (the store's default)",
    )
    return parser.parse_args(argv)


def measured_nothing(rows: Sequence[Row]) -> str | None:
    """Why the run measured nothing worth a figure, or None when every setup did."""
    for row in rows:
        if row.errors:
            return f"{row.setup.name} had {len(row.errors)} errors (printed above)"
        if not row.acks:
            return f"{row.setup.name} acknowledged no decision in the window"
        if row.audit.lost or row.audit.doubled:
            return f"{row.setup.name} lost {row.audit.lost} and doubled {row.audit.doubled}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """The benchmark; exit status 1 when a setup erred, lost or measured nothing."""
    args = parse_options(argv)
    setups = [setup for setup in SETUPS if args.only in (None, setup.name)]
    signal.signal(signal.SIGTERM, _interrupt)
    rows: list[Row] = []
    try:
        with (
            tempfile.TemporaryDirectory(prefix="hk-cluster-") as name,
            contextlib.ExitStack() as stack,
        ):
            scratch = Path(name)
            server = None
            if any(setup.store == "postgres" for setup in setups):
                sync = args.synchronous_commit
                server = stack.enter_context(postgres(scratch / "pg", synchronous_commit=sync))
            for setup in setups:
                print(f"{setup.name}: running ...", file=sys.stderr, flush=True)
                rows.append(run_setup(setup, args, scratch, server))
    except KeyboardInterrupt:
        print("interrupted: workers and server stopped", file=sys.stderr)
        return 130
    report(rows, args)
    problem = measured_nothing(rows)
    return 0 if problem is None else fail("bench/cluster_load.py", problem)


if __name__ == "__main__":
    sys.exit(main())

"""Database outages under two bot processes: PostgreSQL frozen (SIGSTOP of all its
processes) and then restarted, while matches are played through the emulator.

    python bench/db_outage.py [--matches 12] [--freeze-seconds 20] [--down-seconds 5]
                              [--phases freeze,restart] [--warm-up 5] [--after 15]
                              [--think-ms 300] [--seed 1]

Two `python -m bot` processes (shard 0 and shard 1 of a two-guild emulator, the matches
split between the guilds) share one PostgreSQL database (pgserver's, on a Unix socket in a
scratch directory). Two scripted members per match play it from what Discord shows them,
and keep clicking through each outage (bench/outage/players.py). Each phase:

- ``freeze``: every process of the server is stopped (SIGSTOP) for ``--freeze-seconds``,
  then continued;
- ``restart``: the server is shut down (``pg_ctl stop -m fast``: every connection drops),
  stays down ``--down-seconds``, and is started again.

Printed per phase (from the outage's start to ``--after`` seconds past the database's
return): clicks whose first response came within Discord's 3 s, came late (the bot tried
after the deadline: Discord's 10062), or never came; the players' refusals; the recovery
time (from the database's return to the first decision acknowledged after it); each
process's log lines in the phase and the traceback lines among them. Then, for the whole
run, the decisions acknowledged to players, audited against the database: lost (not stored
as acknowledged) or doubled (acknowledged twice).

The processes and the server are stopped and the scratch directory removed however the
run ends. The exit status is 1 when nothing was measured (no click in a phase).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the emulator lives in tests/, the pieces in bench/
    sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bench.cluster.server import PostgresServer, family, postgres  # noqa: E402
from bench.outage.players import HAND, Acknowledged, OutagePair, Tally  # noqa: E402
from engine.command_line import (  # noqa: E402
    CommandLineParser,
    amount,
    count,
    description,
    seed,
    shown,
)
from tests.discord_emulator.interactions import EmulatedInteraction  # noqa: E402
from tests.discord_emulator.server import DiscordEmulator  # noqa: E402
from tests.discord_emulator.users import EmulatedUser  # noqa: E402
from tests.e2e.cluster import Cluster, eventually  # noqa: E402

PHASES = ("freeze", "restart")
FIRST_RESPONSE_SECONDS = 3.0


@dataclass
class PhaseFigures:
    name: str
    outage_seconds: float
    in_time: int = 0
    late: int = 0
    never: int = 0
    refused: int = 0
    unconfirmed: int = 0
    recovery: float | None = None
    log_lines: dict[int, int] = field(default_factory=dict)
    traceback_lines: dict[int, int] = field(default_factory=dict)
    said: dict[int, list[str]] = field(default_factory=dict)
    """What each process logged in the phase (shown when it is short)."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = CommandLineParser(prog="bench/db_outage.py", description=description(__doc__))
    parser.add_argument(
        "--matches", type=count(1, 60), default=12, help="matches in play, 1-60 (12)"
    )
    parser.add_argument(
        "--freeze-seconds",
        type=amount(0.1, 600, unit="seconds"),
        default=20.0,
        help="how long the freeze phase keeps PostgreSQL stopped (20)",
    )
    parser.add_argument(
        "--down-seconds",
        type=amount(0, 600, unit="seconds"),
        default=5.0,
        help="how long the restart phase keeps PostgreSQL down (5)",
    )
    parser.add_argument(
        "--phases", type=phases, default=PHASES, help="freeze, restart or both (freeze,restart)"
    )
    parser.add_argument(
        "--warm-up",
        type=amount(0, 600, unit="seconds"),
        default=5.0,
        help="seconds of play before the first outage (5)",
    )
    parser.add_argument(
        "--after",
        type=amount(0.1, 600, unit="seconds"),
        default=15.0,
        help="seconds watched past each return of the database (15)",
    )
    parser.add_argument(
        "--think-ms",
        type=amount(0, 60_000, unit="ms"),
        default=300.0,
        help="players pause 0..2x this before each click (300)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the players' choices (1)")
    return parser.parse_args(argv)


def phases(text: str) -> tuple[str, ...]:
    """An argparse ``type``: the phases to run, in order, from ``freeze`` and ``restart``."""
    named = tuple(p.strip() for p in text.split(",") if p.strip())
    if not named or any(p not in PHASES for p in named):
        raise argparse.ArgumentTypeError(f"takes freeze and/or restart, got {shown(text)}")
    return named


class LateAnswers:
    """The interactions the bot tried to answer after Discord's deadline (10062)."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        original = EmulatedInteraction.too_late
        seen = self.ids

        def too_late(interaction: EmulatedInteraction) -> bool:
            late = original(interaction)
            if late:
                seen.add(interaction.id)
            return late

        EmulatedInteraction.too_late = too_late  # type: ignore[method-assign]


async def start_matches(
    emulator: DiscordEmulator, users: list[EmulatedUser], channels: list[int]
) -> list[tuple[tuple[EmulatedUser, EmulatedUser], int]]:
    """Every pair challenges and accepts; (the pair, its board's id) once each board is up."""

    async def one(index: int) -> tuple[tuple[EmulatedUser, EmulatedUser], int]:
        a, b = users[2 * index], users[2 * index + 1]
        channel = channels[index % len(channels)]
        challenge = await (
            await a.slash("hanamikoji challenge", opponent=b, channel=channel)
        ).answer(wait=30)
        assert challenge is not None, f"no challenge for pair {index}"
        await (await b.click(challenge, "Accept")).answer(wait=30)

        def board() -> int | None:
            for thread in a.threads():
                if a.name in thread.name and b.name in thread.name:
                    for message in a.messages(thread.id):
                        if any(button.label == HAND for button in message.buttons()):
                            return message.id
            return None

        return (a, b), await eventually(board, f"board of pair {index}", seconds=180)

    gate = asyncio.Semaphore(4)

    async def gated(index: int) -> tuple[tuple[EmulatedUser, EmulatedUser], int]:
        async with gate:
            return await one(index)

    return list(await asyncio.gather(*(gated(i) for i in range(len(users) // 2))))


async def freeze(server: PostgresServer, seconds: float) -> None:
    """Every process of the server stopped for ``seconds``, then continued."""
    pids = family(server.pid())
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(seconds)
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):  # ended while stopped
                os.kill(pid, signal.SIGCONT)


async def restart(server: PostgresServer, down_seconds: float) -> None:
    """The server shut down (every connection drops), down a while, started again."""
    await asyncio.to_thread(server.shut_down)
    await asyncio.sleep(down_seconds)
    await asyncio.to_thread(server.start_again)


def clicks_in(
    emulator: DiscordEmulator, late: LateAnswers, start: float, end: float, figures: PhaseFigures
) -> None:
    for interaction in list(emulator.interactions.values()):
        if not start <= interaction.dispatched_at < end:
            continue
        if interaction.response_type is not None and not interaction.failed:
            figures.in_time += 1
        elif interaction.id in late.ids:
            figures.late += 1
        elif interaction.failed:
            figures.never += 1


def log_since(cluster: Cluster, marks: dict[int, int], figures: PhaseFigures) -> None:
    """Per process: the lines logged since ``marks``, and the traceback lines among them."""
    for shard, bot in cluster.processes.items():
        said = bot.output[marks.get(shard, 0) :].decode(errors="replace").splitlines()
        figures.said[shard] = said
        figures.log_lines[shard] = len(said)
        inside = False
        count = 0
        for line in said:
            if line.startswith("Traceback"):
                inside = True
            elif inside and not line.startswith((" ", "\t")) and ":" in line:
                count += 1  # the exception line closes the traceback
                inside = False
                continue
            count += inside
        figures.traceback_lines[shard] = count


async def audit(url: str, acknowledged: list[Acknowledged]) -> tuple[int, int, int]:
    """(lost, doubled, stored): acknowledged decisions the database does not hold as
    acknowledged, decisions acknowledged twice, and decisions stored in all."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT match_id, seq, decision FROM decisions")
    finally:
        await conn.close()
    stored = {(r["match_id"], r["seq"]): r["decision"] for r in rows}
    seen: set[tuple[int, int]] = set()
    lost = doubled = 0
    for ack in acknowledged:
        key = (ack.match_id, ack.version + 1)
        if key in seen:
            doubled += 1
        seen.add(key)
        if stored.get(key) != ack.notation:
            lost += 1
    return lost, doubled, len(stored)


async def run(args: argparse.Namespace) -> int:
    loop = asyncio.get_running_loop()
    with (
        tempfile.TemporaryDirectory(prefix="hk-outage-") as scratch,
        postgres(Path(scratch) / "pg") as server,
    ):
        url = server.database("outage")
        async with DiscordEmulator(shard_count=2) as emulator:
            emulator.tolerate_failures = True  # counted here, not raised
            late = LateAnswers()
            users = [emulator.add_user(f"p{i:04d}") for i in range(2 * args.matches)]
            names = tuple(u.name for u in users)
            second = await emulator.add_guild("Second Tea House", shard_id=1, members=names)
            channels = [emulator.channel.id, second.channel.id]
            cluster = Cluster(emulator, url, Path(scratch), max_active_matches=5)
            tally = Tally()
            stop = asyncio.Event()
            phases: list[PhaseFigures] = []
            try:
                await cluster.start_all()
                print(f"2 bot processes up; starting {args.matches} matches", flush=True)
                try:
                    pairs = await start_matches(emulator, users, channels)
                except AssertionError as failure:
                    problems = [
                        line
                        for line in cluster.output().splitlines()
                        if " ERROR " in line or " WARNING " in line
                    ]
                    print(f"the matches did not start: {failure}", file=sys.stderr)
                    print("\n".join(problems[-20:]), file=sys.stderr)
                    return 1
                rng = random.Random(args.seed)
                players = [
                    asyncio.create_task(
                        OutagePair(
                            emulator,
                            pair,
                            board,
                            tally,
                            random.Random(rng.random()),
                            args.think_ms / 1000,
                        ).play(stop)
                    )
                    for pair, board in pairs
                ]
                await asyncio.sleep(args.warm_up)
                outages: dict[str, Callable[[], Awaitable[None]]] = {
                    "freeze": lambda: freeze(server, args.freeze_seconds),
                    "restart": lambda: restart(server, args.down_seconds),
                }
                for name in args.phases:
                    marks = {s: len(b.output) for s, b in cluster.processes.items()}
                    before = (tally.refused, tally.unconfirmed)
                    start = loop.time()
                    print(f"{name}: database going away", flush=True)
                    await outages[name]()
                    back = loop.time()
                    print(f"{name}: database back after {back - start:.1f} s", flush=True)
                    await asyncio.sleep(args.after)
                    figures = PhaseFigures(name, back - start)
                    clicks_in(emulator, late, start, loop.time(), figures)
                    figures.refused = tally.refused - before[0]
                    figures.unconfirmed = tally.unconfirmed - before[1]
                    after = [a.at - back for a in tally.acknowledged if a.at >= back]
                    figures.recovery = min(after) if after else None
                    log_since(cluster, marks, figures)
                    phases.append(figures)
                stop.set()
                await asyncio.wait(players, timeout=2 * 60)
            finally:
                stop.set()
                try:
                    await cluster.close()
                except (AssertionError, TimeoutError) as problem:
                    print(f"a process did not stop cleanly: {problem}", flush=True)
            lost, doubled, stored = await audit(url, tally.acknowledged)
    return report(args, phases, tally, lost, doubled, stored)


def report(
    args: argparse.Namespace,
    phases: list[PhaseFigures],
    tally: Tally,
    lost: int,
    doubled: int,
    stored: int,
) -> int:
    print()
    print(
        f"db_outage: {args.matches} matches on 2 bot processes, PostgreSQL"
        f" (load average {os.getloadavg()[0]:.2f} at the end, {os.cpu_count()} cores)"
    )
    measured = True
    for p in phases:
        total = p.in_time + p.late + p.never
        measured = measured and total > 0
        recovery = "none seen" if p.recovery is None else f"{p.recovery:.2f} s"
        print(f"\n{p.name} ({p.outage_seconds:.1f} s without the database):")
        print(
            f"  clicks: {total}; first response within {FIRST_RESPONSE_SECONDS:g} s: {p.in_time},"
            f" answered late: {p.late}, never answered: {p.never}"
        )
        print(f"  players told 'not answering': {p.refused}, 'could not confirm': {p.unconfirmed}")
        print(f"  recovery (database back -> first decision acknowledged): {recovery}")
        for shard in sorted(p.log_lines):
            print(
                f"  process {shard}: {p.log_lines[shard]} log lines,"
                f" {p.traceback_lines[shard]} traceback lines"
            )
            if p.log_lines[shard] <= 6:
                for line in p.said[shard]:
                    print(f"    | {line[:150]}")
    print(
        f"\ndecisions acknowledged: {len(tally.acknowledged)}, stored: {stored},"
        f" lost: {lost}, doubled: {doubled}"
    )
    if tally.confused:
        print(f"script notes ({len(tally.confused)}): " + "; ".join(tally.confused[:5]))
    if not measured or not phases:
        print("nothing measured: a phase saw no click", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    try:
        status = asyncio.run(run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(f"(run took {time.monotonic() - started:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())

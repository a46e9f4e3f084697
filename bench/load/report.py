"""The figures a run printed, and whether they meet the targets."""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

from tests.discord_emulator.server import DiscordEmulator

from .bot_process import log_problems
from .measurements import STEPS, LoopLag, RequestRate, Stats, by_window, pct
from .player_profile import HUMAN_CLICK_MEDIAN, HUMAN_DECISION_MEDIAN

TARGET_FIRST_RESPONSE = 0.250
TARGET_BOARD = 2.0
TIMELINE_WINDOW = 30.0
"""Seconds of play per line of the report's timeline."""
TARGET_CPU_PER_DECISION = 0.020
"""CPU seconds of the bot and its workers per decision: at Discord's global limit (about
35 decisions/s at 1.4 requests each) one process then needs 0.7 of a core."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report(
    args: argparse.Namespace,
    stats: Stats,
    emulator: DiscordEmulator,
    in_time: bool,
    wall: float,
    cpu: tuple[float, float, float],
    watched: tuple[LoopLag, RequestRate],
    exit_code: int | None,
    log_path: Path,
) -> int:
    bench_cpu, bot_cpu, others = cpu
    lag, rate = watched
    responses = [x for step in STEPS for x in stats.first_response[step]]
    missed = [f for f in emulator.failures if "no response within" in f.what]
    failed = len(emulator.failures)
    p99_first, p99_board = pct(responses, 0.99), pct(stats.board, 0.99)
    ok_first, ok_board, ok_failed = (
        p99_first < TARGET_FIRST_RESPONSE,
        p99_board < TARGET_BOARD,
        failed == 0,
    )
    cpu_per_decision = bot_cpu / stats.decisions if stats.decisions else None
    ok_cpu = cpu_per_decision is not None and cpu_per_decision <= TARGET_CPU_PER_DECISION
    limits = emulator.rate_limits.stats
    global_429s = limits.sent_429s["global"]
    ok_global = global_429s == 0
    verdict = {True: "OK", False: "MISSED"}
    limit = f", at most {args.limit} at a time" if args.limit else ""
    if args.profile == "human":
        how = (
            f"human players (log-normal think: {HUMAN_DECISION_MEDIAN:g} s median per decision, "
            f"{HUMAN_CLICK_MEDIAN:g} s per further click), starts over {args.ramp:g} s, "
            f"{args.duration:g} s of play"
        )
    else:
        how = f"capacity: think {args.think_ms:g} ms mean before each click"
    print(
        f"bot_load: {args.matches} concurrent matches{limit} in {args.channels} channels, "
        f"seed {args.seed}, {how}"
    )
    print(
        f"matches completed: {stats.completed}/{args.matches}"
        + (f" (+{stats.stopped} still playing at the end)" if stats.stopped else "")
        + f"  decisions: {stats.decisions}  "
        f"(per match {min(stats.per_match, default=0)}-{max(stats.per_match, default=0)})  "
        f"interactions: {stats.interactions}  wall time: {wall:.1f} s"
        + ("" if in_time else f"  (stopped by the {args.timeout:g} s timeout)")
    )
    per_decision = max(1, stats.decisions)
    print(
        f"Discord requests: {limits.global_counted} rate-limited "
        f"({limits.global_counted / per_decision:.2f} per decision), "
        f"{limits.exempt} interaction callbacks and webhooks "
        f"({limits.exempt / per_decision:.2f} per decision, exempt from the global limit)"
    )
    scopes = ", ".join(f"{scope} {n}" for scope, n in sorted(limits.sent_429s.items()) if n)
    print(
        f"429s the bot received: {sum(limits.sent_429s.values())} ({scopes or 'none'})  "
        f"[target: no global 429: {verdict[ok_global]}]"
    )
    print(
        f"decisions/s: {stats.decisions / wall:.1f}  "
        f"interactions/s: {stats.interactions / wall:.1f}"
    )
    print(
        f"time to first response: p50 {ms(pct(responses, 0.5))}  p99 {ms(p99_first)}  "
        f"max {ms(max(responses, default=0.0))}  "
        f"[target p99 < {TARGET_FIRST_RESPONSE * 1000:.0f} ms: {verdict[ok_first]}]"
    )
    for step in STEPS:
        values = stats.first_response[step]
        if values:
            print(
                f"  {step:<9} n={len(values):<6} p50 {ms(pct(values, 0.5)):>9}  "
                f"p99 {ms(pct(values, 0.99)):>9}"
            )
    print(
        f"board shows the move (Confirm/Take click → board edit stored): "
        f"p50 {ms(pct(stats.board, 0.5))}  p99 {ms(p99_board)}  "
        f"max {ms(max(stats.board, default=0.0))}  "
        f"[target p99 < {TARGET_BOARD * 1000:.0f} ms: {verdict[ok_board]}]"
    )
    _over_time(args, stats, rate)
    _pacer(log_path)
    print(
        f"failed interactions: {failed} ({len(missed)} missed the 3 s rule, "
        f"{failed - len(missed)} other refusals)  [target 0: {verdict[ok_failed]}]"
    )
    for failure in emulator.failures[:10]:
        print(f"  - {failure}")
    print(
        f"CPU during play: the bot with its workers {bot_cpu:.1f} s ({bot_cpu / wall:.0%}), "
        f"this process (emulator + players) {bench_cpu:.1f} s ({bench_cpu / wall:.0%}), "
        f"other processes {others:.1f} s ({others / wall:.0%}); {os.cpu_count()} cores"
    )
    shown_cpu = "n/a (no decision)" if cpu_per_decision is None else ms(cpu_per_decision)
    print(
        f"CPU per decision (the bot with its workers, user + system): {shown_cpu}  "
        f"[target <= {TARGET_CPU_PER_DECISION * 1000:.0f} ms: {verdict[ok_cpu]}]"
    )
    print(
        f"this process's loop lag (delays every emulator reply): "
        f"p50 {ms(statistics.median(lag.lags) if lag.lags else 0.0)}  p99 {ms(pct(lag.lags, 0.99))}"
        f"  max {ms(max(lag.lags, default=0.0))}  "
        f"stalls over 200 ms: {sum(1 for x in lag.lags if x > 0.2)}; "
        f"its garbage collector paused {len(lag.gc.pauses)} times, "
        f"longest {ms(max(lag.gc.pauses, default=0.0))}"
    )
    problems = log_problems(log_path)
    print(
        f"bot exit code after SIGTERM: {exit_code if exit_code is not None else 'killed'}; "
        f"bot log: {len(problems)} warning/error lines"
    )
    for line in problems[:10]:
        print(f"  | {line}")
    if stats.errors:
        print(f"script errors: {len(stats.errors)}")
        for error in stats.errors[:10]:
            print(f"  - {error}")
        print("last lines of the bot's log:")
        for line in log_path.read_text(errors="replace").splitlines()[-15:]:
            print(f"  | {line}")
    all_done = in_time and stats.completed + stats.stopped == args.matches and exit_code == 0
    met = ok_first and ok_board and ok_failed and ok_global and ok_cpu
    return 0 if met and all_done else 1


def _spread(values: list[float]) -> str:
    return (
        f"n={len(values):<5} p50 {ms(pct(values, 0.5)):>9}  p99 {ms(pct(values, 0.99)):>9}  "
        f"max {ms(max(values, default=0.0)):>9}"
    )


def _over_time(args: argparse.Namespace, stats: Stats, rate: RequestRate) -> None:
    """Where the board's tail lies in time (while matches open, or after), what a match's
    opening costs its players, and the load the bot's pace carried meanwhile."""
    if args.profile == "human" and args.ramp:
        ramping = [latency for at, latency in stats.board_at if at < args.ramp]
        after = [latency for at, latency in stats.board_at if at >= args.ramp]
        print(f"  while matches start (clicks in the first {args.ramp:g} s): {_spread(ramping)}")
        print(f"  after the starts:                              {_spread(after)}")
    openings = [opened for _, opened in stats.openings]
    print(f"match opening (Accept click → board posted in the match's thread): {_spread(openings)}")
    boards = dict(by_window(stats.board_at, TIMELINE_WINDOW))
    opened = dict(by_window(stats.openings, TIMELINE_WINDOW))
    arrivals = dict(by_window([(at, float(n)) for at, n in rate.per_second], TIMELINE_WINDOW))
    busy = dict(by_window(rate.bot_busy, TIMELINE_WINDOW))
    print(
        f"over time ({TIMELINE_WINDOW:g} s windows of play; board and opening by click time; "
        "rate-limited requests arriving at Discord a second, mean and busiest second; "
        "the bot's own process's CPU, a share of one core):"
    )
    for start in sorted(boards.keys() | opened.keys() | arrivals.keys()):
        seconds = arrivals.get(start, [])
        load = (
            f"{statistics.fmean(seconds):5.1f}/s (busiest {max(seconds):.0f})"
            if seconds
            else "     -"
        )
        cpu = f"{statistics.fmean(busy[start]):4.0%}" if busy.get(start) else "   -"
        board, opening = boards.get(start, []), opened.get(start, [])
        print(
            f"  {start:5.0f}-{start + TIMELINE_WINDOW:<5.0f} s  requests {load}  bot {cpu}  "
            f"board n={len(board):<5} p50 {ms(pct(board, 0.5)):>9} p99 {ms(pct(board, 0.99)):>9}"
            + (f"  openings n={len(opening):<4} p99 {ms(pct(opening, 0.99)):>9}" if opening else "")
        )


PACER_LINE = "request pacer, "
"""How the bot's log at exit starts each line of its pacer's figures (bot/client.py)."""


def _pacer(log_path: Path) -> None:
    """Which of the bot's requests waited for its own pace, and how long, by urgency: the
    lines the bot logs as it stops."""
    lines = [
        line[line.index(PACER_LINE) + len(PACER_LINE) :]
        for line in log_path.read_text(errors="replace").splitlines()
        if PACER_LINE in line
    ]
    print("the bot's pacer (its log at exit; waits by who waits for the request):")
    for line in lines or ["(no figures in the bot's log)"]:
        print(f"  {line}")

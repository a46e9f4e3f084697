"""The chaos run's figures as a table, with the exact command and a few examples of each
non-zero loss."""

from __future__ import annotations

import argparse
import os
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.load.bot_process import ROOT as BOT_ROOT
from tests.discord_emulator.server import DiscordEmulator

from .audit import Figures
from .kills import Kill
from .players import ChaosPair, Click

EXAMPLES = 5
UNKNOWN_EDIT = re.compile(r"PATCH /channels/(?P<channel>[0-9]+)/messages/(?P<message>[0-9]+)")
SLASH_ANSWER = 20  # a message's type when it answers a slash command (the challenge's)
EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_][\w.]*)(?:Error|Exception|Exit)\b.*")


@dataclass
class RunFacts:
    command: str
    wall: float
    chaos_seconds: float
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    startup_seconds: list[float]
    exits: list[str]
    exit_code: int | None
    left_after_sigterm: int
    orphans_at_end: int
    integrity: str
    log_paths: list[Path]
    relaxed: str


def _count(items: list[str] | list[int]) -> str:
    return str(len(items))


def report(
    args: argparse.Namespace,
    facts: RunFacts,
    figures: Figures,
    kills: list[Kill],
    pairs: list[ChaosPair],
    emulator: DiscordEmulator,
    clicks: list[Click],
) -> None:
    kinds = Counter(k.kind for k in kills)
    told = figures.told
    orphans = sum(len(k.orphans) for k in kills)
    orphan_kinds = Counter(p.what for k in kills for p in k.orphans)
    family = sum(len(k.family) for k in kills)
    missed = [f for f in emulator.failures if "no response within" in f.what]
    other_refusals = Counter(
        re.sub(r"[0-9]{5,}", "#", f.what.split(":")[0]) + f" {f.status}/{f.code} {f.detail}"
        for f in emulator.failures
        if f not in missed
    )
    outcomes: Counter[str] = Counter()
    for pair in pairs:
        outcomes.update(pair.figures.outcomes)
    errors, tracebacks = _log_problems(facts.log_paths)
    finished = figures.statuses.get("finished", 0)
    active = figures.statuses.get("active", 0)
    started = finished + active
    ups = facts.startup_seconds
    print(f"command: {facts.command}")
    print(
        "options: "
        + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in sorted(vars(args).items()))
    )
    print(
        f"wall time {facts.wall:.0f} s (kills over {facts.chaos_seconds:.0f} s, then catch-up); "
        f"{os.cpu_count()} cores; load average before {_load(facts.load_before)}, "
        f"after {_load(facts.load_after)}"
    )
    print(
        f"bot starts: {len(ups) + 0} timed, start-up to ready p50 "
        f"{statistics.median(ups) if ups else 0:.1f} s, max {max(ups, default=0):.1f} s; "
        f"stopped by itself before ready: {len(facts.exits)}; final SIGTERM exit code: "
        f"{facts.exit_code if facts.exit_code is not None else 'killed'}"
    )
    print(f"bot code: {BOT_ROOT} (python -m bot, one process per start); {facts.relaxed}")
    again = [c for c in clicks if c.again_of is not None]
    print(
        f"same button pressed again after a failed Confirm/Take: {len(again)} times "
        f"({sum(1 for c in again if told.get(c.interaction.id))} acknowledged)"
    )
    print(
        f"players: {len(pairs)} pairs playing at once ({dict(Counter(p.kind for p in pairs))}), "
        f"match after match until the last kill; their matches {dict(outcomes)}; "
        f"clicks {figures.clicks}; hiccups (failed or unanswered) "
        f"{sum(p.figures.hiccups for p in pairs)}; /hanamikoji board asked "
        f"{sum(p.figures.fresh_boards for p in pairs)} times; absences "
        f"{sum(p.figures.absences for p in pairs)}"
    )
    rows = [
        (
            "kills",
            str(len(kills)),
            "SIGKILLs sent: " + (", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"),
        ),
        (
            "acknowledged decisions",
            str(figures.acknowledged),
            f"distinct Confirm/Take clicks (match, version, decision) whose player got '✅' "
            f"for that decision in the click's answer ({figures.acknowledged_clicks} clicks, "
            f"of {figures.decision_clicks} decision clicks)",
        ),
        (
            "lost",
            _count(figures.lost),
            "acknowledged, but no decisions row at seq = version+1 with that decision",
        ),
        (
            "doubled",
            _count(figures.doubled),
            "a person's non-automatic row no click asked for at that version, repeating "
            "a decision that player clicked at another version",
        ),
        (
            "acknowledged twice",
            _count(figures.acknowledged_twice),
            "one (match, version, decision) acknowledged to two clicks (a press repeated "
            "after a failure must be refused as out of date)",
        ),
        (
            "rows no click asked for",
            _count(figures.unasked),
            "a person's non-automatic rows without a click naming that version and "
            "decision (doubled ones included)",
        ),
        (
            "applied, never acknowledged",
            str(figures.applied_unacknowledged),
            "rows a click asked for whose player never got the '✅' (not a loss)",
        ),
        (
            "decisions stored",
            str(figures.decisions),
            f"rows in decisions; {figures.automatic} automatic (the turn timer played)",
        ),
        (
            "matches",
            str(sum(figures.statuses.values())),
            f"by status {dict(figures.statuses)}; finished by {dict(figures.reasons)}",
        ),
        (
            "result message missing",
            _count(figures.result_missing),
            f"of {finished} finished: no public message in its thread or channel that says "
            "the result (its text starts with the outcome line) or has its Rematch button",
        ),
        (
            "round summary missing",
            _count(figures.summaries_missing),
            f"of {figures.summaries} scored rounds ({started} started matches): no public "
            "embed starting with that round's summary head (names, secrets)",
        ),
        (
            "final board wrong",
            _count(figures.final_board_wrong),
            f"of {finished} finished: the stored board message's embed differs from "
            "board_text() of the result record's final state (or is gone)",
        ),
        (
            "active: no thread",
            _count(figures.active_no_thread),
            f"of {active} active: thread_id unset or no such thread",
        ),
        (
            "active: no board",
            _count(figures.active_no_board),
            f"of {active} active: no board message with a Hand button",
        ),
        (
            "active: board out of date",
            _count(figures.active_board_stale),
            "the board shows another state than the stored decisions give (deadline line aside)",
        ),
        (
            "offers never shown",
            _count(figures.offers_never_shown),
            f"of {figures.offers} Gifts/Competitions to a person: no message anywhere "
            "(board, panel, DM) ever had a Take button for that version",
        ),
        (
            "hidden cards in public",
            _count(figures.public_leaks),
            "tests/e2e LeakCheck rules on every public transcript entry",
        ),
        (
            "others' cards in private",
            _count(figures.private_leaks),
            "a panel's hand/face-down line that was never its reader's own",
        ),
        ("integrity_check", facts.integrity, "PRAGMA integrity_check after the final SIGTERM"),
        (
            "orphan processes",
            str(orphans),
            f"of {family} descendants listed just before the kills, alive "
            f"{args.orphan_wait:g} s after (then ended by the harness; "
            f"{facts.orphans_at_end} found alive at the end); "
            f"{facts.left_after_sigterm} left after the final SIGTERM; "
            f"by command: {dict(orphan_kinds)}",
        ),
        (
            "failed interactions",
            str(len(missed)),
            f"no first response within 3 s; {sum(other_refusals.values())} other refusals "
            "by the emulator",
        ),
        (
            "bot log",
            str(errors),
            f"ERROR/CRITICAL lines over {len(facts.log_paths)} logs; tracebacks by "
            f"exception: {dict(tracebacks.most_common(6))}",
        ),
        (
            "unreplayable matches",
            _count(figures.unreplayable),
            "stored decisions the rules refuse; plus threads unknown to the database: "
            f"{figures.threads_unknown_to_db}",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'figure':<{width}}  {'count':>6}  how it is counted")
    print(f"{'-' * width}  {'-' * 6}  {'-' * 40}")
    for name, value, how in rows:
        print(f"{name:<{width}}  {value:>6}  {how}")
    print()
    examples = {
        "lost": figures.lost,
        "doubled": figures.doubled,
        "acknowledged twice": figures.acknowledged_twice,
        "rows no click asked for": figures.unasked,
        "result message missing": [f"match {m}" for m in figures.result_missing],
        "round summary missing": figures.summaries_missing,
        "final board wrong": figures.final_board_wrong,
        "active: no thread": [f"match {m}" for m in figures.active_no_thread],
        "active: no board": [f"match {m}" for m in figures.active_no_board],
        "active: board out of date": [f"match {m}" for m in figures.active_board_stale],
        "offers never shown": figures.offers_never_shown,
        "hidden cards in public": figures.public_leaks,
        "others' cards in private": figures.private_leaks,
        "unreplayable": figures.unreplayable,
        "script errors": [p.figures.error for p in pairs if p.figures.error],
        "stopped by itself": facts.exits,
        "other emulator refusals": [f"{n}x {what}" for what, n in other_refusals.most_common()],
    }
    print(_unknown_edits(emulator))
    for name, items in examples.items():
        if items:
            shown = "; ".join(str(i) for i in items[:EXAMPLES])
            more = f" (+{len(items) - EXAMPLES} more)" if len(items) > EXAMPLES else ""
            print(f"{name}: {shown}{more}")


def _unknown_edits(emulator: DiscordEmulator) -> str:
    """What the bot tried to edit when the emulator said Unknown Message (10008)."""
    world = emulator.world
    edits = [
        (int(found["channel"]), int(found["message"]))
        for f in emulator.failures
        if f.code == 10008 and (found := UNKNOWN_EDIT.match(f.what))
    ]
    answers = other_place = 0
    for channel_id, message_id in edits:
        message = world.messages.get(message_id)
        if message is not None and message.channel_id != channel_id:
            other_place += 1
            answers += message.type == SLASH_ANSWER
    return (
        f"edits refused as Unknown Message: {len(edits)}; {other_place} of them name a message "
        f"that exists in another channel, {answers} of those a slash command's answer (the "
        "challenge, whose id the match keeps as its board until a board is posted)"
    )


def _load(load: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def _log_problems(paths: list[Path]) -> tuple[int, Counter[str]]:
    errors = 0
    tracebacks: Counter[str] = Counter()
    for path in paths:
        try:
            lines = path.read_text(errors="replace").splitlines()
        except OSError:
            continue
        in_traceback = False
        for line in lines:
            if " ERROR " in line or " CRITICAL " in line:
                errors += 1
            if line.startswith("Traceback"):
                in_traceback = True
            elif in_traceback and EXCEPTION_LINE.match(line):
                tracebacks[line.split(":")[0]] += 1
                in_traceback = False
    return errors, tracebacks

"""Every command line of the project, given its smallest and its bad values: a bad value is
refused before any work with one clear line quoting it and a non-zero exit, never a
traceback or a hang; the smallest good value of a quick tool gives a result. The mains
are called in-process (validation comes before anything slow); no timing is asserted."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import bench.ai_decision_time
import bench.bot_load
import bench.chaos.run
import bench.cluster_load
import bench.db_outage
import bench.engine_speed
import bench.pacer_arrivals
import bench.puzzle_generation
import bench.render_speed
import bench.review_figures
import bench.review_losses
import bench.search_speed
import bench.season_standings
import bench.service_load
import bench.tournament_pairing
import bot.__main__
import engine.__main__
import engine.puzzles.builtin
import engine.review.fit_chances
from bench.load.bot_process import BotDidNotStart, wait_for_sync
from engine.command_line import SEED_LIMIT, description, most_jobs
from tests.engine.review.matches import BLUNDER_RECORD

ROOT = Path(__file__).resolve().parent.parent
Main = Callable[[Sequence[str]], Any]
HUGE = "99999999999999999999"
ENDLESS = "9" * 5000  # more digits than Python turns into an int by default


def engine_command(command: str) -> Main:
    return lambda argv: engine.__main__.main([command, *argv])


MAINS: dict[str, Main] = {
    "python -m bot": bot.__main__.main,
    "python -m engine arena": lambda argv: engine.__main__.main(["arena", "easy", "hard", *argv]),
    "python -m engine play": engine_command("play"),
    "python -m engine replay": engine_command("replay"),
    "python -m engine": engine.__main__.main,
    "python -m engine review": lambda argv: engine.__main__.main(["review", "-", *argv]),
    "python -m engine.review.fit_chances": engine.review.fit_chances.main,
    "python -m engine.puzzles.builtin": engine.puzzles.builtin.main,
    "bench/engine_speed.py": bench.engine_speed.main,
    "bench/render_speed.py": bench.render_speed.main,
    "bench/season_standings.py": bench.season_standings.main,
    "bench/tournament_pairing.py": bench.tournament_pairing.main,
    "bench/ai_decision_time.py": bench.ai_decision_time.main,
    "bench/search_speed.py": bench.search_speed.main,
    "python -m bench.review_figures": bench.review_figures.main,
    "python -m bench.review_losses": bench.review_losses.main,
    "bench/puzzle_generation.py": bench.puzzle_generation.main,
    "bench/service_load.py": bench.service_load.main,
    "bench/cluster_load.py": bench.cluster_load.main,
    "bench/bot_load.py": bench.bot_load.main,
    "bench/db_outage.py": bench.db_outage.main,
    "python -m bench.pacer_arrivals": bench.pacer_arrivals.main,
    "python -m bench.chaos": bench.chaos.run.main,
}

# (command, arguments, what the one line must say about the value)
BAD: list[tuple[str, list[str], str]] = [
    (
        "python -m bot",
        ["--shard-count", "0"],
        "--shard-count: must be from 1 to 1,000,000, got '0'",
    ),
    ("python -m bot", ["--shard-count", HUGE], f"got '{HUGE}'"),
    ("python -m bot", ["--config", "/no/such/config.toml"], "'/no/such/config.toml'"),
    ("python -m engine arena", ["--games", "0"], "--games: must be from 1 to 1,000,000, got '0'"),
    ("python -m engine arena", ["--games", "-1"], "got '-1'"),
    ("python -m engine arena", ["--games", HUGE], f"got '{HUGE}'"),
    ("python -m engine arena", ["--games", ENDLESS], "whole number from 1 to 1,000,000"),
    ("python -m engine arena", ["--jobs", "10000"], f"--jobs: must be from 1 to {most_jobs()}"),
    ("python -m engine arena", ["--jobs", "0"], "--jobs: must be from 1"),
    ("python -m engine arena", ["--seed", "-1"], f"--seed: must be from 0 to {SEED_LIMIT:,}"),
    ("python -m engine play", ["--seed", HUGE], f"got '{HUGE}'"),
    ("python -m engine play", ["--level", "godlike"], "invalid choice: 'godlike'"),
    ("python -m engine replay", ["/no/such/records.jsonl"], "cannot read '/no/such/records.jsonl'"),
    ("python -m engine review", ["--json", "--iterations", "-1"], "got '-1'"),
    ("python -m engine", ["judge"], "invalid choice: 'judge'"),
    ("python -m engine review", ["--iterations", "0"], "--iterations: must be from 1 to 100,000"),
    ("python -m engine review", ["--iterations", HUGE], f"got '{HUGE}'"),
    ("python -m engine.review.fit_chances", ["--rounds", "0"], "--rounds: must be from 1 to"),
    ("python -m engine.review.fit_chances", ["--out", "/no/such/table.json"], "existing folder"),
    ("bench/engine_speed.py", ["--games", "0"], "--games: must be from 1 to 10,000,000, got '0'"),
    ("bench/engine_speed.py", ["--games", "-5"], "got '-5'"),
    ("bench/engine_speed.py", ["--games", HUGE], f"got '{HUGE}'"),
    ("bench/render_speed.py", ["--boards", "0"], "--boards: must be from 1 to 100,000, got '0'"),
    ("bench/render_speed.py", ["--boards", "-1"], "got '-1'"),
    ("bench/season_standings.py", ["--members", "1"], "--members: must be from 2 to 1,000,000"),
    ("bench/season_standings.py", ["--matches", HUGE], f"got '{HUGE}'"),
    ("bench/season_standings.py", ["--members", "2", "--matches", "4"], "--matches 4 is too few"),
    ("bench/tournament_pairing.py", ["--players", "1"], "--players: must be from 2 to 5,000"),
    ("bench/tournament_pairing.py", ["--rounds", HUGE], f"got '{HUGE}'"),
    ("bench/ai_decision_time.py", ["--games", "0"], "--games: must be from 1 to 10,000, got '0'"),
    ("bench/ai_decision_time.py", ["--levels", "godlike"], "invalid choice: 'godlike'"),
    ("bench/search_speed.py", ["--positions", "0"], "--positions: must be from 1 to 10,000"),
    ("bench/search_speed.py", ["--iterations", HUGE], f"got '{HUGE}'"),
    ("python -m bench.review_figures", ["--matches", "0"], "--matches: must be from 1 to 1,000"),
    ("python -m bench.review_figures", ["--positions", "-1"], "got '-1'"),
    ("python -m bench.review_figures", ["--iterations", HUGE], f"got '{HUGE}'"),
    ("python -m bench.review_figures", ["--parts", "nap"], "--parts takes analysis"),
    ("python -m bench.review_figures", ["--iterations", "20000"], "is above 100,000 play-outs"),
    ("python -m bench.review_losses", ["--matches", "0"], "--matches: must be from 1 to 1,000"),
    ("python -m engine.puzzles.builtin", ["--matches", "0"], "--matches: must be from 1 to 1,000"),
    ("python -m bench.review_losses", ["--positions", "0", "--levels"], "nothing to measure"),
    ("bench/puzzle_generation.py", ["--matches", "0"], "--matches: must be from 1 to 1,000"),
    ("bench/puzzle_generation.py", ["--depth", HUGE], f"got '{HUGE}'"),
    ("bench/puzzle_generation.py", ["--depth", "30"], "is above 100,000 play-outs"),
    ("bench/service_load.py", ["--matches", "0"], "--matches: must be from 1 to 100,000, got '0'"),
    ("bench/service_load.py", ["--seconds", "0"], "--seconds: must be a number from 0.1 to"),
    ("bench/service_load.py", ["--think-ms", "nan"], "got 'nan'"),
    ("bench/service_load.py", ["--db", "/no/such/folder/x.sqlite3"], "existing folder"),
    ("bench/cluster_load.py", ["--matches", "0"], "--matches: must be from 1 to 20,000, got '0'"),
    ("bench/cluster_load.py", ["--seconds", "-1"], "got '-1'"),
    ("bench/cluster_load.py", ["--warm-up", "inf"], "got 'inf'"),
    ("bench/cluster_load.py", ["--pool", "0"], "--pool: must be from 1 to 100, got '0'"),
    ("bench/bot_load.py", ["--matches", "0"], "--matches: must be from 1 to 5,000, got '0'"),
    ("bench/bot_load.py", ["--pace", "999"], "--pace: must be from 0 to 50, got '999'"),
    ("bench/bot_load.py", ["--channels", "0"], "--channels: must be from 1 to 500, got '0'"),
    ("bench/bot_load.py", ["--duration", "-1"], "got '-1'"),
    ("bench/bot_load.py", ["--limit", "-1"], "got '-1'"),
    ("bench/db_outage.py", ["--matches", "0"], "--matches: must be from 1 to 60, got '0'"),
    ("bench/db_outage.py", ["--freeze-seconds", "-1"], "got '-1'"),
    ("bench/db_outage.py", ["--after", "nan"], "got 'nan'"),
    (
        "bench/db_outage.py",
        ["--phases", "melt"],
        "--phases: takes freeze and/or restart, got 'melt'",
    ),
    ("bench/db_outage.py", ["--seed", HUGE], f"got '{HUGE}'"),
    ("python -m bench.pacer_arrivals", ["--requests", "0"], "--requests: must be from 1 to"),
    ("python -m bench.pacer_arrivals", ["--pace", "51"], "--pace: must be from 1 to 50, got '51'"),
    ("python -m bench.pacer_arrivals", ["--stall-ms", "-1"], "got '-1'"),
    ("python -m bench.chaos", ["--matches", "0"], "--matches: must be from 1 to 2,000, got '0'"),
    ("python -m bench.chaos", ["--kills", "-1"], "got '-1'"),
    ("python -m bench.chaos", ["--kills", HUGE], f"got '{HUGE}'"),
    ("python -m bench.chaos", ["--turn-timer", "1"], "--turn-timer: must be a number from 5 to"),
    ("python -m bench.chaos", ["--ack-share", "0.8", "--startup-share", "0.5"], "0.8 + 0.5"),
    ("python -m bench.chaos", ["--absent", "2"], "--absent: must be a number from 0 to 1"),
]


def outcome(capsys: pytest.CaptureFixture[str], main: Main, argv: Sequence[str]) -> tuple[Any, str]:
    """The exit status of ``main(argv)`` and everything it printed."""
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out + err


@pytest.fixture(autouse=True)
def empty_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    # A command that wrongly started its work would read this, not wait on a terminal.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")


@pytest.mark.parametrize(("command", "argv", "said"), BAD, ids=lambda v: " ".join(v)[:40])
def test_a_bad_value_is_one_line_quoting_it_and_a_non_zero_exit(
    capsys: pytest.CaptureFixture[str], command: str, argv: list[str], said: str
) -> None:
    status, printed = outcome(capsys, MAINS[command], argv)
    assert status not in (0, None), printed
    assert "Traceback" not in printed
    [line] = printed.splitlines()
    assert said in line, line


def test_every_command_is_tried_with_a_bad_value() -> None:
    assert {command for command, _, _ in BAD} == set(MAINS)


def test_every_bench_is_in_the_table() -> None:
    benches = ROOT / "bench"
    scripts = {path.stem for path in benches.glob("*.py") if path.stem != "__init__"}
    packages = {path.parent.name for path in benches.glob("*/__main__.py")}
    named = " ".join(MAINS)
    missing = [
        name
        for name in sorted(scripts | packages)
        if f"bench/{name}.py" not in named and f"bench.{name}" not in named
    ]
    assert missing == [], "add these to MAINS and BAD"


@pytest.mark.parametrize("command", [*MAINS, "python -m engine replay", "python -m engine"])
def test_help_is_whole(capsys: pytest.CaptureFixture[str], command: str) -> None:
    status, printed = outcome(capsys, MAINS[command], ["--help"])
    assert status == 0
    blocks = [block for block in printed.split("\n\n") if block.strip()]
    about = " ".join(blocks[1].split())  # after the usage: the description
    assert not about.startswith(("options:", "positional arguments:")), printed
    assert about.endswith((".", ")", ":", "``")), about
    assert "%%" not in printed, "a %% shown as typed: only argparse's help strings are %-formatted"
    # Every option says what it takes: its help beside it, or on the line below.
    lines = [*printed.splitlines(), ""]
    for line, below in itertools.pairwise(lines):
        alone = re.fullmatch(r"  (-\w, )?--[a-z-]+( [A-Z_]+)?", line.rstrip())
        if alone and not re.match(r" {6,}\S", below):
            pytest.fail(f"{command}: an option without help: {line.strip()}")


def test_a_docstrings_first_paragraph_is_the_whole_description() -> None:
    doc = "First line that goes on\nto the second.\n\n    usage: x\n"
    assert description(doc) == "First line that goes on to the second."
    assert description(None) == ""


# The smallest good values give a result -------------------------------------------------


def test_engine_speed_with_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed = outcome(capsys, bench.engine_speed.main, ["--games", "1"])
    assert status == 0
    assert printed.startswith("games: 1  rounds/game: ")
    assert re.search(r"^games/s: \d+$", printed, re.MULTILINE)


def test_render_speed_with_one_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed = outcome(capsys, bench.render_speed.main, ["--boards", "1"])
    assert status == 0
    assert printed.startswith("boards: 1\n")
    assert re.search(r"^board ms: [\d.]+  bytes: \d+$", printed, re.MULTILINE)


def test_season_standings_with_two_members(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed = outcome(
        capsys, bench.season_standings.main, ["--members", "2", "--matches", "5"]
    )
    assert status == 0, printed
    assert "first page ms: " in printed and "(2 ranked)" in printed
    assert re.search(r"^end ms: \d+ \(2 on the podium\)$", printed, re.MULTILINE)


def test_tournament_pairing_of_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed = outcome(capsys, bench.tournament_pairing.main, ["--players", "2"])
    assert status == 0
    assert printed.startswith("round 1: ")
    assert re.search(r"^pairing ms: median \d+  max \d+$", printed, re.MULTILINE)


def test_search_speed_with_one_position(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed = outcome(
        capsys, bench.search_speed.main, ["--positions", "1", "--iterations", "20"]
    )
    assert status == 0
    assert re.fullmatch(
        r"gamestate play-outs +20  cpu +[\d.]+ s +\d+ per second\n"
        r"compact +play-outs +20  cpu +[\d.]+ s +\d+ per second\n"
        r"hard +play-outs +20  cpu +[\d.]+ s +\d+ per second\n"
        r"speed-up of the same search [\d.]+x\n",
        printed,
    )


def test_ai_decision_time_with_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, printed = outcome(
        capsys, bench.ai_decision_time.main, ["--games", "1", "--levels", "easy"]
    )
    assert status == 0
    assert re.fullmatch(
        r"easy +decisions +\d+  p50 .* ms  p95 .* ms  max .* ms  guard hits 0 \(0\.0%\)  "
        r"cpu p50 .* ms  p95 .* ms  max .* ms\n",
        printed,
    )


def test_an_arena_of_one_game_on_the_most_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["random", "easy", "--games", "1", "--jobs", "1", "--seed", str(SEED_LIMIT)]
    status, printed = outcome(capsys, engine.__main__.main, ["arena", *argv])
    assert status == 0
    assert f"1 games, seed {SEED_LIMIT}, jobs 1" in printed


def test_a_review_with_one_play_out(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BLUNDER_RECORD.encode())))
    status, printed = outcome(capsys, engine.__main__.main, ["review", "-", "--iterations", "1"])
    assert status == 0
    assert printed.startswith("Review (1 play-outs per decision; chances are the mover's)\n")


def test_a_chance_table_from_one_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "chances.json"
    argv = ["--rounds", "1", "--out", str(out)]
    status, printed = outcome(capsys, engine.review.fit_chances.main, argv)
    assert status == 0
    assert printed.endswith(f"wrote {out}\n")
    assert json.loads(out.read_text())["standard"]


# A bot that does not start says why ----------------------------------------------------


class NoCommands:
    guild_id = 1

    class commands:
        @staticmethod
        def listed(guild: int) -> list[dict[str, str]]:
            return []


class Exited:
    returncode = 2


def test_a_bot_that_exits_at_start_is_reported_with_its_own_last_line(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    own = "error: discord.requests_per_second must be 1–50 (Discord's limit), got 999"
    log.write_text(f"starting\n{own}\n")
    with pytest.raises(BotDidNotStart) as refused:
        asyncio.run(wait_for_sync(NoCommands(), Exited(), log))  # type: ignore[arg-type]
    assert str(refused.value) == f"the bot exited with 2 before syncing commands: {own}"

"""Bot under load: N concurrent matches through the Discord emulator against one bot process.

    python bench/bot_load.py [--profile human|capacity] [--matches 200] [--seed 1]
                             [--duration 300] [--ramp 60] [--limit N] [--think-ms 500]
                             [--timeout 900]

The emulator enforces Discord's rate limits (the global 50 requests/s, per-route buckets,
see tests/discord_emulator/README.md), so the figures are those the bot would reach on
Discord.

Two player profiles:

- ``human`` (the default): people. Matches start spread over ``--ramp`` seconds (200 matches
  in a server are not started in the same second) and play for ``--duration`` seconds.
  Before each decision (pressing Hand, or taking from an offer) a player thinks for a time
  drawn from a log-normal distribution with a median of 6 s (σ = 0.75: a quarter of the
  decisions under 3.6 s, one in twenty over 20 s; capped at 60 s); each further click of
  the same decision (the action, the cards, Confirm) takes a log-normal 1 s (σ = 0.5).
  Think times in card games are right-skewed, many quick moves and a long tail, which a
  log-normal models; a 6 s median is our assumption for a light card game played in a
  chat app, not a measured figure. Targets: 0 failed interactions, p99 first response
  < 250 ms, p99 board < 2 s, and no global-limit 429 (the bot paces itself).
- ``capacity``: the closed loop of the first load test. Every pair starts at once and plays
  its whole match, thinking uniform 0..2x ``--think-ms`` before each click (500 ms; ``0``
  is saturation). It measures throughput, not what players see.

The emulator (``tests/discord_emulator``) runs in this process with 2N members; the bot runs
as one separate process started exactly as production starts it, ``python -m bot --config
FILE``, with a config that points it at the emulator, a fresh SQLite file and no AI pause.
Pair i challenges, accepts and plays through the UI only: it reads whose turn it is from
the public board, then presses Hand, an action, random cards and Confirm, or a random
"Take …" on the board. Matches are spread over ``--channels`` text channels (20), as a
bot with hundreds of matches is in many servers: Discord limits each channel on its own
(5 messages, 5 edits and 5 new threads per 5 s, tests/discord_emulator/rate_limits.py),
and the bot as a whole to 50 requests a second. ``--limit`` caps how many matches run at a
time. ``--seed`` fixes the players' choices and think times; the bot deals its own random
cards.

Prints decisions/s; the bot's requests to Discord per decision, the rate-limited ones
apart from the exempt interaction callbacks and webhooks; the 429s it received by scope;
p50/p99 time to first response over every interaction (dispatch until the bot's first
callback, Discord's 3-second clock); p50/p99 time from a Confirm/Take click until the board
message shows the new state; the failed interactions (everything the emulator refused,
3-second misses included); and where the CPU went. Targets: p99 first response < 250 ms,
p99 board update < 2 s, no failed interaction, no global 429. Exit status 1 if a target is
missed or a match broke.

``BOT_LOAD_PROFILE=DIR`` runs the bot under cProfile (``DIR/bot.prof``, written when it
exits on SIGTERM) and profiles this process too (``DIR/bench.prof``); cProfile slows both,
so use it for where the time goes, not for the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import math
import os
import random
import re
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
# The emulator lives in tests/, which is not an installed package; make
# `python bench/bot_load.py` work like `python -m bench.bot_load` from the repository root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.discord_emulator.interactions import (  # noqa: E402
    EmulatedInteraction,
    InteractionFailed,
)
from tests.discord_emulator.message_snapshot import MessageSnapshot  # noqa: E402
from tests.discord_emulator.server import DiscordEmulator  # noqa: E402
from tests.discord_emulator.transcript import Action  # noqa: E402
from tests.discord_emulator.users import EmulatedUser  # noqa: E402
from tests.discord_emulator.world import MessageRecord  # noqa: E402

T = TypeVar("T")

HAND = "Hand 🂠"
# The board's last line says who must act (see bot/play/board_text.py status_line).
TURN = re.compile(r"\*\*(?P<name>[^*\n]+)\*\*'s turn\.")
CHOOSES = re.compile(r"\*\*(?P<name>[^*\n]+)\*\* chooses one (?:card|pair)")
OVER = ("🏆", "🤝")

TARGET_FIRST_RESPONSE = 0.250
TARGET_BOARD = 2.0
HUMAN_DECISION_MEDIAN = 6.0
HUMAN_DECISION_SIGMA = 0.75
HUMAN_CLICK_MEDIAN = 1.0
HUMAN_CLICK_SIGMA = 0.5
HUMAN_LONGEST_THINK = 60.0
GC_FREEZE_EVERY = 5.0  # seconds
# Clicks that start a decision: the player reads the board first.
DECIDING_STEPS = frozenset({"accept", "hand", "take"})
STEP_TIMEOUT = 20.0  # one wait for the bot (board, thread, offer); far above any target
MAX_DECISIONS = 200  # a match has ~25-70 decisions; this only bounds a confused script
SYNC_TIMEOUT = 60.0
STOP_TIMEOUT = 60.0
STEPS = ("challenge", "accept", "hand", "action", "select", "confirm", "take")


class ScriptError(Exception):
    """The scripted players could not go on: the UI did not show what they needed."""


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class MessageWatch:
    """Wakes the players when the bot writes in their thread, and times board edits.

    The emulator offers no "wait until this message changes", and polling would be costly:
    N coroutines waking every few ms steal the CPU the emulator (same process) needs, and
    `EmulatedUser.messages()` scans every message in the world. So this wraps the
    emulator's two publishing methods (instance attributes only; the emulator is unchanged):
    O(1) per write, and each edit of a board is stamped with the loop time at which the
    emulator stored it, the moment a user would see it, with its text as a user reads it.
    """

    def __init__(self, emulator: DiscordEmulator) -> None:
        self._world = emulator.world
        self._loop = asyncio.get_running_loop()
        self.in_channel: dict[int, list[int]] = defaultdict(list)  # ids, oldest first
        self.boards: dict[int, list[tuple[float, str]]] = {}  # board id -> (stamp, text)
        self.thread_by_name: dict[str, int] = {}
        self._wake: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self._named: dict[str, asyncio.Event] = defaultdict(asyncio.Event)
        writer = emulator.writer
        create, update = writer.publish_create, writer.publish_update

        async def publish_create(
            message: MessageRecord, action: Action, *, response_type: int | None = None
        ) -> dict[str, Any]:
            self._created(message)
            return await create(message, action, response_type=response_type)

        async def publish_update(
            message: MessageRecord, action: Action, *, response_type: int | None = None
        ) -> dict[str, Any]:
            self._updated(message)
            return await update(message, action, response_type=response_type)

        writer.publish_create = publish_create  # type: ignore[method-assign]
        writer.publish_update = publish_update  # type: ignore[method-assign]

    def _created(self, message: MessageRecord) -> None:
        ids = self.in_channel[message.channel_id]
        ids.append(message.id)
        channel = self._world.channels.get(message.channel_id)
        if len(ids) == 1 and channel is not None and channel.is_thread and channel.name:
            # The thread appears in the channel's thread list under this name.
            self.thread_by_name[channel.name] = channel.id
            self._named[channel.name].set()
        self._wake[message.channel_id].set()

    def _updated(self, message: MessageRecord) -> None:
        history = self.boards.get(message.id)
        if history is not None:
            history.append((self._loop.time(), MessageSnapshot.of(message).text()))
        self._wake[message.channel_id].set()

    def track_board(self, message_id: int, text: str) -> None:
        self.boards[message_id] = [(self._loop.time(), text)]

    def change_after(self, board_id: int, since: float, before: str) -> tuple[float, str] | None:
        """The first edit of the board at or after `since` that reads differently."""
        for stamp, text in self.boards[board_id]:
            if stamp >= since and text != before:
                return stamp, text
        return None

    async def wait(self, channel_id: int, ready: Callable[[], T | None], what: str) -> T:
        """Until `ready()` finds something, re-checked whenever the bot writes in the channel."""
        event = self._wake[channel_id]
        try:
            async with asyncio.timeout(STEP_TIMEOUT):
                while True:
                    event.clear()  # before the check, so no write between them is missed
                    found = ready()
                    if found is not None:
                        return found
                    await event.wait()
        except TimeoutError:
            raise ScriptError(f"no {what} after {STEP_TIMEOUT:g} s") from None

    async def wait_thread(self, name: str) -> int:
        try:
            async with asyncio.timeout(STEP_TIMEOUT):
                await self._named[name].wait()
        except TimeoutError:
            raise ScriptError(f"no thread {name!r} after {STEP_TIMEOUT:g} s") from None
        return self.thread_by_name[name]


class Stats:
    def __init__(self) -> None:
        self.first_response: dict[str, list[float]] = defaultdict(list)
        self.board: list[float] = []
        self.interactions = 0
        self.decisions = 0
        self.completed = 0
        self.per_match: list[int] = []  # decisions of each finished match
        self.stopped = 0  # matches still running when --duration ran out
        self.errors: list[str] = []


class PlayerProfile:
    """How long players look at the screen before each click, and when they stop."""

    def __init__(self, args: argparse.Namespace, started: float) -> None:
        self.human = args.profile == "human"
        self.think_ms = args.think_ms
        self.ramp = args.ramp if self.human else 0.0
        self.stop_at = started + args.duration if self.human else float("inf")

    def think(self, step: str, rng: random.Random) -> float:
        if not self.human:
            return rng.uniform(0, 2 * self.think_ms / 1000) if self.think_ms else 0.0
        if step in DECIDING_STEPS:
            median, sigma = HUMAN_DECISION_MEDIAN, HUMAN_DECISION_SIGMA
        else:
            median, sigma = HUMAN_CLICK_MEDIAN, HUMAN_CLICK_SIGMA
        return min(HUMAN_LONGEST_THINK, rng.lognormvariate(math.log(median), sigma))


class Pair:
    """Two scripted members playing one match, knowing only what Discord shows them."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        watch: MessageWatch,
        stats: Stats,
        index: int,
        seed: int,
        profile: PlayerProfile,
        channel_id: int,
    ) -> None:
        self.emulator = emulator
        self.watch = watch
        self.stats = stats
        self.a = emulator.user(f"p{2 * index:04d}")
        self.b = emulator.user(f"p{2 * index + 1:04d}")
        self.by_name = {self.a.name: self.a, self.b.name: self.b}
        self.rng = random.Random(seed * 1_000_003 + index)
        self.loop = asyncio.get_running_loop()
        self.thread_id = 0
        self.board_id = 0
        self.profile = profile
        self.channel_id = channel_id
        self.clicked_at = 0.0

    async def act(self, step: str, click: Awaitable[EmulatedInteraction]) -> MessageSnapshot:
        """Think, click, wait for the bot's first response, record its latency."""
        pause = self.profile.think(step, self.rng)
        if pause:
            await asyncio.sleep(pause)
        self.clicked_at = self.loop.time()
        interaction = await click
        self.stats.interactions += 1
        try:
            await interaction.first_response()
            assert interaction.response_latency is not None
            self.stats.first_response[step].append(interaction.response_latency)
            # A deferred answer is what the player sees only once the bot filled it in.
            message = await interaction.answer(wait=30.0)
        except InteractionFailed as error:
            raise ScriptError(str(error)) from None
        except TimeoutError:
            never = f"{interaction.description}: the deferred answer never came"
            raise ScriptError(never) from None
        if message is None:
            raise ScriptError(f"{interaction.description}: no message to read afterwards")
        return message

    def board_text(self) -> str:
        return self.a.message(self.board_id).text()

    async def play(self) -> None:
        if self.profile.ramp:
            await asyncio.sleep(self.rng.uniform(0, self.profile.ramp))
        challenge = await self.act(
            "challenge",
            self.a.slash("hanamikoji challenge", opponent=self.b, channel=self.channel_id),
        )
        await self.act("accept", self.b.click(challenge, "Accept"))
        self.thread_id = await self.watch.wait_thread(f"Hanamikoji: {self.a.name} vs {self.b.name}")
        if not any(t.id == self.thread_id for t in self.a.threads()):
            raise ScriptError(f"{self.a.name} cannot see the match thread")
        self.board_id = await self.watch.wait(self.thread_id, self.find_board, "board")
        self.watch.track_board(self.board_id, self.board_text())
        for decisions in range(MAX_DECISIONS):
            text = self.board_text()
            if any(mark in text for mark in OVER):
                self.stats.completed += 1
                self.stats.per_match.append(decisions)
                return
            if self.loop.time() >= self.profile.stop_at:
                self.stats.stopped += 1
                return
            turn, chooses = TURN.search(text), CHOOSES.search(text)
            if turn is not None:
                await self.take_turn(self.by_name[turn["name"]], text)
            elif chooses is not None:
                await self.choose(self.by_name[chooses["name"]], text)
            else:
                raise ScriptError(f"cannot tell whose turn it is from the board:\n{text}")
            self.stats.decisions += 1
        raise ScriptError(f"match not over after {MAX_DECISIONS} decisions")

    def find_board(self) -> int | None:
        for message_id in self.watch.in_channel[self.thread_id]:
            if self.a.can_see(message_id):
                seen = self.a.message(message_id)
                if not seen.ephemeral and any(b.label == HAND for b in seen.buttons()):
                    return message_id
        return None

    async def take_turn(self, mover: EmulatedUser, before: str) -> None:
        """Hand → a random action → random cards → a random Confirm/Split, as a person would."""
        panel = await self.act("hand", mover.click(self.board_id, HAND))
        for _ in range(3):
            actions = [b.label for b in panel.buttons() if b.label and b.label != "Refresh"]
            if not actions:
                raise ScriptError(f"{mover.name}'s panel offers no action:\n{panel.text()}")
            panel = await self.act("action", mover.click(panel, self.rng.choice(actions)))
            select = panel.select()
            picked = self.rng.sample([o.value for o in select.options], select.min_values)
            panel = await self.act("select", mover.select(panel, picked))
            labels = [b.label or "" for b in panel.buttons()]
            confirms = [label for label in labels if label.startswith(("Confirm: ", "Split "))]
            if confirms:
                break
            # "Those cards can't be used for that now": the panel is back on its first page.
        else:
            raise ScriptError(f"{mover.name} found no usable cards in 3 tries")
        panel = await self.act("confirm", mover.click(panel, self.rng.choice(confirms)))
        if "✅ Done" not in panel.content:
            raise ScriptError(f"{mover.name}'s Confirm was not applied:\n{panel.text()}")
        await self.board_shows_move(before)

    async def choose(self, chooser: EmulatedUser, before: str) -> None:
        """A random "Take …" among the offer's buttons on the board."""
        board = chooser.message(self.board_id)
        takes = [b.label for b in board.buttons() if b.label and b.label.startswith("Take ")]
        if not takes:
            raise ScriptError(f"the board says {chooser.name} chooses but offers no Take button")
        await self.act("take", chooser.click(board, self.rng.choice(takes)))
        await self.board_shows_move(before)

    async def board_shows_move(self, before: str) -> None:
        """From the last click (after its thinking time) until the board reads differently."""
        started = self.clicked_at
        stamp, _ = await self.watch.wait(
            self.thread_id,
            lambda: self.watch.change_after(self.board_id, started, before),
            "board update",
        )
        self.stats.board.append(stamp - started)


class GcPauses:
    """The garbage collector's pauses in this process, which stall the emulator.

    Discord does not stall because of our players, but this process holds the emulator's
    whole world and every player, and a full collection over that heap stops it for up to
    a second: requests that arrived meanwhile are then handled together, as if the bot had
    sent them in a burst. So the long-lived objects are frozen out of the collector every
    few seconds (``gc.freeze``), and the pauses that remain are reported.
    """

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started: float | None = None
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            self.pauses.append(time.perf_counter() - self._started)
            self._started = None

    def stop(self) -> None:
        gc.callbacks.remove(self._observe)


class LoopLag:
    """How late this process's event loop wakes: the emulator's own queueing delay."""

    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.lags: list[float] = []
        self.gc = GcPauses()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        frozen_at = loop.time()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            self.lags.append(loop.time() - before - self.interval)
            if before - frozen_at >= GC_FREEZE_EVERY:
                gc.freeze()  # see GcPauses
                frozen_at = before

    def stop(self) -> None:
        self.gc.stop()
        if self._task is not None:
            self._task.cancel()


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process and its live descendants (the bot's drawing
    and thinking workers), from /proc (Linux)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    family, grew = {pid}, True
    while grew:
        children = {child for child, parent in parents.items() if parent in family}
        grew = not children <= family
        family |= children
    total = 0.0
    for member in family:
        fields = _stat_fields(member)
        if fields is not None:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def machine_busy() -> float:
    """CPU seconds all cores spent busy since boot (/proc/stat), to see who else ran."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def write_config(emulator: DiscordEmulator, scratch: Path, matches: int, pace: int) -> Path:
    """The production TOML format (see config.example.toml and tests/e2e/conftest.py)."""
    path = scratch / "config.toml"
    path.write_text(
        "\n".join(
            [
                "[discord]",
                f'token = "{emulator.bot_token}"',
                f'api_base = "{emulator.api_base}"',
                f'gateway_url = "{emulator.gateway_url}"',
                f"dev_guild_id = {emulator.guild_id}",
                *([f"requests_per_second = {pace}"] if pace else []),
                "[database]",
                f'path = "{scratch / "bot_load.sqlite3"}"',
                "[matches]",
                "ai_move_delay_seconds = 0",
                f"max_active_matches = {max(5, matches)}",
            ]
        )
        + "\n"
    )
    return path


async def start_bot(
    config: Path, log_path: Path, profile_dir: Path | None
) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    # DISCORD_TOKEN wins over the file and would send the bot's login elsewhere.
    env.pop("DISCORD_TOKEN", None)
    profiler = ["-m", "cProfile", "-o", str(profile_dir / "bot.prof")] if profile_dir else []
    with log_path.open("wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            *profiler,
            "-m",
            "bot",
            "--config",
            str(config),
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )


async def wait_for_sync(emulator: DiscordEmulator, bot: asyncio.subprocess.Process) -> None:
    """Until the bot has synced /hanamikoji to the guild (the last step of its setup)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + SYNC_TIMEOUT
    guild = emulator.guild_id
    while not any(c.get("name") == "hanamikoji" for c in emulator.commands.listed(guild)):
        if bot.returncode is not None:
            raise RuntimeError(f"the bot exited with {bot.returncode} before syncing commands")
        if loop.time() > give_up:
            raise RuntimeError(f"the bot did not sync its commands within {SYNC_TIMEOUT:g} s")
        await asyncio.sleep(0.05)


async def stop_bot(bot: asyncio.subprocess.Process) -> int | None:
    """SIGTERM, as a service manager stops it; the bot finishes in-flight work and exits."""
    if bot.returncode is not None:
        return bot.returncode
    bot.send_signal(signal.SIGTERM)
    try:
        async with asyncio.timeout(STOP_TIMEOUT):
            return await bot.wait()
    except TimeoutError:
        bot.kill()
        await bot.wait()
        return None


# discord.py warns at every start that voice is unavailable; the bot uses no voice.
EXPECTED_LOG = ("voice will NOT be supported",)


def log_problems(log_path: Path) -> list[str]:
    lines = log_path.read_text(errors="replace").splitlines()
    return [
        line
        for line in lines
        if any(level in line for level in (" WARNING ", " ERROR ", " CRITICAL ", "Traceback"))
        and not any(expected in line for expected in EXPECTED_LOG)
    ]


async def play_all(
    emulator: DiscordEmulator, watch: MessageWatch, stats: Stats, args: argparse.Namespace
) -> bool:
    """Every pair plays its match; False if the global timeout cut the run short."""
    gate = asyncio.Semaphore(args.limit or args.matches)
    profile = PlayerProfile(args, asyncio.get_running_loop().time())
    channels = [emulator.channel.id] + [
        (await emulator.add_text_channel(f"games-{i}")).id for i in range(1, args.channels)
    ]

    async def one(index: int) -> None:
        async with gate:
            try:
                channel = channels[index % len(channels)]
                await Pair(emulator, watch, stats, index, args.seed, profile, channel).play()
            except Exception as error:  # one broken match must not stop the others
                stats.errors.append(f"match {index}: {type(error).__name__}: {error}")

    try:
        async with asyncio.timeout(args.timeout):
            await asyncio.gather(*(one(i) for i in range(args.matches)))
    except TimeoutError:
        return False
    return True


async def run(args: argparse.Namespace, scratch: Path, profile_dir: Path | None) -> int:
    emulator = DiscordEmulator(member_names=())
    await emulator.start()
    bot: asyncio.subprocess.Process | None = None
    exit_code: int | None = None
    log_path = scratch / "bot.log"
    try:
        for i in range(2 * args.matches):
            emulator.add_user(f"p{i:04d}")
        watch = MessageWatch(emulator)
        bot = await start_bot(
            write_config(emulator, scratch, args.matches, args.pace), log_path, profile_dir
        )
        await wait_for_sync(emulator, bot)
        stats = Stats()
        lag = LoopLag()
        lag.start()
        loop = asyncio.get_running_loop()
        started, bench_cpu, bot_cpu = loop.time(), own_cpu(), process_cpu(bot.pid)
        busy = machine_busy()
        in_time = await play_all(emulator, watch, stats, args)
        wall = loop.time() - started
        bench_cpu, bot_cpu = own_cpu() - bench_cpu, process_cpu(bot.pid) - bot_cpu
        # Other processes on the machine compete for the same cores and skew the figures.
        others = max(0.0, machine_busy() - busy - bench_cpu - bot_cpu)
        lag.stop()
        await asyncio.sleep(0.5)  # let late followups land, so their refusals are counted
        exit_code = await stop_bot(bot)
    finally:
        if bot is not None and bot.returncode is None:
            bot.kill()
            await bot.wait()
        await emulator.stop()
    return report(
        args, stats, emulator, in_time, wall, (bench_cpu, bot_cpu, others), lag, exit_code, log_path
    )


def report(
    args: argparse.Namespace,
    stats: Stats,
    emulator: DiscordEmulator,
    in_time: bool,
    wall: float,
    cpu: tuple[float, float, float],
    lag: LoopLag,
    exit_code: int | None,
    log_path: Path,
) -> int:
    bench_cpu, bot_cpu, others = cpu
    responses = [x for step in STEPS for x in stats.first_response[step]]
    missed = [f for f in emulator.failures if "no response within" in f.what]
    failed = len(emulator.failures)
    p99_first, p99_board = pct(responses, 0.99), pct(stats.board, 0.99)
    ok_first, ok_board, ok_failed = (
        p99_first < TARGET_FIRST_RESPONSE,
        p99_board < TARGET_BOARD,
        failed == 0,
    )
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
    return 0 if ok_first and ok_board and ok_failed and ok_global and all_done else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--profile",
        choices=("human", "capacity"),
        default="human",
        help="human-paced players (default) or the closed-loop capacity test",
    )
    parser.add_argument("--matches", type=int, default=200, help="concurrent matches (200)")
    parser.add_argument(
        "--channels",
        type=int,
        default=20,
        help="text channels the matches are spread over (20): Discord limits each channel",
    )
    parser.add_argument(
        "--duration", type=float, default=300.0, help="human: seconds of play (300)"
    )
    parser.add_argument(
        "--ramp", type=float, default=60.0, help="human: matches start over this many s (60)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--limit", type=int, default=0, help="at most this many at a time")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=500.0,
        help="capacity: mean pause before each click, uniform 0..2x (500); 0 = saturation",
    )
    parser.add_argument(
        "--pace", type=int, default=0, help="the bot's requests_per_second (its default)"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after (s)")
    args = parser.parse_args()
    if args.matches < 1 or args.limit < 0 or args.channels < 1:
        parser.error("--matches must be positive and --limit not negative")
    profile = os.environ.get("BOT_LOAD_PROFILE")
    profile_dir = Path(profile).resolve() if profile else None
    if profile_dir is not None:
        profile_dir.mkdir(parents=True, exist_ok=True)
    profiler = cProfile.Profile() if profile_dir else None
    with tempfile.TemporaryDirectory(prefix="bot_load.") as scratch:
        if profiler is not None:
            profiler.enable()
        status = asyncio.run(run(args, Path(scratch), profile_dir))
        if profiler is not None and profile_dir is not None:
            profiler.disable()
            profiler.dump_stats(profile_dir / "bench.prof")
    sys.exit(status)


if __name__ == "__main__":
    main()

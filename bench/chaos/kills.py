"""The kills: when the bot is SIGKILLed, its restarts, and what each kill left running.

Three kinds, drawn at random for each kill:

- ``uniform``: once the bot is ready, after a delay drawn uniformly from 0..2x the mean gap;
- ``after ack``: once the bot is ready, at the next acknowledgement of a move the emulator
  delivers to a player (the kill is sent from inside the emulator's write, before the bot
  even has the HTTP answer); if none comes within ACK_WAIT seconds the kill goes anyway and
  is counted as ``ack wait ran out``;
- ``start-up``: a delay drawn uniformly from 0 to the median start-up time so far, counted
  from the moment the process was started, whether or not it is ready by then.

Just before each kill, the bot's descendants are read from /proc; ``--orphan-wait`` seconds
later those still alive are its orphans.
"""

from __future__ import annotations

import asyncio
import random
import statistics
from dataclasses import dataclass, field

from tests.discord_emulator.server import DiscordEmulator

from .bot_process import READY_LINE, BotExited, BotRuns, ProcessId
from .emulator_watch import end_dropped_sessions
from .players import BotState

UNIFORM = "uniform"
AFTER_ACK = "after ack"
ACK_RAN_OUT = "ack wait ran out"
START_UP = "start-up"
ACK_WAIT = 20.0
FIRST_STARTUP_GUESS = 3.5  # seconds, until a start has been timed


@dataclass
class Kill:
    number: int
    kind: str
    at: float
    """Seconds since the chaos began."""
    uptime: float
    """Seconds since this process was started."""
    was_ready: bool
    family: list[ProcessId]
    orphans: list[ProcessId] = field(default_factory=list)


class Killer:
    def __init__(
        self,
        emulator: DiscordEmulator,
        runs: BotRuns,
        bot: BotState,
        *,
        kills: int,
        seed: int,
        mean_gap: float,
        ack_share: float,
        startup_share: float,
        orphan_wait: float,
    ) -> None:
        self.emulator = emulator
        self.runs = runs
        self.bot = bot
        self.kills_wanted = kills
        self.rng = random.Random(f"chaos/{seed}/kills")
        self.mean_gap = mean_gap
        self.weights = (1 - ack_share - startup_share, ack_share, startup_share)
        self.orphan_wait = orphan_wait
        self.kills: list[Kill] = []
        self.exits: list[str] = []
        """What the bot printed when it stopped by itself before it was ready."""
        self._orphan_checks: list[asyncio.Task[None]] = []
        self._ack_armed: asyncio.Future[list[ProcessId]] | None = None
        self._began = 0.0

    # the acknowledgement hook (AckWatch calls it inside the emulator's write) -----------

    def on_ack(self) -> None:
        armed = self._ack_armed
        if armed is not None and not armed.done():
            armed.set_result(self.runs.kill())

    # the schedule ------------------------------------------------------------------------

    async def run(self) -> None:
        """Start the bot, kill it `kills` times (restarting it each time), start it again
        and wait until it is ready."""
        loop = asyncio.get_running_loop()
        self._began = loop.time()
        await self._start()
        for number in range(1, self.kills_wanted + 1):
            kind = self.rng.choices((UNIFORM, AFTER_ACK, START_UP), self.weights)[0]
            if kind == START_UP:
                delay = self.rng.uniform(0, self._startup_median())
                await asyncio.sleep(max(0.0, self.runs.started_at + delay - loop.time()))
                family = self.runs.kill()
            else:
                await self._ready()
                if kind == UNIFORM:
                    await asyncio.sleep(self.rng.uniform(0, 2 * self.mean_gap))
                    family = self.runs.kill()
                else:
                    family, kind = await self._kill_after_ack()
            self._record(number, kind, family)
            self.bot.up.clear()
            await self.runs.reap()
            end_dropped_sessions(self.emulator)
            await self._start()
        await self._ready()

    async def _start(self) -> None:
        await self.runs.start()

    async def _ready(self) -> None:
        while not self._is_ready():
            try:
                await self.runs.wait_ready()
            except BotExited as error:  # it died by itself: a finding, and a restart
                self.exits.append(str(error)[-400:])
                await self.runs.reap()
                await self._start()
        end_dropped_sessions(self.emulator)
        self.bot.up.set()

    def _is_ready(self) -> bool:
        path = self.runs.log_paths[-1]
        try:
            return READY_LINE in path.read_bytes()
        except OSError:
            return False

    async def _kill_after_ack(self) -> tuple[list[ProcessId], str]:
        armed: asyncio.Future[list[ProcessId]] = asyncio.get_running_loop().create_future()
        self._ack_armed = armed
        try:
            async with asyncio.timeout(ACK_WAIT):
                return await armed, AFTER_ACK
        except TimeoutError:
            return self.runs.kill(), ACK_RAN_OUT
        finally:
            self._ack_armed = None

    def _startup_median(self) -> float:
        timed = self.runs.startup_seconds
        return statistics.median(timed) if timed else FIRST_STARTUP_GUESS

    def _record(self, number: int, kind: str, family: list[ProcessId]) -> None:
        loop = asyncio.get_running_loop()
        kill = Kill(
            number=number,
            kind=kind,
            at=loop.time() - self._began,
            uptime=loop.time() - self.runs.started_at,
            was_ready=self._is_ready(),
            family=family,
        )
        self.kills.append(kill)
        self._orphan_checks.append(asyncio.create_task(self._look_for_orphans(kill)))

    async def _look_for_orphans(self, kill: Kill) -> None:
        """Count the descendants still alive, then end them: they are this run's processes,
        and 60 kills' worth of idle workers would fill the machine."""
        await asyncio.sleep(self.orphan_wait)
        kill.orphans = [p for p in kill.family if p.alive()]
        for process in kill.orphans:
            process.kill()

    async def orphan_checks_done(self) -> None:
        if self._orphan_checks:
            await asyncio.gather(*self._orphan_checks)

"""The bot as production runs it, `python -m bot --config FILE`, started, killed with
SIGKILL and started again; and its process family, read from /proc (Linux)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from bench.load.bot_process import start_bot, stop_bot
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.conftest import e2e_config

READY_LINE = b"logged in as"
"""What the bot logs once it is connected and has its guild (bot/client.py on_ready)."""
READY_TIMEOUT = 60.0


class BotExited(RuntimeError):
    """The bot stopped by itself before it was ready."""


def write_config(
    emulator: DiscordEmulator, database: Path, *, turn_timer: float, matches: int
) -> Path:
    """The production TOML, written by the e2e suite's writer (no AI pause), plus a short
    default turn timer: challenges that pick a timer get a long one, the rest this."""
    e2e_config(
        emulator,
        database,
        turn_timer_seconds=turn_timer,
        min_turn_seconds=min(turn_timer, 5.0),
        max_active_matches=max(5, matches),
        ai_levels=["easy", "normal"],
        expiry_ai_level="easy",
    )
    return database.with_suffix(".toml")


@dataclass(frozen=True, slots=True)
class ProcessId:
    """A pid with its start time, so a reused pid is not taken for the same process."""

    pid: int
    started: int
    what: str = ""
    """What it runs, in short (``multiprocessing spawn worker``, ``resource_tracker``)."""

    def alive(self) -> bool:
        """Still running (a zombie is dead: it only waits to be reaped)."""
        fields = _stat_fields(self.pid)
        return fields is not None and int(fields[19]) == self.started and fields[0] != "Z"

    def kill(self) -> None:
        """SIGKILL it if it is still this process."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name: state, ppid, … (field 3 onwards)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def descendants(pid: int) -> list[ProcessId]:
    """Every live process whose chain of parents leads to `pid` (not `pid` itself)."""
    parents: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(int(entry))) is not None:
            parents[int(entry)] = (int(fields[1]), int(fields[19]))
    family: set[int] = {pid}
    grew = True
    while grew:
        children = {child for child, (parent, _) in parents.items() if parent in family}
        grew = not children <= family
        family |= children
    family.discard(pid)
    return [ProcessId(p, parents[p][1], _what(p)) for p in sorted(family)]


def _what(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read().decode(errors="replace").split("\0")
    except OSError:
        return "?"
    joined = " ".join(words)
    if "resource_tracker" in joined:
        return "multiprocessing resource_tracker"
    if "spawn_main" in joined:
        return "multiprocessing spawn worker"
    return joined[:60]


@dataclass
class BotRuns:
    """Starts of the bot on one config, each with its own log file."""

    config: Path
    logs: Path
    process: asyncio.subprocess.Process | None = None
    log_paths: list[Path] = field(default_factory=list)
    started_at: float = 0.0
    startup_seconds: list[float] = field(default_factory=list)

    @property
    def pid(self) -> int | None:
        process = self.process
        return process.pid if process is not None and process.returncode is None else None

    async def start(self) -> None:
        log_path = self.logs / f"bot-{len(self.log_paths) + 1:03d}.log"
        self.log_paths.append(log_path)
        self.started_at = asyncio.get_running_loop().time()
        self.process = await start_bot(self.config, log_path, None)

    async def wait_ready(self) -> None:
        """Until this start has logged that it is connected (and has its guild)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + READY_TIMEOUT
        log_path = self.log_paths[-1]
        while READY_LINE not in _read(log_path):
            process = self.process
            if process is None or process.returncode is not None:
                tail = _read(log_path).decode(errors="replace")[-2000:]
                raise BotExited(f"the bot exited before it was ready:\n{tail}")
            if loop.time() > give_up:
                raise RuntimeError(f"the bot was not ready within {READY_TIMEOUT:g} s")
            await asyncio.sleep(0.05)
        self.startup_seconds.append(loop.time() - self.started_at)

    def kill(self) -> list[ProcessId]:
        """SIGKILL the bot alone, as a crash or the OOM killer would; returns its
        descendants as they were just before (they get no signal from us)."""
        process = self.process
        if process is None or process.returncode is not None:
            return []
        family = descendants(process.pid)
        os.kill(process.pid, signal.SIGKILL)
        return family

    async def reap(self) -> None:
        if self.process is not None:
            await self.process.wait()

    async def stop(self) -> int | None:
        """SIGTERM, as a service manager stops it: the bot finishes and exits."""
        if self.process is None:
            return None
        return await stop_bot(self.process)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""

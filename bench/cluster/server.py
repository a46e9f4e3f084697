"""The benchmark's PostgreSQL server (pgserver, on a Unix socket in a scratch directory)
and CPU time read from /proc (Linux)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state, ppid, ...)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def cpu_seconds(pids: Iterable[int], *, reaped: Iterable[int] = ()) -> float:
    """User plus system CPU of ``pids`` so far, and of the children ``reaped`` have waited
    for (so a process that ended between two readings still counts)."""
    ticks = 0
    for pid in pids:
        if (fields := _stat(pid)) is not None:
            ticks += int(fields[11]) + int(fields[12])
    for pid in reaped:
        if (fields := _stat(pid)) is not None:
            ticks += int(fields[13]) + int(fields[14])
    return ticks / _TICK


def machine_cpu_seconds() -> float:
    """CPU time all cores have spent busy (not idle, not waiting for I/O) since boot."""
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, irq, softirq, steal = stat.readline().split()[1:9]
    return sum(int(t) for t in (user, nice, system, irq, softirq, steal)) / _TICK


def family(root: int) -> list[int]:
    """``root`` and every live process descending from it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, frontier = [root], [root]
    while frontier:
        frontier = [child for pid in frontier for child in children.get(pid, [])]
        found += frontier
    return found


class PostgresServer:
    """A PostgreSQL server in ``directory`` for one run, a database per setup.

    ``synchronous_commit`` off by default: a commit returns before its WAL reaches the
    disk, as SQLite's WAL with ``synchronous=NORMAL`` does (both survive a crash of the
    bot, neither a power cut of the last moments)."""

    def __init__(self, directory: Path, *, synchronous_commit: bool = False) -> None:
        from pgserver.postgres_server import get_server

        self._directory = directory.resolve()
        self._server: Any = get_server(directory / "data", cleanup_mode="stop")
        self._synchronous_commit = synchronous_commit

    def configure(self) -> None:
        if not self._synchronous_commit:
            self._server.psql("ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf();")

    def database(self, name: str) -> str:
        """The URL of a new database ``name``."""
        self._server.psql(f"CREATE DATABASE {name};")
        url: str = self._server.get_uri(name)
        return url

    def pid(self) -> int:
        pid: int = self._server.get_pid()
        return pid

    def cpu_seconds(self) -> float:
        """CPU used by the server so far: the postmaster and its backends, live or ended."""
        return cpu_seconds(family(self.pid()), reaped=[self.pid()])

    def shut_down(self) -> None:
        """Stop the server as an operator would for a restart (every connection drops);
        :meth:`start_again` brings it back on the same socket."""
        from pgserver._commands import pg_ctl

        server = self._server
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)

    def start_again(self) -> None:
        """Start the server stopped by :meth:`shut_down`, with the options it had."""
        from pgserver._commands import pg_ctl

        server = self._server
        # postmaster.opts keeps the socket options of the last start; "-o" is re-read.
        options = (server.pgdata / "postmaster.opts").read_text().split(None, 1)[1]
        args = ["-w", "-o", options.strip(), "-l", str(server.log), "start"]
        pg_ctl(args, pgdata=server.pgdata, user=server.system_user, timeout=60)

    def stop(self) -> None:
        """Stop the server; remove the socket's directory pgserver made outside ``directory``
        when the path to ``directory`` was too long for a socket."""
        sockets: Path | None = self._server.get_postmaster_info().socket_dir
        self._server.cleanup()
        if sockets is not None and not sockets.is_relative_to(self._directory):
            shutil.rmtree(sockets, ignore_errors=True)


@contextlib.contextmanager
def postgres(directory: Path, *, synchronous_commit: bool = False) -> Iterator[PostgresServer]:
    """A server for the duration of the block, stopped however the block ends."""
    directory.mkdir()
    server = PostgresServer(directory, synchronous_commit=synchronous_commit)
    try:
        server.configure()
        yield server
    finally:
        server.stop()

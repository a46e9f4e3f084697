"""Who descends from whom, read from /proc (Linux): to show no process outlives the bot."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path


def children_by_parent() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone while we looked
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def descendants(pid: int) -> set[int]:
    children = children_by_parent()
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def survivors(pids: set[int], seconds: float) -> set[int]:
    """The processes among ``pids`` still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    left = {pid for pid in pids if alive(pid)}
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = {pid for pid in left if alive(pid)}
    return left


def kill_all(pids: set[int]) -> None:
    """Clean up after a failing test: it must not leak what it started."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

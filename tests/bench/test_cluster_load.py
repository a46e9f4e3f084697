"""bench/cluster_load.py, a short run of its three setups (SQLite, PostgreSQL in one process
and in two): every setup plays, nothing fails, and the databases hold each acknowledged
decision exactly once. No timing is asserted. The run leaves no process and no file
behind. And the audit behind those zeros does see a lost or unacknowledged decision."""

import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bench.cluster.audit import Audit, audit
from bench.cluster.players import Players
from bench.cluster.worker import StoreSpec, service_config
from engine.service import MatchService

pytestmark = pytest.mark.slow  # a cluster benchmark

ROOT = Path(__file__).resolve().parents[2]
SETUPS = ("sqlite", "pg1", "pg2")
SMOKE = ("--matches", "6", "--think-ms", "10", "--seconds", "2", "--warm-up", "0.5")


def _table(output: str) -> dict[str, dict[str, str]]:
    """The first table of the report: setup -> column -> value."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["setup", "procs"])
    header = lines[start].split()
    rows = {}
    for line in lines[start + 1 :]:
        values = line.split()
        if not values or values[0] not in SETUPS:
            break
        assert len(values) == len(header), line
        rows[values[0]] = dict(zip(header, values, strict=True))
    return rows


def _processes_naming(text: str) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                args = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in args:
            found.append(args)
    return found


def test_three_setups_play_and_every_acknowledged_decision_is_stored_once():
    # Short paths: the PostgreSQL server's Unix socket lives under them. pgserver keeps a
    # lock file in the runtime directory, which is not the run's to remove.
    scratch = Path(tempfile.mkdtemp(prefix="hk-clt-", dir="/tmp"))
    runtime = Path(tempfile.mkdtemp(prefix="hk-clr-", dir="/tmp"))
    try:
        run = subprocess.run(
            [sys.executable, "bench/cluster_load.py", *SMOKE],
            cwd=ROOT,
            env={**os.environ, "TMPDIR": str(scratch), "XDG_RUNTIME_DIR": str(runtime)},
            capture_output=True,
            text=True,
            timeout=240,
        )
        left = list(scratch.iterdir())
        running = _processes_naming(str(scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)
    assert run.returncode == 0, run.stderr
    rows = _table(run.stdout)
    assert tuple(rows) == SETUPS, run.stdout
    for name, row in rows.items():
        assert int(row["decisions"]) > 0, (name, run.stdout)
        assert int(row["matches"]) > 0, (name, run.stdout)
        for column in ("errors", "lost", "doubled", "unfinished"):
            assert row[column] == "0", (name, column, run.stdout)
    assert rows["pg2"]["procs"] == "2"
    assert "pg2/pg1 throughput:" in run.stdout
    assert left == []
    assert running == []


async def test_the_audit_finds_a_decision_lost_or_applied_without_acknowledgement(tmp_path):
    spec = StoreSpec("sqlite", str(tmp_path / "audit.sqlite3"))
    service = MatchService(spec.open("test"), service_config(), rng=random.Random(3))
    await service.start()
    try:
        players = Players(service, index=0, workers=1, tables=2, think=0, seed=3)
        players.start(t_end=time.monotonic())  # one match a table
        await asyncio.wait_for(players.finished.wait(), 30)
    finally:
        await service.close()
    tally = players.tally
    assert tally.acks and not tally.errors
    assert await audit(spec, [tally]) == Audit(2, 0, 0, 0)
    first, *rest = tally.acks
    forged = replace(first, decision="forged")
    assert await audit(spec, [replace(tally, acks=[forged, *rest])]) == Audit(2, 0, 1, 1)
    assert await audit(spec, [replace(tally, acks=rest)]) == Audit(2, 0, 0, 1)
    unknown = replace(first, seq=999)
    assert await audit(spec, [replace(tally, acks=[*tally.acks, unknown])]) == Audit(2, 0, 1, 0)

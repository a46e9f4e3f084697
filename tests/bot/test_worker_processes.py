"""The worker processes end with the bot, however it ends, and a worker that dies is
replaced without the player noticing."""

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.discord_plumbing.worker_processes import WorkerProcess
from tests.bot.process_tree import children_by_parent, descendants, kill_all, survivors

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang: the workers go as soon as they notice, and the pool
notices a dead worker as soon as it runs, however busy the machine is."""
POLL_SECONDS = 0.01
"""How often a test looks again for what it waits for; how long it waits is not bounded
by this, only by the hang guard."""

# A stand-in for the bot: it starts both workers the way the bot does, says so, and
# waits to be killed.
BOT_STAND_IN = textwrap.dedent(
    """
    import asyncio
    import os

    from bot.discord_plumbing.worker_processes import DRAWING, THINKING


    async def main():
        if os.environ.get("FROM_A_THREAD"):  # no PR_SET_PDEATHSIG: the fallback watch
            drawer = await asyncio.to_thread(lambda: DRAWING.submit(os.getpid).result())
        else:
            drawer = await DRAWING.run(os.getpid)
        thinker = await asyncio.get_running_loop().run_in_executor(
            THINKING.executor(), os.getpid
        )
        print("workers", drawer, thinker, flush=True)
        await asyncio.sleep(3600)


    if __name__ == "__main__":
        asyncio.run(main())
    """
)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="walks /proc")
@pytest.mark.parametrize("started_from", ["the event loop", "a thread"])
def test_sigkill_of_the_bot_leaves_no_worker_and_no_resource_tracker(tmp_path, started_from):
    script = tmp_path / "stand_in.py"
    script.write_text(BOT_STAND_IN)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if started_from == "a thread":
        env["FROM_A_THREAD"] = "1"
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    family: set[int] = set()
    try:
        assert bot.stdout is not None
        line = bot.stdout.readline()
        assert line.startswith("workers"), line
        workers = {int(pid) for pid in line.split()[1:]}
        family = descendants(bot.pid)  # recorded before the kill: the pids to watch
        assert workers <= family
        assert len(family) >= 3, "two workers and multiprocessing's resource tracker"

        bot.kill()
        bot.wait(timeout=HANG_GUARD_SECONDS)
        left = survivors(family, seconds=HANG_GUARD_SECONDS)
        assert not left, f"still running after the bot was killed: {sorted(left)}"
    finally:
        kill_all(survivors(family, seconds=0))
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def kill_own_process() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def die_on_the_first_try(tried: Path) -> int:
    """Dies under its job the first time (noted in ``tried``), then answers its pid."""
    if not tried.exists():
        tried.touch()
        kill_own_process()
    return os.getpid()


def reaped(pid: int) -> bool:
    """The killed worker is gone even as a zombie: its pool reaps it only after marking
    itself broken (concurrent.futures' manager thread), so by then the pool knows."""
    try:
        os.kill(pid, 0)  # a zombie still takes signal 0
    except ProcessLookupError:
        return True
    return False


async def until_reaped(pid: int) -> None:
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        while not reaped(pid):  # noqa: ASYNC110 - nothing announces a reap
            await asyncio.sleep(POLL_SECONDS)


@pytest.fixture
def worker():
    worker = WorkerProcess("test")
    yield worker
    worker.stop()


async def test_a_killed_worker_is_replaced_and_the_next_job_runs(worker, caplog):
    caplog.set_level(logging.INFO, logger="bot.discord_plumbing.worker_processes")
    first = await worker.run(os.getpid)
    os.kill(first, signal.SIGKILL)
    await until_reaped(first)  # the worker died between jobs, and the pool knows it

    second = await worker.run(os.getpid)

    assert second != first
    restarts = [r for r in caplog.records if "restart" in r.getMessage()]
    assert len(restarts) == 1, caplog.text
    assert "test" in restarts[0].getMessage()
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)


async def test_a_job_whose_worker_dies_under_it_is_tried_again_once(worker, caplog, tmp_path):
    caplog.set_level(logging.INFO, logger="bot.discord_plumbing.worker_processes")
    first = await worker.run(os.getpid)

    second = await worker.run(die_on_the_first_try, tmp_path / "tried")

    assert second != first
    assert len([r for r in caplog.records if "restart" in r.getMessage()]) == 1
    assert not any(r.exc_info for r in caplog.records)


async def test_a_job_that_kills_every_worker_is_refused_after_one_retry(worker, caplog):
    from concurrent.futures.process import BrokenProcessPool

    caplog.set_level(logging.INFO, logger="bot.discord_plumbing.worker_processes")
    with pytest.raises(BrokenProcessPool):
        await worker.run(kill_own_process)
    assert len([r for r in caplog.records if "restart" in r.getMessage()]) == 1
    assert await worker.run(os.getpid) > 0  # and the worker after it still works


def test_the_executor_handed_to_the_service_also_survives_a_dead_worker(worker, caplog):
    caplog.set_level(logging.INFO, logger="bot.discord_plumbing.worker_processes")
    executor = worker.executor()
    first = executor.submit(os.getpid).result(timeout=HANG_GUARD_SECONDS)
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not reaped(first) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    assert reaped(first), "the pool never noticed its worker died"
    assert executor.submit(os.getpid).result(timeout=HANG_GUARD_SECONDS) != first


def starting_workers(known: set[int]) -> set[int]:
    """This process's worker children that were not running before."""
    found = set()
    for pid in children_by_parent().get(os.getpid(), []):
        with contextlib.suppress(OSError):
            if pid not in known and b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="walks /proc")
async def test_a_worker_killed_while_it_starts_costs_one_line_and_no_traceback(
    worker, caplog, capfd
):
    caplog.set_level(logging.INFO)
    known = set(children_by_parent().get(os.getpid(), []))
    job = asyncio.ensure_future(worker.run(os.getpid))
    await asyncio.sleep(0)  # submitted: the worker is being spawned
    starting: set[int] = set()
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        while not (starting := starting_workers(known)):  # noqa: ASYNC110 - nor a spawn
            await asyncio.sleep(POLL_SECONDS)
    for pid in starting:
        os.kill(pid, signal.SIGKILL)

    answer = await job

    assert answer not in starting
    assert len([r for r in caplog.records if "restart" in r.getMessage()]) == 1
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in capfd.readouterr().err

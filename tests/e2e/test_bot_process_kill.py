"""`python -m bot` killed with SIGKILL (the OOM killer, `kill -9`, a host that gives up
waiting): no worker process and no resource tracker outlives it."""

import asyncio
from pathlib import Path

import pytest

from tests.bot.process_tree import descendants, kill_all, survivors
from tests.e2e.players import HANG_GUARD_SECONDS, answered
from tests.e2e.test_bot_process import start_bot

pytestmark = pytest.mark.slow  # a killed bot process


def workers_of(pid: int) -> set[int]:
    """The multiprocessing workers among the descendants of ``pid``."""
    found = set()
    for child in descendants(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            pass
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="walks /proc")
async def test_sigkill_of_the_bot_leaves_no_process_behind(emulator, tmp_path):
    process, _ = await start_bot(emulator, tmp_path / "bot.sqlite3")
    family: set[int] = set()
    try:
        ana = emulator.user("ana")
        await answered(await ana.slash("hanamikoji ai"))  # a board to draw
        for _ in range(int(HANG_GUARD_SECONDS / 0.1)):
            if workers_of(process.pid):
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("no worker process started")
        family = descendants(process.pid)  # recorded before the kill: the pids to watch
        assert len(family) >= 2, "a worker and multiprocessing's resource tracker"

        process.kill()
        left = await asyncio.to_thread(survivors, family, HANG_GUARD_SECONDS)
        assert not left, f"still running after the bot was killed: {sorted(left)}"
    finally:
        kill_all(survivors(family, seconds=0))
        if process.returncode is None:
            process.kill()
        # Survivors would hold the bot's stdout open: they are gone, so this ends.
        await asyncio.wait_for(process.communicate(), timeout=HANG_GUARD_SECONDS)

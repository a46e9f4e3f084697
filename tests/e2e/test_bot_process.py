"""The bot as production runs it: `python -m bot --config FILE`, stopped by SIGTERM."""

import asyncio
import signal
import sqlite3
import sys

from tests.e2e.conftest import e2e_config
from tests.e2e.players import HANG_GUARD_SECONDS


async def start_bot(emulator, database):
    """`python -m bot` against the emulator; returns the process and what it printed
    until it was ready (commands synced, Gateway connected, the guild received)."""
    e2e_config(emulator, database)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--config",
        str(database.with_suffix(".toml")),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    seen = b""
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        while b"logged in as" not in seen:
            line = await process.stdout.readline()
            assert line, f"the bot stopped before it was ready:\n{seen.decode()}"
            seen += line
    return process, seen


async def stop_bot(process, seen):
    """SIGTERM, then everything the bot printed; it must exit 0 without a traceback."""
    process.send_signal(signal.SIGTERM)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=HANG_GUARD_SECONDS)
    output = seen + output
    assert process.returncode == 0, output.decode()
    assert b"Traceback" not in output, output.decode()


async def test_python_m_bot_answers_and_shuts_down_cleanly_on_sigterm(emulator, tmp_path):
    database = tmp_path / "bot.sqlite3"
    process, seen = await start_bot(emulator, database)
    try:
        rules = await emulator.user("ana").slash("hanamikoji rules")
        await rules.first_response()
        assert "4 geishas" in rules.message.text()
        ben = emulator.user("ben")
        challenge = await emulator.user("ana").slash("hanamikoji challenge", opponent=ben)
        await challenge.first_response()
    finally:
        await stop_bot(process, seen)
    with sqlite3.connect(database) as db:  # closed cleanly: the challenge is on disk
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT COUNT(*) FROM matches").fetchone() == (1,)


async def test_sigterm_mid_answer_lets_the_answer_reach_the_player(emulator, tmp_path):
    """A command whose answer is still on its way when the process is told to stop: the
    bot finishes it before closing its connection, instead of cutting it off."""
    process, seen = await start_bot(emulator, tmp_path / "bot.sqlite3")
    slow = emulator.faults.hold("/interactions/{interaction_id}/{token}/callback", method="POST")
    try:
        rules = await emulator.user("ana").slash("hanamikoji rules")
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await slow.arrived.wait()
        process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(HANG_GUARD_SECONDS):  # shutting down, Discord still slow
            while b"answer(s) under way" not in seen:
                line = await process.stdout.readline()
                assert line, f"the bot stopped without finishing the answer:\n{seen.decode()}"
                seen += line
        slow.release()
        await rules.first_response()
        assert "4 geishas" in rules.message.text()
    finally:
        slow.release()
        output, _ = await asyncio.wait_for(process.communicate(), timeout=HANG_GUARD_SECONDS)
    assert process.returncode == 0, (seen + output).decode()
    assert b"Traceback" not in output, (seen + output).decode()

"""The bot as production runs it: `python -m bot --config FILE`, stopped by SIGTERM."""

import asyncio
import signal
import sqlite3
import sys

from tests.e2e.conftest import e2e_config


async def test_python_m_bot_answers_and_shuts_down_cleanly_on_sigterm(emulator, tmp_path):
    database = tmp_path / "bot.sqlite3"
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
    try:
        # Ready means on_ready: commands synced, Gateway connected, the guild received.
        async with asyncio.timeout(30):
            while b"logged in as" not in seen:
                line = await process.stdout.readline()
                assert line, f"the bot stopped before it was ready:\n{seen.decode()}"
                seen += line
        rules = await emulator.user("ana").slash("hanamikoji rules")
        await rules.first_response()
        assert "4 geishas" in rules.message.text()
        ben = emulator.user("ben")
        challenge = await emulator.user("ana").slash("hanamikoji challenge", opponent=ben)
        await challenge.first_response()
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=20)
        output = seen + output
    assert process.returncode == 0, output.decode()
    assert b"Traceback" not in output
    with sqlite3.connect(database) as db:  # closed cleanly: the challenge is on disk
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT COUNT(*) FROM matches").fetchone() == (1,)

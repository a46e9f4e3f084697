"""JSON log lines: one valid object per record, with the match, server and shard where
known, and the traceback when there is one."""

from __future__ import annotations

import asyncio
import json
import logging
import sys

from bot.operations.json_logs import JsonFormatter, bind_log_fields


def record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("bot.play", logging.WARNING, __file__, 1, message, args, None)
    for key, value in extra.items():
        setattr(made, key, value)
    return made


def test_a_line_is_one_json_object_with_the_standard_fields():
    line = JsonFormatter().format(record('match %s: "odd"\nname', 7, match_id=7, guild_id=42))
    assert "\n" not in line
    found = json.loads(line)
    assert found["level"] == "WARNING"
    assert found["logger"] == "bot.play"
    assert found["message"] == 'match 7: "odd"\nname'
    assert (found["match_id"], found["guild_id"]) == (7, 42)
    assert "shard_id" not in found
    assert found["time"].endswith("+00:00")


def test_an_exception_is_carried_as_exc_info():
    try:
        raise ValueError("bad card 'Z'")
    except ValueError:
        made = logging.LogRecord("engine", logging.ERROR, __file__, 1, "failed", (), None)
        made.exc_info = sys.exc_info()
    found = json.loads(JsonFormatter().format(made))
    assert "ValueError: bad card 'Z'" in found["exc_info"]


async def test_fields_bound_in_a_task_stay_in_that_task():
    formatter = JsonFormatter()

    async def handler(match_id: int) -> dict[str, object]:
        bind_log_fields(match_id=match_id, guild_id=5, shard_id=None)
        await asyncio.sleep(0)  # the other handler runs meanwhile
        return json.loads(formatter.format(record("pressed")))

    first, second = await asyncio.gather(handler(1), handler(2))
    assert (first["match_id"], second["match_id"]) == (1, 2)
    assert first["guild_id"] == 5
    assert "shard_id" not in first
    assert "match_id" not in json.loads(formatter.format(record("outside")))

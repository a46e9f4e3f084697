"""A tampered client (or a garbled old message) sends a custom_id the bot never wrote: the
presser gets a short, polite refusal only they see, and the log has no traceback."""

import logging

import pytest

from bot.words.i18n import text
from tests.e2e.players import board_message, challenge_and_accept, labels

HUGE = "9" * 30
"""A number past SQLite's 64-bit integers."""


def tracebacks(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.exc_info or "Ignoring exception" in r.getMessage() or r.levelno >= logging.ERROR
    ]


async def forged_press(emulator, bot, custom_id: str):
    """ana clicks the board's Hand button, her client claiming `custom_id` instead."""
    match = await challenge_and_accept(emulator, bot)
    ana = match.players[0]
    board = board_message(ana, match.thread_id)
    custom_id = custom_id.format(match=match.match_id, guild=emulator.guild_id)
    answer = await (await ana.forged_click(board, labels("en")["hand"], custom_id)).answer()
    return answer


READ_BY_A_VERB = [
    f"hk:{HUGE}:0:hand",
    "hk:0:0:hand",
    f"hk:{{match}}:{HUGE}:back",
    f"hk:{{match}}:{HUGE}:act:3",
    f"hk:{{match}}:{HUGE}:take:-AB",
    f"hk:{HUGE}:0:accept",
    f"hk:{HUGE}:0:moves",
    f"lb:{{guild}}:{HUGE}",
    f"lb:{HUGE}:0",
    f"rec:{HUGE}",
    f"rv:{HUGE}",
    f"rv:{{match}}:{HUGE}:next",
    f"rv:{{match}}:{HUGE}:jump",
    f"lbs:{{guild}}:1:{HUGE}",
    f"lbs:{{guild}}:{HUGE}:0",
    f"st:{{guild}}:{HUGE}",
]
"""Ids a verb's template matches, with a field out of range."""

READ_BY_NO_VERB = [
    "hk:{match}:0:act:9",
    "hk:{match}:0:take:-H",
    "hk:{match}:0:pick:0",
    "hk:{match}:0:hand:extra",
    "hk:{match}:0:fly",
    "hk:x:0:hand",
    "lb:{guild}:-1",
    "rec:",
    "rv:",
    "rv:{match}:3:fly",
    "lbs:{guild}:1",
    "st:{guild}:x",
    "hkt:1:fly",
    f"hkt:{HUGE}:join",
]
"""Ids of every prefix (:class:`bot.custom_ids.Prefix`) that no template reads."""


@pytest.mark.parametrize("custom_id", READ_BY_A_VERB)
async def test_a_forged_field_is_refused_politely(emulator, bot, caplog, custom_id):
    answer = await forged_press(emulator, bot, custom_id)
    assert answer is not None and answer.ephemeral
    assert answer.content == text("en", "refusal.unreadable")
    assert tracebacks(caplog) == []


@pytest.mark.parametrize("custom_id", READ_BY_NO_VERB)
async def test_an_id_no_verb_reads_is_refused_politely(emulator, bot, caplog, custom_id):
    answer = await forged_press(emulator, bot, custom_id)
    assert answer is not None and answer.ephemeral
    assert answer.content == text("en", "refusal.unreadable")
    assert tracebacks(caplog) == []

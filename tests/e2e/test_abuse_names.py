"""A member who means harm picks a display name that is markdown: the match's public text
shows the name as it is written, with no link, no broken code block and nothing that looks
like a ping; and a member's nickname shows in the server it belongs to."""

import random
import re

import pytest

from engine.model import MatchStatus
from tests.e2e.players import board_message, challenge_and_accept, play_decision, settle

CODE_FENCE = "```@everyone"
MASKED_LINK = "[x](https://e.vil)"

_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")
"""Discord's escape: a backslash before any ASCII punctuation shows that character as it is."""
_MASKED = re.compile(r"\[[^\]]*\]\(\s*<?https?:")
_AUTOLINK = re.compile(r"https?://")


def as_parsed(text: str) -> str:
    """The text as Discord's parser meets it: an escaped character can start no markup, so
    it stands as a placeholder here."""
    return _ESCAPED.sub("\x00", text)


def as_read(text: str) -> str:
    """The text as a reader sees it: escaped characters as themselves."""
    return _ESCAPED.sub(r"\1", text)


def markup_problems(text: str) -> list[str]:
    """What a reader would see go wrong in this text: a link, a ping, a broken code block."""
    parsed = as_parsed(text)
    problems = [f"a masked link in {text!r}" for _ in _MASKED.finditer(parsed)]
    problems += [f"a link in {text!r}" for _ in _AUTOLINK.finditer(parsed)]
    problems += [f"a ping in {text!r}" for p in ("@everyone", "@here") if p in parsed]
    if parsed.count("```") % 2:
        problems.append(f"an unclosed code block in {text!r}")
    return problems


def public_texts(user, channel_id: int) -> list[str]:
    """Every content, text display, embed title and description of the channel's
    messages."""
    texts = []
    for message in user.messages(channel_id):
        texts.append(message.content)
        texts += message.text_displays()
        for embed in message.embeds:
            texts += [embed.get("title") or "", embed.get("description") or ""]
    return [t for t in texts if t]


def board_title(board) -> str:
    """The board's title, its layout's heading."""
    return next(t for t in board.text_displays() if t.startswith("### "))[4:]


@pytest.fixture
def named(emulator):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.record.global_name = CODE_FENCE
    ben.record.global_name = MASKED_LINK
    return ana, ben


@pytest.mark.slow
async def test_markdown_names_show_as_written_on_the_board_and_in_the_thread(emulator, bot, named):
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(3)
    board_checked = False
    for step in range(200):
        info = await bot.service.queries.match_info(match.match_id)
        if info.status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng)
        if step == 6:
            board = board_message(named[0], match.thread_id)
            (description,) = [t for t in board.text_displays() if "```" in t]
            # The geisha grid's code block opens and closes where it should, and the
            # names over its columns gave way to the arrows the legend explains.
            assert description.count("```") == 2
            table = description.split("```")[1]
            assert "◀" in table and "▶" in table and len(table.strip().splitlines()) == 8
            assert markup_problems(description) == []
            assert "@\u200beveryone" in description
            board_checked = True
    assert board_checked, "the match ended before its board was checked"
    await settle(emulator, bot)
    texts = public_texts(named[0], match.thread_id)
    assert any("is scored" in t for t in texts) and any("🏆" in t or "draw" in t for t in texts)
    problems = [p for t in texts for p in markup_problems(t)]
    assert problems == []
    read = "\n".join(as_read(t) for t in texts)
    assert f"```@\u200beveryone vs {MASKED_LINK}" in read, "both names show as written"


async def test_the_challenge_message_shows_markdown_names_as_written(emulator, bot, named):
    ana, ben = named
    challenge = await (await ana.slash("hanamikoji challenge", opponent=ben)).answer()
    assert challenge is not None
    texts = [challenge.content] + [
        e.get(k) or "" for e in challenge.embeds for k in ("title", "description")
    ]
    assert [p for t in texts for p in markup_problems(t)] == []


async def test_the_thread_is_named_with_the_names_as_written(emulator, bot, named):
    match = await challenge_and_accept(emulator, bot)
    thread = emulator.world.channel(match.thread_id)
    assert thread.name == f"Hanamikoji: {CODE_FENCE} vs {MASKED_LINK}"


async def test_a_nickname_shows_in_its_server_even_after_a_restart(emulator, start_bot):
    bot = await start_bot()
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ben.record.nick = "Benny"
    match = await challenge_and_accept(emulator, bot)
    board = board_message(ana, match.thread_id)
    assert "Benny" in board_title(board)
    await bot.close()
    # The restarted bot has seen nobody but ana, who asks for the board again: ben's name
    # comes from his membership here.
    bot = await start_bot()
    await (await ana.slash("hanamikoji board", channel=match.thread_id)).answer()
    await settle(emulator, bot)
    title = board_title(board_message(ana, match.thread_id))
    assert title == "Hanamikoji · ana vs Benny", title

"""A whole match in each language, as its players read it, compared with a golden file, so
that any change of wording shows up in review as a diff of what players read.

Two members play a seeded match by clicking what a person would click; everything the bot
sent (the channel's and the thread's messages and edits, each player's ephemeral panels,
DMs) is written out decision by decision, each entry headed by who could read it. Within a
decision, each reader's entries keep their order, and readers come in a fixed order (the
channel, the thread, then each player), since the thread and a player's panel are updated
side by side. While it plays, no hidden card reaches the thread or the other seat.

After a deliberate wording change, regenerate the files and review their diff:

    GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/e2e/test_golden_transcripts.py -q
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from bot.words.hand_lines import face_down_text, hand_text
from bot.words.i18n import text
from engine.model import MatchStatus
from engine.service.clock import ManualClock
from tests.discord_emulator.transcript import Scope, TranscriptEntry
from tests.e2e.players import (
    UPLOADED,
    Match,
    as_read,
    challenge_and_accept,
    play_decision,
    presence_of,
    settle,
)

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"
SEED = 24
"""Seeds the service's deals and who starts, and the players' clicks."""
SNOWFLAKE = re.compile(r"\d{15,}")


def _pattern(lang: str, key: str, **values: str) -> re.Pattern[str]:
    """A catalogue line as a regex: ``{cards}`` captured, the other placeholders any text."""
    marked = text(lang, key, **{k: f"\x00{k}\x00" for k in values})
    parts = re.split("\x00(\\w+)\x00", marked)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else ("(.*)" if part == "cards" else ".*?")
        for i, part in enumerate(parts)
    )
    return re.compile(regex)


class HiddenCards:
    """After every decision, each new entry is checked against who can read it: a hand or
    face-down line shows only its one reader's own cards; the thread shows none."""

    def __init__(self, emulator, bot, match: Match, lang: str) -> None:
        self.emulator, self.bot, self.match, self.lang = emulator, bot, match, lang
        self.lines = [
            _pattern(lang, "panel.hand_line", count="", cards=""),
            _pattern(lang, "panel.face_down_line", cards=""),
        ]
        self.seen = 0
        self.own: dict[int, set[str]] = {u.id: set() for u in match.players}
        self.checked = 0

    async def _remember_own(self) -> None:
        info = await self.bot.service.queries.match_info(self.match.match_id)
        for user_id in info.players:
            mine = await self.bot.service.queries.view_for(self.match.match_id, user_id)
            self.own[user_id] |= {
                as_read(hand_text(self.lang, mine, UPLOADED)),
                as_read(face_down_text(self.lang, mine, UPLOADED)),
            }

    async def check(self) -> list[TranscriptEntry]:
        """Check the entries since the last check, and return them."""
        await self._remember_own()
        transcript = self.emulator.transcript
        entries = list(transcript)[self.seen :]
        self.seen += len(entries)
        for entry in entries:
            shown = {m.group(1) for p in self.lines for m in p.finditer(entry.text())}
            if entry.visibility.scope is Scope.PUBLIC:
                assert not shown, f"the thread shows a hand: {entry}"
                continue
            readers = [u.id for u in self.match.players if transcript.can_see(u.id, entry)]
            assert len(readers) == 1, f"a private message is visible to {readers}: {entry}"
            assert shown <= self.own[readers[0]], f"cards that are not the reader's: {entry}"
            self.checked += len(shown)
        return entries


def reader_rank(entry: TranscriptEntry, match: Match) -> int:
    """Where an entry's readers come in a decision: the channel, the thread, then each
    player's ephemeral messages and DMs."""
    visibility = entry.visibility
    if visibility.scope is Scope.PUBLIC:
        return 1 if visibility.channel_id == match.thread_id else 0
    seat = [u.id for u in match.players].index(visibility.user_id or 0)
    return 2 + 2 * seat + (visibility.scope is Scope.DM)


def readable(entry: TranscriptEntry, names: dict[int, str], thread_id: int) -> str:
    """One entry as a reviewer reads it: who could read it, then what it showed."""
    scope = entry.visibility.scope
    if scope is Scope.PUBLIC:
        place = "thread" if entry.visibility.channel_id == thread_id else "channel"
        who = f"everyone in the {place}"
    else:
        reader = names.get(entry.visibility.user_id or 0, "?")
        who = f"only {reader}" if scope is Scope.EPHEMERAL else f"DM to {reader}"
    body = entry.text()
    for user_id, name in names.items():
        body = body.replace(f"<@{user_id}>", f"@{name}")
    body = SNOWFLAKE.sub("<id>", body)
    return f"── {entry.action.value} · {who}\n{body}"


async def played_transcript(emulator, start_bot, lang: str) -> str:
    if lang != "en":
        emulator.world.guild.preferred_locale = "es-ES"
        for name in ("ana", "ben"):
            emulator.user(name).record.locale = "es-ES"
    # A fixed clock and seed: the same deal, deadlines and clicks on every run.
    bot = await start_bot(clock=ManualClock(), rng=random.Random(SEED))
    presence_of(bot).clock = lambda: 0.0  # both players stay at the table
    match = await challenge_and_accept(emulator, bot, lang)
    hidden = HiddenCards(emulator, bot, match, lang)
    batches = [await hidden.check()]
    rng = random.Random(SEED)
    for _ in range(200):
        if (await bot.service.queries.match_info(match.match_id)).status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng, lang)
        await settle(emulator, bot)
        batches.append(await hidden.check())
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.FINISHED
    assert hidden.checked > 0, "the players' own cards were shown to them"
    names = {u.id: u.name for u in match.players}
    decisions = []
    for number, batch in enumerate(batches):
        head = "════ the match starts" if number == 0 else f"════ decision {number}"
        ordered = sorted(batch, key=lambda e: reader_rank(e, match))  # stable: per reader
        decisions.append(
            "\n\n".join([head, *(readable(e, names, match.thread_id) for e in ordered)])
        )
    return "\n\n".join(decisions) + "\n"


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.usefixtures("patient_answers")  # the transcript names each callback's type
async def test_a_whole_match_reads_as_its_golden_transcript(emulator, start_bot, lang):
    golden = GOLDEN / f"match-{lang}.txt"
    played = await played_transcript(emulator, start_bot, lang)
    if UPDATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(played, encoding="utf-8")
    assert golden.is_file(), f"no {golden.name}: run the command in this module's docstring"
    assert played == golden.read_text(encoding="utf-8"), (
        f"the words players read changed; if deliberately, regenerate {golden.name} "
        "(see this module's docstring) and review its diff"
    )

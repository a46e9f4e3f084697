"""Whole matches played to the end by two members clicking what a person would click."""

import random
import re

import pytest

from engine.model import MatchStatus
from engine.rules import Variant
from tests.discord_emulator.transcript import Scope
from tests.e2e.players import (
    Match,
    challenge_and_accept,
    play_decision,
    private_texts,
)

pytestmark = pytest.mark.slow  # whole matches

HAND_LINE = re.compile(r"\*\*Your hand\*\* \(\d+\): (.*)")
FACE_DOWN_LINE = re.compile(r"\*\*Face down:\*\* (.*)")
HIDDEN_MOVE_LINE = re.compile(r"\*\*\w+\*\* used (Secret|Trade-off) `(1X|2XX)`")


class LeakCheck:
    """After every step, each new message is checked against who can see it: a hand or
    face-down line only ever shows its reader's own cards, and public messages show none."""

    def __init__(self, emulator, bot, match: Match) -> None:
        self.emulator, self.bot, self.match = emulator, bot, match
        self.seen = 0
        self.before: dict[int, set[str]] = {}

    async def check(self) -> None:
        after = await private_texts(self.bot.service, self.match.match_id)
        entries = list(self.emulator.transcript)[self.seen :]
        self.seen += len(entries)
        for entry in entries:
            text = entry.text()
            lines = HAND_LINE.findall(text) + FACE_DOWN_LINE.findall(text)
            names = {a.filename for a in entry.attachments}
            if entry.visibility.scope is Scope.PUBLIC:
                assert not lines, f"a public message shows a hand: {entry}"
                assert names <= {"board.png"}, f"a public message has {names}"
                for line in text.splitlines():
                    if line.startswith("[image] "):
                        continue  # the picture's alt text, of the public view only
                    if " used Secret" in line or " used Trade-off" in line:
                        assert HIDDEN_MOVE_LINE.search(line), f"a hidden move shows cards: {line}"
                continue
            transcript = self.emulator.transcript
            readers = [u.id for u in self.match.players if transcript.can_see(u.id, entry)]
            assert len(readers) == 1, f"a private panel is visible to {readers}: {entry}"
            assert names <= {"hand.png"}, f"a private panel has {names}"
            own = self.before.get(readers[0], set()) | after.get(readers[0], set())
            for line in lines:
                assert line in own, f"{readers[0]} sees cards that are not theirs: {line}"
        self.before = after


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.THREE_ROUNDS])
async def test_a_whole_match_is_played_to_the_end_in_a_thread(emulator, bot, variant):
    options = {"variant": str(variant)} if variant is Variant.THREE_ROUNDS else {}
    match = await challenge_and_accept(emulator, bot, **options)
    rng = random.Random(7)
    leaks = LeakCheck(emulator, bot, match)
    await leaks.check()
    for _ in range(200):
        info = await bot.service.queries.match_info(match.match_id)
        if info.status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng)
        await bot.wait_idle()
        await emulator.idle()
        await leaks.check()
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.FINISHED
    ana = match.players[0]
    texts = [m.text() for m in ana.messages(match.thread_id)]
    assert any("is scored" in t for t in texts), "a round summary was posted"
    assert any("🏆" in t or "draw" in t for t in texts), "the result was announced"
    assert any("Rematch" in [b.label for b in m.buttons()] for m in ana.messages(match.thread_id))

"""Two scripted members per match who keep playing through a database outage, knowing only
what Discord shows them: a refusal ("not answering", "could not confirm") or a click the
bot never answered is noted and tried again a moment later, from the board as it reads
then. Each decision the bot acknowledged (the panel's "✅", a Take's "You took") is kept,
with the match version it was made on, for the audit against the database."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field

from bot.words.i18n import text
from tests.discord_emulator.interactions import EmulatedInteraction, InteractionFailed
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.users import EmulatedUser

HAND = "Hand 🂠"
TURN = re.compile(r"\*\*(?P<name>[^*\n]+)\*\*'s turn\.")
CHOOSES = re.compile(r"\*\*(?P<name>[^*\n]+)\*\* chooses one (?:card|pair)")
OVER = ("🏆", "🤝")
NOT_ANSWERING = text("en", "database.not_answering")
UNCONFIRMED = text("en", "database.unconfirmed")
RETRY_SECONDS = 0.5
"""A player's pause before trying again after a refusal or an unanswered click."""
ANSWER_WAIT = 60.0
"""The longest a player waits for a deferred answer (far above every database bound)."""


@dataclass(frozen=True, slots=True)
class Acknowledged:
    """A decision the bot told its player was made."""

    match_id: int
    version: int
    """The match version the decision was made on (it is stored as number ``version + 1``)."""
    notation: str
    at: float
    """Loop time of the acknowledgement."""


@dataclass
class Tally:
    acknowledged: list[Acknowledged] = field(default_factory=list)
    refused: int = 0
    """Answers saying the database is not answering."""
    unconfirmed: int = 0
    """Answers saying a decision could not be confirmed."""
    unanswered: int = 0
    """Clicks without a first response in time, or whose answer never came."""
    confused: list[str] = field(default_factory=list)
    """Screens the script did not expect (capped)."""


class Refused(Exception):
    """The bot answered with a database refusal (or not at all): try again later."""


class OutagePair:
    """Two members playing one match (its board in ``thread_id``) until told to stop."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        players: tuple[EmulatedUser, EmulatedUser],
        board_id: int,
        tally: Tally,
        rng: random.Random,
        think: float,
    ) -> None:
        self.emulator = emulator
        self.by_name = {p.name: p for p in players}
        self.reader = players[0]
        self.board_id = board_id
        self.tally = tally
        self.rng = rng
        self.think = think
        self.loop = asyncio.get_running_loop()

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            board = self.reader.message(self.board_id).text()
            if any(mark in board for mark in OVER):
                return
            turn, chooses = TURN.search(board), CHOOSES.search(board)
            try:
                if turn is not None:
                    await self.take_turn(self.by_name[turn["name"]])
                elif chooses is not None:
                    await self.choose(self.by_name[chooses["name"]])
                else:
                    self.confused(f"whose turn? {board[-200:]!r}")
                await self.board_moves_on(board, stop)
            except Refused:
                await asyncio.sleep(RETRY_SECONDS)  # the board is read again first
            except Exception as error:  # a stale button, a message gone: read the board again
                self.confused(f"{type(error).__name__}: {error}")
                await asyncio.sleep(RETRY_SECONDS)

    async def act(self, click: Awaitable[EmulatedInteraction]) -> MessageSnapshot:
        """Think, click, read the answer; Refused for a database refusal or no answer."""
        await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        interaction = await click
        try:
            answer = await interaction.answer(wait=ANSWER_WAIT)
        except (InteractionFailed, TimeoutError):
            self.tally.unanswered += 1
            raise Refused() from None
        if answer is None:
            self.tally.unanswered += 1
            raise Refused()
        said = answer.text()
        if NOT_ANSWERING in said:
            self.tally.refused += 1
            raise Refused()
        if UNCONFIRMED in said:
            self.tally.unconfirmed += 1
            raise Refused()
        return answer

    async def take_turn(self, mover: EmulatedUser) -> None:
        panel = await self.act(mover.click(self.board_id, HAND))
        actions = [b.label for b in panel.buttons() if b.label and b.label != "Refresh"]
        if not actions:
            self.confused(f"{mover.name}'s panel offers no action")
            raise Refused()
        panel = await self.act(mover.click(panel, self.rng.choice(actions)))
        select = panel.select()
        picked = self.rng.sample([o.value for o in select.options], select.min_values)
        panel = await self.act(mover.select(panel, picked))
        confirms = [
            b for b in panel.buttons() if (b.label or "").startswith(("Confirm: ", "Split "))
        ]
        if not confirms:
            raise Refused()  # those cards cannot be used: start again from the board
        button = self.rng.choice(confirms)
        done = await self.act(mover.click(panel, button.label))
        if done.text().startswith("✅"):  # the move's notice, above the panel
            self.acknowledge(button.custom_id)

    async def choose(self, chooser: EmulatedUser) -> None:
        board = chooser.message(self.board_id)
        takes = [b for b in board.buttons() if (b.label or "").startswith("Take ")]
        if not takes:
            self.confused(f"{chooser.name} chooses but the board offers no Take")
            raise Refused()
        button = self.rng.choice(takes)
        took = await self.act(chooser.click(board, button.label))
        if "✅" in took.text():
            self.acknowledge(button.custom_id)

    def acknowledge(self, custom_id: str | None) -> None:
        """``hk:<match>:<version>:do|take:<notation>`` acknowledged now."""
        _, match, version, _, notation = (custom_id or "::::").split(":", 4)
        now = self.loop.time()
        self.tally.acknowledged.append(Acknowledged(int(match), int(version), notation, now))

    async def board_moves_on(self, before: str, stop: asyncio.Event) -> None:
        """Until the board reads differently (the move shown), or a while has passed."""
        for _ in range(200):
            if stop.is_set() or self.reader.message(self.board_id).text() != before:
                return
            await asyncio.sleep(0.05)

    def confused(self, what: str) -> None:
        if len(self.tally.confused) < 20:
            self.tally.confused.append(what)

"""Scripted pairs that keep playing while the bot dies under them.

Each pair plays with bench/load's random legal policy (`Pair.take_turn`: Hand → a random
action → random cards → a random Confirm; `Pair.choose`: a random Take on the board) and
recovers as a person would: when Discord says "This interaction failed" they wait for the
bot and look again, sometimes pressing the very same button again; when the board stops
moving after a move they ask for it again with `/hanamikoji board`. Some short-timer
players now and then let the turn timer play for them.

Every click is logged with its interaction, so the audit can tell later which moves were
acknowledged and which decisions a click asked for.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from bench.load.match_script import CHOOSES, OVER, TURN, Pair
from bench.load.measurements import Stats
from bench.load.message_watch import MessageWatch, ScriptError
from bench.load.player_profile import PlayerProfile
from tests.discord_emulator.errors import ImpossibleUserAction
from tests.discord_emulator.interactions import EmulatedInteraction, InteractionFailed
from tests.discord_emulator.layout_rules import walk
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.world import MessageRecord

T = TypeVar("T")
MatchKind = Literal["timed", "untimed", "ai"]
KINDS: tuple[MatchKind, ...] = ("ai", "untimed", "timed", "timed")
"""Pair i plays KINDS[i % 4]: a quarter against the AI (easy, on the short timer), a
quarter with the challenge's 5-minute timer, half on the short default timer."""
UNTIMED_CHOICE = 300  # the challenge's shortest turn_timer choice, in seconds
AI_LEVEL = "easy"
AI_NAME = "AI (easy)"  # challenge.ai_name with levels.easy, as boards and threads show it

HAND_ID = re.compile(r"hk:(?P<match>[0-9]+):0:hand")
ACCEPT_ID = re.compile(r"hk:(?P<match>[0-9]+):[0-9]+:accept")
NO_MATCH = ("no match", "not playing a match")  # commands.no_match_in_channel, no_match

ANSWER_WAIT = 8.0  # a deferred answer not filled in by then: the bot died meanwhile
BOARD_WAIT = 6.0  # after a move, the board should show it by then (else ask for it again)
FIND_WAIT = 8.0  # a new thread or board
FINAL_WAIT = 10.0  # the final board, once /hanamikoji board says the match is over
BOT_WAIT = 60.0  # at most this long for the bot to come back after a failure
SAME_BUTTON_AGAIN = 0.5  # after a failed Confirm or Take, the chance of pressing it again
START_SPREAD = 8.0  # matches start within this many seconds
ABSENT_MARGIN = 6.0  # an absent player comes back this long after their timer ran out
MAX_STEPS = 600
POLL = 0.1
DECIDING_STEPS = frozenset({"confirm", "take"})


async def _poll(check: Callable[[], T | None], seconds: float) -> T | None:
    """`check()` every POLL seconds until it finds something or `seconds` have passed."""
    for _ in range(max(1, round(seconds / POLL))):
        found = check()
        if found is not None:
            return found
        await asyncio.sleep(POLL)
    return check()


def _plain(name: str) -> str:
    """A name or title without the backslashes that escape markdown in it."""
    return name.replace("\\", "")


def _title(message: MessageRecord) -> str:
    """A board's title: its layout's heading (its embed's title before Components V2)."""
    if message.embeds:
        return str(message.embeds[0].get("title") or "")
    heading = [c for c in walk(message.components) if str(c.get("content", "")).startswith("### ")]
    return str(heading[0]["content"])[4:] if heading else ""


class MatchOver(Exception):
    """`/hanamikoji board` finds no match here any more: it ended though no board said so."""


class Hiccup(Exception):
    """Discord said the interaction failed, or its answer never came: the bot is down."""


class BotState:
    """Whether the bot is up (set once a start has logged ready, cleared at a kill), and
    whether the kills are over (players then finish the match they are in)."""

    def __init__(self) -> None:
        self.up = asyncio.Event()
        self.kills_over = asyncio.Event()


@dataclass(frozen=True, slots=True)
class Click:
    """One interaction a player started."""

    pair: int
    step: str
    interaction: EmulatedInteraction
    again_of: int | None = None
    """The interaction id of the failed click this one repeats (the same button)."""


class ClickLog:
    def __init__(self) -> None:
        self.clicks: list[Click] = []

    def add(self, click: Click) -> None:
        self.clicks.append(click)


@dataclass
class PairFigures:
    outcome: str = "playing"  # of the match under way: completed, ended unseen, stopped, error
    outcomes: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    hiccups: int = 0
    fresh_boards: int = 0
    absences: int = 0
    error: str = ""


class ChaosPair(Pair):
    """One match: two members (or one against the AI) who know only what Discord shows."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        watch: MessageWatch,
        stats: Stats,
        index: int,
        args: argparse.Namespace,
        profile: PlayerProfile,
        channel_id: int,
        *,
        bot: BotState,
        clicks: ClickLog,
    ) -> None:
        super().__init__(emulator, watch, stats, index, args.seed, profile, channel_id)
        self.index = index
        self.kind: MatchKind = KINDS[index % len(KINDS)]
        self.bot = bot
        self.clicks = clicks
        self.turn_timer = float(args.turn_timer)
        self.absent = float(args.absent) if self.kind != "untimed" else 0.0
        self.by_id = {self.a.id: self.a, self.b.id: self.b}
        if self.kind == "ai":
            del self.by_name[self.b.name]  # b sits out; the AI plays seat 1
        self.opponent_name = AI_NAME if self.kind == "ai" else self.b.name
        self.thread_name = f"Hanamikoji: {self.a.name} vs {self.opponent_name}"
        self.board_title = f"Hanamikoji · {self.a.name} vs {self.opponent_name}"
        self.match_id: int | None = None
        self.challenge_id: int | None = None
        self.tried_to_start = False
        self.last_board_reply = ""
        self.figures = PairFigures()

    # clicking ----------------------------------------------------------------------------

    async def act(self, step: str, click: Awaitable[EmulatedInteraction]) -> MessageSnapshot:
        """Think, click, and read the answer; Hiccup if the bot did not answer."""
        pause = self.profile.think(step, self.rng)
        if pause:
            await asyncio.sleep(pause)
        self.clicked_at = self.loop.time()
        return await self._answer(step, await click, again_of=None)

    async def _answer(
        self, step: str, interaction: EmulatedInteraction, again_of: int | None
    ) -> MessageSnapshot:
        self.stats.interactions += 1
        self.clicks.add(Click(self.index, step, interaction, again_of))
        message: MessageSnapshot | None = None
        try:
            await interaction.first_response()
            assert interaction.response_latency is not None
            self.stats.first_response[step].append(interaction.response_latency)
            message = await interaction.answer(wait=ANSWER_WAIT)
        except (InteractionFailed, TimeoutError):
            message = None
        if message is not None and not message.loading:
            return message
        if again_of is None and step in DECIDING_STEPS and self.rng.random() < SAME_BUTTON_AGAIN:
            # "This interaction failed": press the same button again once the bot is back.
            await self.wait_for_bot()
            again = await self._same_button(interaction)
            if again is not None:
                return await self._answer(step, again, again_of=interaction.id)
        raise Hiccup(interaction.description)

    async def _same_button(self, interaction: EmulatedInteraction) -> EmulatedInteraction | None:
        user = self.by_id[interaction.user_id]
        source = interaction.source_message_id
        custom_id = str(interaction.data.get("custom_id"))
        if source is None:
            return None
        try:
            return await user.click(source, custom_id)
        except ImpossibleUserAction:  # the message no longer shows that button
            return None

    async def wait_for_bot(self) -> None:
        """Until the bot is back, then a moment more, as a person retries "in a moment"."""
        try:
            async with asyncio.timeout(BOT_WAIT):
                await self.bot.up.wait()
        except TimeoutError:
            pass
        await asyncio.sleep(self.rng.uniform(0.2, 1.0))

    async def board_shows_move(self, before: str) -> None:
        """The base class waits for the board here; `play_out` does, with a fallback."""

    # the match ---------------------------------------------------------------------------

    async def play(self) -> None:
        """Match after match, until the kills are over; then the one under way ends."""
        await self.bot.up.wait()
        await asyncio.sleep(self.rng.uniform(0, START_SPREAD))
        while True:
            self.figures.outcome = "playing"
            try:
                await self.begin()
                await self.play_out()
            except MatchOver:
                self.figures.outcome = "ended unseen"
            except asyncio.CancelledError:
                self.figures.outcomes["stopped"] += 1
                raise
            except Exception as error:  # one broken script must not stop the others
                self.figures.outcome = "error"
                self.figures.error = f"{type(error).__name__}: {error}"
                self.stats.errors.append(f"match {self.index}: {self.figures.error}")
            self.figures.outcomes[self.figures.outcome] += 1
            if self.figures.outcome == "error" or self.bot.kills_over.is_set():
                return
            # The next match of the pair: a new challenge (or /ai), a new thread and board.
            self.thread_id = self.board_id = 0
            self.challenge_id = None
            self.match_id = None
            self.tried_to_start = False

    async def begin(self) -> None:
        """Challenge and accept (or start against the AI) until a board is up."""
        for _ in range(50):
            if self.kind == "ai":
                started = await self._start_ai()
            else:
                started = await self._challenge_and_accept()
            if self.board_id or (started and await self.locate_board()):
                return
        raise ScriptError("no board after 50 tries")

    async def _start_ai(self) -> bool:
        if self.tried_to_start and not await self._no_match_yet():
            return False
        self.tried_to_start = True
        try:
            await self.act(
                "ai", self.a.slash("hanamikoji ai", level=AI_LEVEL, channel=self.channel_id)
            )
        except Hiccup:
            await self.wait_for_bot()
        return True

    async def _challenge_and_accept(self) -> bool:
        """Accept the pending challenge (challenging first if there is none to accept)."""
        challenge = self.challenge_id
        if challenge is not None and not self._shows_accept(challenge):
            # Answered: the bot closed it, so look for that match before challenging again.
            if not await self._no_match_yet():
                return False
            challenge = None
        if challenge is None:
            options = {} if self.kind == "timed" else {"turn_timer": UNTIMED_CHOICE}
            try:
                message = await self.act(
                    "challenge",
                    self.a.slash(
                        "hanamikoji challenge", opponent=self.b, channel=self.channel_id, **options
                    ),
                )
            except Hiccup:
                await self.wait_for_bot()
                return False
            self.challenge_id = challenge = message.id
        try:
            await self.act("accept", self.b.click(challenge, "Accept"))
        except Hiccup:
            await self.wait_for_bot()
        except ImpossibleUserAction:  # no Accept any more: answered (or expired)
            pass
        return True

    async def _no_match_yet(self) -> bool:
        """After an attempt to start whose outcome is unknown (the answer was lost): whether
        `/hanamikoji board` says there is no match here, so another may be started. If it
        shows the board, `self.board_id` is set; if the bot did not answer, False too."""
        if await self.fresh_board():
            return False
        if self.said_no_match():
            return True
        await self.wait_for_bot()
        return False

    def _shows_accept(self, message_id: int) -> bool:
        message = self.emulator.world.messages.get(message_id)
        return message is not None and any(
            ACCEPT_ID.fullmatch(b.custom_id or "") for b in MessageSnapshot.of(message).buttons()
        )

    async def locate_board(self) -> bool:
        """The match's thread and board, as the players find them; else ask for the board."""
        thread = await _poll(self.known_thread, FIND_WAIT)
        board = await _poll(self.newest_board, FIND_WAIT) if thread is not None else None
        if thread is None or board is None:
            return await self.fresh_board()
        self.thread_id, self.board_id = thread, board
        self.watch.track_board(board, self.board_text())
        return True

    def known_thread(self) -> int | None:
        """The newest thread named for this pair (a backslash the bot escapes with aside)."""
        found = [
            thread_id
            for name, thread_id in self.watch.thread_by_name.items()
            if _plain(name) == self.thread_name
        ]
        return max(found, default=None)

    def newest_board(self) -> int | None:
        """The newest board of this pair's match where it may be: its thread or channel."""
        world = self.emulator.world
        places = {self.thread_id, self.channel_id, self.known_thread()}
        newest: int | None = None
        for place in places:
            if not place:
                continue
            for message_id in reversed(self.watch.in_channel.get(place, [])):
                if newest is not None and message_id <= newest:
                    break
                message = world.messages.get(message_id)
                if message is None or message.deleted or message.ephemeral_to is not None:
                    continue
                if _plain(_title(message)) != self.board_title:
                    continue
                ids = [HAND_ID.fullmatch(str(c.get("custom_id"))) for c in walk(message.components)]
                hand = next((m for m in ids if m is not None), None)
                if hand is not None:
                    newest = message_id
                    self.match_id = int(hand["match"])
                    break
        return newest

    async def fresh_board(self) -> bool:
        """`/hanamikoji board`: the board posted again, showing the match as it is."""
        self.figures.fresh_boards += 1
        self.last_board_reply = ""
        where = self.thread_id or self.channel_id
        try:
            reply = await self.act("board", self.a.slash("hanamikoji board", channel=where))
        except Hiccup:
            await self.wait_for_bot()
            return False
        except ImpossibleUserAction:  # e.g. an archived thread
            return False
        self.last_board_reply = reply.text()
        if any(words in self.last_board_reply for words in NO_MATCH):
            return False
        old = self.board_id

        def new_board() -> int | None:
            found = self.newest_board()
            return found if found != old else None

        found = await _poll(new_board, FIND_WAIT)
        if found is None:
            return False
        self.board_id = found
        self.watch.track_board(found, self.board_text())
        return True

    async def board_changes(self, before: str, seconds: float) -> bool:
        """Whether the board reads differently within `seconds`."""
        loop = self.loop
        until = loop.time() + seconds
        place = self.emulator.world.messages[self.board_id].channel_id

        def changed() -> bool | None:
            return True if self.board_text() != before else None

        while loop.time() < until:
            try:
                async with asyncio.timeout(until - loop.time()):
                    await self.watch.wait(place, changed, "board change")
                return True
            except (TimeoutError, ScriptError):
                continue
        return self.board_text() != before

    async def play_out(self) -> None:
        """Whoever the board says must act does so, until the board shows the result."""
        for _ in range(MAX_STEPS):
            before = self.board_text()
            if any(mark in before for mark in OVER):
                self.figures.outcome = "completed"
                return
            turn, chooses = TURN.search(before), CHOOSES.search(before)
            said = turn or chooses
            mover = self.by_name.get(said["name"]) if said else None
            try:
                if mover is None:  # the AI's turn (or a board nobody can read)
                    if not await self.board_changes(before, BOARD_WAIT):
                        await self.refresh_or_end()
                    continue
                if self.rng.random() < self.absent:
                    self.figures.absences += 1
                    wait = self.turn_timer + ABSENT_MARGIN
                    if not await self.board_changes(before, wait):
                        await self.refresh_or_end()
                    continue
                if turn is not None:
                    await self.take_turn(mover, before)
                else:
                    await self.choose(mover, before)
                self.figures.decisions += 1
                if not await self.board_changes(before, BOARD_WAIT):
                    await self.refresh_or_end()
            except Hiccup:
                self.figures.hiccups += 1
                await self.wait_for_bot()
            except (ScriptError, ImpossibleUserAction):
                # The panel disagreed with the board: a move came meanwhile (the timer,
                # the AI), or the board missed an edit.
                if self.board_text() == before:
                    await self.refresh_or_end()
        raise ScriptError(f"no result after {MAX_STEPS} steps")

    async def refresh_or_end(self) -> None:
        """Ask for the board again; if there is no match here any more, it is over (its
        final board may still be on its way: it gets a little longer)."""
        if await self.fresh_board() or not self.said_no_match():
            return
        await self.board_changes(self.board_text(), FINAL_WAIT)
        if not any(mark in self.board_text() for mark in OVER):
            raise MatchOver

    def said_no_match(self) -> bool:
        """Whether the last `/hanamikoji board` answered that there is no match here."""
        return any(words in self.last_board_reply for words in NO_MATCH)

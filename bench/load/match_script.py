"""Two scripted members per match, clicking through the bot's UI; and every match at once."""

from __future__ import annotations

import argparse
import asyncio
import random
import re
from collections.abc import Awaitable

from tests.discord_emulator.interactions import EmulatedInteraction, InteractionFailed
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.users import EmulatedUser

from .measurements import Stats
from .message_watch import MessageWatch, ScriptError
from .player_profile import PlayerProfile

HAND = "Hand 🂠"
# The board's last line says who must act (see bot/play/words.py status_line).
TURN = re.compile(r"\*\*(?P<name>[^*\n]+)\*\*'s turn\.")
CHOOSES = re.compile(r"\*\*(?P<name>[^*\n]+)\*\* chooses one (?:card|pair)")
OVER = ("🏆", "🤝")
MAX_DECISIONS = 200  # a match has ~25-70 decisions; this only bounds a confused script


class Pair:
    """Two scripted members playing one match, knowing only what Discord shows them."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        watch: MessageWatch,
        stats: Stats,
        index: int,
        seed: int,
        profile: PlayerProfile,
        channel_id: int,
    ) -> None:
        self.emulator = emulator
        self.watch = watch
        self.stats = stats
        self.a = emulator.user(f"p{2 * index:04d}")
        self.b = emulator.user(f"p{2 * index + 1:04d}")
        self.by_name = {self.a.name: self.a, self.b.name: self.b}
        self.rng = random.Random(seed * 1_000_003 + index)
        self.loop = asyncio.get_running_loop()
        self.thread_id = 0
        self.board_id = 0
        self.profile = profile
        self.channel_id = channel_id
        self.clicked_at = 0.0

    async def act(self, step: str, click: Awaitable[EmulatedInteraction]) -> MessageSnapshot:
        """Think, click, wait for the bot's first response, record its latency."""
        pause = self.profile.think(step, self.rng)
        if pause:
            await asyncio.sleep(pause)
        self.clicked_at = self.loop.time()
        interaction = await click
        self.stats.interactions += 1
        try:
            await interaction.first_response()
            assert interaction.response_latency is not None
            self.stats.first_response[step].append(interaction.response_latency)
            # A deferred answer is what the player sees only once the bot filled it in.
            message = await interaction.answer(wait=30.0)
        except InteractionFailed as error:
            raise ScriptError(str(error)) from None
        except TimeoutError:
            never = f"{interaction.description}: the deferred answer never came"
            raise ScriptError(never) from None
        if message is None:
            raise ScriptError(f"{interaction.description}: no message to read afterwards")
        return message

    def board_text(self) -> str:
        return self.a.message(self.board_id).text()

    async def play(self) -> None:
        if self.profile.ramp:
            await asyncio.sleep(self.rng.uniform(0, self.profile.ramp))
        challenge = await self.act(
            "challenge",
            self.a.slash("hanamikoji challenge", opponent=self.b, channel=self.channel_id),
        )
        await self.act("accept", self.b.click(challenge, "Accept"))
        accepted = self.clicked_at
        self.thread_id = await self.watch.wait_thread(f"Hanamikoji: {self.a.name} vs {self.b.name}")
        if not any(t.id == self.thread_id for t in self.a.threads()):
            raise ScriptError(f"{self.a.name} cannot see the match thread")
        self.board_id = await self.watch.wait(self.thread_id, self.find_board, "board")
        opened = self.watch.created_at[self.board_id] - accepted
        self.stats.openings.append((accepted - self.profile.started, opened))
        self.watch.track_board(self.board_id, self.board_text())
        for decisions in range(MAX_DECISIONS):
            text = self.board_text()
            if any(mark in text for mark in OVER):
                self.stats.completed += 1
                self.stats.per_match.append(decisions)
                return
            if self.loop.time() >= self.profile.stop_at:
                self.stats.stopped += 1
                return
            turn, chooses = TURN.search(text), CHOOSES.search(text)
            if turn is not None:
                await self.take_turn(self.by_name[turn["name"]], text)
            elif chooses is not None:
                await self.choose(self.by_name[chooses["name"]], text)
            else:
                raise ScriptError(f"cannot tell whose turn it is from the board:\n{text}")
            self.stats.decisions += 1
        raise ScriptError(f"match not over after {MAX_DECISIONS} decisions")

    def find_board(self) -> int | None:
        for message_id in self.watch.in_channel[self.thread_id]:
            if self.a.can_see(message_id):
                seen = self.a.message(message_id)
                if not seen.ephemeral and any(b.label == HAND for b in seen.buttons()):
                    return message_id
        return None

    async def take_turn(self, mover: EmulatedUser, before: str) -> None:
        """Hand → a random action → random cards → a random Confirm/Split, as a person would."""
        panel = await self.act("hand", mover.click(self.board_id, HAND))
        for _ in range(3):
            actions = [b.label for b in panel.buttons() if b.label and b.label != "Refresh"]
            if not actions:
                raise ScriptError(f"{mover.name}'s panel offers no action:\n{panel.text()}")
            panel = await self.act("action", mover.click(panel, self.rng.choice(actions)))
            select = panel.select()
            picked = self.rng.sample([o.value for o in select.options], select.min_values)
            panel = await self.act("select", mover.select(panel, picked))
            labels = [b.label or "" for b in panel.buttons()]
            confirms = [label for label in labels if label.startswith(("Confirm: ", "Split "))]
            if confirms:
                break
            # "Those cards can't be used for that now": the panel is back on its first page.
        else:
            raise ScriptError(f"{mover.name} found no usable cards in 3 tries")
        panel = await self.act("confirm", mover.click(panel, self.rng.choice(confirms)))
        if not panel.text().startswith("✅"):  # "✅ Gift: C D E (3CDE)", above the panel
            raise ScriptError(f"{mover.name}'s Confirm was not applied:\n{panel.text()}")
        await self.board_shows_move(before)

    async def choose(self, chooser: EmulatedUser, before: str) -> None:
        """A random "Take …" among the offer's buttons on the board."""
        board = chooser.message(self.board_id)
        takes = [b.label for b in board.buttons() if b.label and b.label.startswith("Take ")]
        if not takes:
            raise ScriptError(f"the board says {chooser.name} chooses but offers no Take button")
        await self.act("take", chooser.click(board, self.rng.choice(takes)))
        await self.board_shows_move(before)

    async def board_shows_move(self, before: str) -> None:
        """From the last click (after its thinking time) until the board reads differently."""
        started = self.clicked_at
        stamp, _ = await self.watch.wait(
            self.thread_id,
            lambda: self.watch.change_after(self.board_id, started, before),
            "board update",
        )
        self.stats.board.append(stamp - started)
        self.stats.board_at.append((started - self.profile.started, stamp - started))


async def play_all(
    emulator: DiscordEmulator, watch: MessageWatch, stats: Stats, args: argparse.Namespace
) -> bool:
    """Every pair plays its match; False if the global timeout cut the run short."""
    gate = asyncio.Semaphore(args.limit or args.matches)
    profile = PlayerProfile(args, asyncio.get_running_loop().time())
    channels = [emulator.channel.id] + [
        (await emulator.add_text_channel(f"games-{i}")).id for i in range(1, args.channels)
    ]

    async def one(index: int) -> None:
        async with gate:
            try:
                channel = channels[index % len(channels)]
                await Pair(emulator, watch, stats, index, args.seed, profile, channel).play()
            except Exception as error:  # one broken match must not stop the others
                stats.errors.append(f"match {index}: {type(error).__name__}: {error}")

    try:
        async with asyncio.timeout(args.timeout):
            await asyncio.gather(*(one(i) for i in range(args.matches)))
    except TimeoutError:
        return False
    return True

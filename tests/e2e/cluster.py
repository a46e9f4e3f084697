"""Several `python -m bot` processes sharing one PostgreSQL database, each holding its range of
shards of one emulator, and a read-only look at that database from the test.

Each process is started as production starts it, with ``DATABASE_URL`` in its environment,
its working directory the test's own (where a bot on PostgreSQL keeps the digest of its
synced commands). What it prints is read all along, so a long match never fills the pipe.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import random
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from engine.model import DecisionRow, MatchInfo
from engine.rules import Phase
from engine.service.clock import SystemClock
from engine.service.config import ServiceConfig
from engine.service.context import ServiceContext
from engine.service.matches.queries import MatchQueries
from engine.service.settings import MatchSettings
from engine.store.postgres import PostgresMatchStore
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.transcript import Scope
from tests.discord_emulator.users import EmulatedUser
from tests.e2e.conftest import toml_value
from tests.e2e.players import (
    HANG_GUARD_SECONDS,
    Match,
    answered,
    board_message,
    labels,
    offer_message,
    private_texts,
)
from tests.e2e.test_full_match import FACE_DOWN_LINE, HAND_LINE, HIDDEN_MOVE_LINE

T = TypeVar("T")

READY = b"logged in as"


async def eventually(
    check: Callable[[], T | Awaitable[T]], what: str, seconds: float = HANG_GUARD_SECONDS
) -> T:
    """What ``check`` returns (awaited if need be) once it is truthy, looked at every 50 ms;
    fails only after ``seconds`` (a hang, not a slow machine)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while True:
        found = check()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found  # type: ignore[return-value]
        if loop.time() > give_up:
            raise AssertionError(f"no {what} after {seconds:g} s")
        await asyncio.sleep(0.05)


def write_config(
    emulator: DiscordEmulator,
    directory: Path,
    database: dict[str, object] | None = None,
    **matches: object,
) -> Path:
    """The settings file every process of the cluster is started with (the database URL
    comes from DATABASE_URL); ``matches`` are ``[matches]`` keys, ``database`` more
    ``[database]`` keys (its timeouts)."""
    matches = {"ai_move_delay_seconds": 0, **matches}
    lines = [
        "[discord]",
        f'token = "{emulator.bot_token}"',
        f'api_base = "{emulator.api_base}"',
        f'gateway_url = "{emulator.gateway_url}"',
        f"dev_guild_id = {emulator.guild_id}",
        "[database]",
        *(f"{key} = {toml_value(value)}" for key, value in (database or {}).items()),
        "[matches]",
        *(f"{key} = {toml_value(value)}" for key, value in matches.items()),
    ]
    path = directory / "cluster.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


async def launch(
    config: Path,
    *args: str,
    shard: int | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> BotProcess:
    """`python -m bot --config CONFIG *args`, returned once it is logged in."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--config",
        str(config),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        cwd=cwd,
        env=env,
    )
    bot = BotProcess(shard, process)
    await bot.ready()
    return bot


class BotProcess:
    """One `python -m bot`, holding ``shard`` if one; ``output`` is what it printed."""

    def __init__(self, shard: int | None, process: asyncio.subprocess.Process) -> None:
        self.shard = shard
        self.process = process
        self.output = b""
        assert process.stdout is not None
        self._reader = asyncio.create_task(self._read(process.stdout))

    async def _read(self, stdout: asyncio.StreamReader) -> None:
        while line := await stdout.readline():
            self.output += line

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def ready(self) -> None:
        """Until it is logged in (commands synced or left to shard 0, Gateway connected)."""
        await eventually(
            lambda: READY in self.output or not self.alive or self._reader.done(),
            f"login of shard {self.shard}",
        )
        assert READY in self.output, f"shard {self.shard} stopped:\n{self.output.decode()}"

    async def kill(self) -> None:
        """SIGKILL: no shutdown, no goodbye to Discord or the database."""
        self.process.kill()
        await self.process.wait()
        await self._reader

    async def stop(self) -> None:
        """SIGTERM; it must exit 0 without a traceback."""
        self.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(self.process.wait(), timeout=HANG_GUARD_SECONDS)
        await asyncio.wait_for(self._reader, timeout=HANG_GUARD_SECONDS)
        assert self.process.returncode == 0, self.output.decode()
        assert b"Traceback" not in self.output, self.output.decode()


class Cluster:
    """The bot's processes on one database, shard ``n`` of ``shard_count`` each."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        database_url: str,
        directory: Path,
        database: dict[str, object] | None = None,
        **matches: object,
    ) -> None:
        self.emulator = emulator
        self.database_url = database_url
        self.directory = directory
        self.config = write_config(emulator, directory, database, **matches)
        self.shard_count = emulator.gateway.shard_count
        self.processes: dict[int, BotProcess] = {}
        self.every_process: list[BotProcess] = []

    async def start(self, shard: int) -> BotProcess:
        """Start (or restart) the process holding ``shard``, returned once logged in."""
        env = {**os.environ, "DATABASE_URL": self.database_url}
        env.pop("DISCORD_TOKEN", None)
        shards = ("--shards", str(shard), "--shard-count", str(self.shard_count))
        bot = await launch(self.config, *shards, shard=shard, cwd=self.directory, env=env)
        self.processes[shard] = bot
        self.every_process.append(bot)
        return bot

    async def start_all(self) -> None:
        """Shard 0 first: it syncs the slash commands the others rely on."""
        for shard in range(self.shard_count):
            await self.start(shard)

    async def close(self) -> None:
        """Stop the processes still running; each must stop cleanly (all are stopped before
        the first that did not is reported)."""
        problems: list[BaseException] = []
        for bot in self.every_process:
            if bot.alive:
                try:
                    await bot.stop()
                except (AssertionError, TimeoutError) as problem:
                    problems.append(problem)
                    if bot.alive:
                        await bot.kill()
        if problems:
            raise problems[0]

    def assert_no_traceback(self) -> None:
        """No process logged a traceback so far (a failure to show something, say)."""
        for bot in self.every_process:
            assert b"Traceback" not in bot.output, (
                f"shard {bot.shard} logged a traceback:\n{bot.output.decode(errors='replace')}"
            )

    def output(self) -> str:
        return "\n".join(
            f"--- shard {b.shard} ---\n{b.output.decode(errors='replace')}"
            for b in self.every_process
        )


def shard_of_interactions(emulator: DiscordEmulator) -> dict[int, int]:
    """Interaction id -> the shard whose Gateway session was sent it."""
    found: dict[int, int] = {}
    for session in emulator.gateway.sessions.values():
        for data in session.dispatched("INTERACTION_CREATE"):
            found[int(data["id"])] = session.shard[0]
    return found


class Observer:
    """The test's read-only look at the shared database: no alarms, no outbox, no writes.

    ``service`` is itself, so helpers written for an in-process bot's ``bot.service`` (such
    as ``LeakCheck``) read the database through it."""

    def __init__(self, database_url: str) -> None:
        self.url = database_url
        self.store = PostgresMatchStore(database_url, origin="test observer")
        config = ServiceConfig()
        context = ServiceContext(self.store, config, SystemClock(), random.Random(0))
        self.queries = MatchQueries(context, MatchSettings(self.store, config))
        self._pool: Any = None

    @property
    def service(self) -> Observer:
        return self

    async def open(self) -> None:
        await self.store.open()
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=2)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
        await self.store.close()

    async def info(self, match_id: int) -> MatchInfo:
        found = await self.store.get_match(match_id)
        assert found is not None, f"no match {match_id}"
        return found

    async def decisions(self, match_id: int) -> list[DecisionRow]:
        return await self.store.decisions(match_id)

    async def value(self, sql: str, *args: object) -> Any:
        async with self._pool.acquire() as conn:
            return await conn.fetchval(sql, *args)

    async def rows(self, sql: str, *args: object) -> list[Any]:
        async with self._pool.acquire() as conn:
            return list(await conn.fetch(sql, *args))

    async def outbox_empty(self) -> bool:
        """Every process has shown (and recorded showing) what it must announce."""
        return await self.value("SELECT COUNT(*) FROM announcements") == 0

    async def shown(self, emulator: DiscordEmulator, what: str = "the last change shown") -> None:
        """Until the announcements are all shown and Discord has answered every request."""
        await eventually(self.outbox_empty, what)
        await emulator.idle(max_wait=HANG_GUARD_SECONDS)

    async def the_match(self, challenger: EmulatedUser, other: EmulatedUser) -> Match:
        """The one open match of ``challenger`` (against ``other``), once it has a thread."""

        async def found() -> Match | None:
            matches = await self.store.open_matches_of(challenger.id)
            if len(matches) != 1 or matches[0].placement.thread_id is None:
                return None
            info = matches[0]
            assert set(info.players) == {challenger.id, other.id}
            return Match(info.match_id, info.placement.thread_id, (challenger, other))

        return await eventually(found, "match with a thread")

    async def whose_turn(self, match: Match) -> tuple[EmulatedUser, int, Phase]:
        """(the player who must decide now, the match's version, the phase)."""
        table = await self.queries.public_view(match.match_id)
        info = await self.info(match.match_id)
        assert table.current_player is not None, "nobody is to decide"
        mover = next(u for u in match.players if u.id == info.players[table.current_player])
        return mover, table.version, table.phase


class PrivacyCheck:
    """After every step, each new message is checked against who can see it: public ones
    show no hand, face-down card or hidden move's cards (:func:`assert_no_hidden_card_in_public`
    rules); a private one (an ephemeral or a DM) is seen by one player and shows only cards
    that player held at some point of the match. A DM panel may arrive a move late (it is
    sent in the background), hence "at some point" rather than "now"."""

    def __init__(self, emulator: DiscordEmulator, observer: Observer, match: Match) -> None:
        self.emulator, self.observer, self.match = emulator, observer, match
        self.seen = 0
        self.held: dict[int, set[str]] = {u.id: set() for u in match.players}

    async def check(self) -> None:
        now = await private_texts(self.observer, self.match.match_id)  # type: ignore[arg-type]
        for user_id, texts in now.items():
            self.held[user_id] |= texts
        entries = list(self.emulator.transcript)[self.seen :]
        self.seen += len(entries)
        transcript = self.emulator.transcript
        for entry in entries:
            text = entry.text()
            names = {a.filename for a in entry.attachments}
            if entry.visibility.scope is Scope.PUBLIC:
                _public_text_is_clean(text, str(entry))
                assert names <= {"board.png"}, f"a public message has {names}: {entry}"
                continue
            readers = [u.id for u in self.match.players if transcript.can_see(u.id, entry)]
            assert len(readers) == 1, f"a private message is visible to {readers}: {entry}"
            assert names <= {"hand.png"}, f"a private panel has {names}: {entry}"
            for line in HAND_LINE.findall(text) + FACE_DOWN_LINE.findall(text):
                assert line in self.held[readers[0]], f"{readers[0]} sees others' cards: {line}"


def verb_of(custom_id: str | None) -> str:
    """``hk:<match>:<version>:<verb>[:<arg>]`` -> verb."""
    parts = (custom_id or "").split(":")
    return parts[3] if len(parts) > 3 else ""


def version_of(custom_id: str | None) -> int:
    parts = (custom_id or "").split(":")
    return int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else -1


def live_dm_panel(user: EmulatedUser, match_id: int, version: int) -> MessageSnapshot | None:
    """The user's DM panel of the match for this version: one with action or Take buttons."""
    for message in reversed(user.dms()):
        for button in message.buttons():
            cid = button.custom_id or ""
            if (
                cid.startswith(f"hk:{match_id}:{version}:")
                and verb_of(cid) in ("act", "take")
                and not button.disabled
            ):
                return message
    return None


async def play_by_dm(
    emulator: DiscordEmulator,
    observer: Observer,
    match: Match,
    rng: random.Random,
    *,
    action: str | None = None,
) -> list[int]:
    """Whoever must decide does so through the panel the bot sent them by DM (an action of
    their choice, else at random; or a Take), then waits until the move is shown. Returns the
    ids of the interactions it made."""
    mover, version, phase = await observer.whose_turn(match)
    panel = await eventually(
        lambda: live_dm_panel(mover, match.match_id, version),
        f"DM panel of {mover.name} for version {version}",
    )
    made: list[int] = []

    async def press(message: MessageSnapshot, custom_id: str) -> MessageSnapshot:
        interaction = await mover.click(message, custom_id)
        made.append(interaction.id)
        answer = await answered(interaction)
        assert answer is not None, f"no answer to {custom_id}"
        return answer

    def answers(since: int) -> list[str]:
        """What the panel said since then (it may be closed already: the turn moved on)."""
        entries = emulator.transcript.entries[since:]
        return [e.text() for e in entries if e.message_id == panel.id]

    mark = len(emulator.transcript)
    if phase is not Phase.ACTION:
        takes = [b.custom_id for b in panel.buttons() if verb_of(b.custom_id) == "take"]
        await press(panel, rng.choice(takes))
        assert any(c.startswith("✅ You took") for c in answers(mark)), answers(mark)
    else:
        actions = [b.custom_id for b in panel.buttons() if verb_of(b.custom_id) == "act"]
        chosen = next((a for a in actions if a.endswith(f":act:{action}")), None)
        panel = await press(panel, chosen or rng.choice(actions))
        select = panel.select()
        picked = rng.sample([o.value for o in select.options], select.min_values)
        interaction = await mover.select(panel, picked)
        made.append(interaction.id)
        panel = await answered(interaction)
        assert panel is not None
        confirms = [b.custom_id for b in panel.buttons() if verb_of(b.custom_id) == "do"]
        mark = len(emulator.transcript)
        await press(panel, rng.choice(confirms))
        # The move confirmed in words with its notation beside it: "✅ Gift: C D E (3CDE)".
        confirmed = re.compile(r"✅ [^:\n]+: [A-G |]+ \([1-4][A-G]{1,4}\)")
        assert any(confirmed.match(c) for c in answers(mark)), answers(mark)
    # Stored once: the version moved on by exactly this decision.
    assert (await observer.info(match.match_id)).version == version + 1
    await observer.shown(emulator, f"move at version {version} shown")
    return made


async def _moved_on(observer: Observer, match_id: int, version: int) -> bool:
    return (await observer.info(match_id)).version > version


async def play_in_thread(
    emulator: DiscordEmulator, observer: Observer, match: Match, rng: random.Random
) -> None:
    """Whoever must decide does so from the board in the match's thread (the board's Hand
    button, an action, cards, Confirm; or a Take on the board), then waits until it is
    shown."""
    mover, version, phase = await observer.whose_turn(match)
    said = labels("en")
    if phase is not Phase.ACTION:
        offer = offer_message(mover, match.thread_id)
        takes = [b.label for b in offer.buttons() if (b.label or "").startswith(said["take"])]
        done = await answered(await mover.click(offer, rng.choice(takes)))
        # The answer is the board showing the move (edited through the press, or by the
        # process that shows the match), or the private note if that board was replaced.
        assert done is not None, "the Take was answered"
        assert f"**{mover.name}** took" in done.text() or "✅ You took" in done.text(), done.text()
    else:
        board = board_message(mover, match.thread_id)
        panel = await answered(await mover.click(board, said["hand"]))
        assert panel is not None and panel.ephemeral
        actions = [b.custom_id for b in panel.buttons() if verb_of(b.custom_id) == "act"]
        panel = await answered(await mover.click(panel, rng.choice(actions)))
        assert panel is not None
        select = panel.select()
        picked = rng.sample([o.value for o in select.options], select.min_values)
        panel = await answered(await mover.select(panel, picked))
        assert panel is not None
        confirms = [b.custom_id for b in panel.buttons() if verb_of(b.custom_id) == "do"]
        done = await answered(await mover.click(panel, rng.choice(confirms)))
        assert done is not None and done.text().startswith("✅"), done.text()
    await eventually(
        lambda: _moved_on(observer, match.match_id, version), f"version past {version}"
    )
    await observer.shown(emulator, f"move at version {version} shown")


def assert_no_hidden_card_in_public(emulator: DiscordEmulator) -> None:
    """Nothing public (messages and their edits, embeds, buttons, file names; and the alt
    text of every public picture) ever showed a hand, a face-down card or a hidden move's
    cards."""
    checked = 0
    for entry in emulator.transcript:
        if entry.visibility.scope is not Scope.PUBLIC:
            continue
        checked += 1
        _public_text_is_clean(entry.text(), str(entry))
        names = {a.filename for a in entry.attachments}
        assert names <= {"board.png"}, f"a public message has {names}: {entry}"
    assert checked, "nothing public was shown at all"
    world = emulator.world
    for message in world.messages.values():
        channel = world.channels.get(message.channel_id)
        if channel is None or channel.is_bot_dm or message.ephemeral_to is not None:
            continue
        for attachment in message.attachments:
            alt = attachment.description or ""
            _public_text_is_clean(alt, f"alt text of {message.id}", markdown=False)
            assert not HIDDEN_CARDS_IN_WORDS.search(alt), f"alt text of {message.id}: {alt}"


HIDDEN_CARDS_IN_WORDS = re.compile(r"(?:Secret|Trade-off)[\s:(]*[A-G]{1,2}\b")
"""A hidden move followed by cards, as plain text (a picture's alt text) would show it."""


def _public_text_is_clean(text: str, where: str, *, markdown: bool = True) -> None:
    lines = HAND_LINE.findall(text) + FACE_DOWN_LINE.findall(text)
    assert not lines, f"a public message shows a hand: {where}"
    assert "Your hand" not in text, f"private words in {where}"
    if not markdown:
        return
    for line in text.splitlines():
        if line.startswith("[image] "):
            continue  # the picture's alt text, drawn from the public view (tests/bot/pictures)
        if " used Secret" in line or " used Trade-off" in line:
            assert HIDDEN_MOVE_LINE.search(line), f"a hidden move shows cards: {line} ({where})"

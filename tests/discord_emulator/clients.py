"""Pointing discord.py at the emulator, and running a client against it in a test.

discord.py reads two class attributes, so the same bot code reaches Discord or the
emulator depending only on configuration:

- REST: `discord.http.Route.BASE` (default `https://discord.com/api/v10`). The webhook
  adapter used for interaction callbacks and followups builds the same `Route`s.
- Gateway: `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`, a `yarl.URL` (default
  `wss://gateway.discord.gg/`). Resumes go to READY's `resume_gateway_url`, which the
  emulator also serves.

A bot with `[discord] api_base` and `gateway_url` settings calls
`point_discord_py_at(api_base, gateway_url)` (or sets the two attributes itself) before
logging in; `DiscordEmulator.bot_config()` returns the values to put in its config.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Iterator

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.discord_emulator.gateway import IDENTIFY_INTERVAL
from tests.discord_emulator.server import DiscordEmulator

# How long discord.py waits for more GUILD_CREATEs before on_ready (2 s by default). The
# emulator sends its one guild right after READY, so a short wait loses nothing.
FAST_GUILD_READY_TIMEOUT = 0.05
READY_GUARD_SECONDS = 60.0
"""Only a client that will never be ready waits this long (a busy machine starts slowly)."""

# discord.py runs each interaction's handler as a task named after what it dispatches
# (app_commands/tree.py, ui/view.py, ui/modal.py).
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord-ui-dynamic-item-",
)


async def handlers_done(seconds: float) -> bool:
    """Wait until the interaction handlers running in this process have returned; whether
    there were any. After a defer a handler may work in silence (a database, a worker
    process) before its followup, longer than `DiscordEmulator.idle`'s quiet period on a
    busy machine."""
    running = [
        task
        for task in asyncio.all_tasks()
        if task is not asyncio.current_task() and task.get_name().startswith(HANDLER_TASKS)
    ]
    if not running:
        return False
    _, pending = await asyncio.wait(running, timeout=seconds)
    if pending:
        names = ", ".join(sorted(task.get_name() for task in pending))
        raise TimeoutError(f"interaction handlers still running after {seconds:g} s: {names}")
    return True


def point_discord_py_at(api_base: str, gateway_url: str) -> None:
    """Make every discord.py client in this process talk to these endpoints."""
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@contextlib.contextmanager
def discord_py_pointed_at(emulator: DiscordEmulator) -> Iterator[None]:
    """Point discord.py at the emulator for the duration, then restore Discord's endpoints."""
    saved_base, saved_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_py_at(emulator.api_base, emulator.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved_base, saved_gateway


@dataclasses.dataclass
class RunningClient:
    client: discord.Client
    task: asyncio.Task[None]

    async def stop(self) -> None:
        """Close the client the way a bot shutting down does (the Gateway session ends)."""
        if not self.client.is_closed():
            await self.client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


async def start_client(
    emulator: DiscordEmulator,
    client: discord.Client,
    *,
    ready_timeout: float = READY_GUARD_SECONDS,
) -> RunningClient:
    """Log `client` in to the emulator and return once `on_ready` has fired."""
    if emulator.gateway.session_starts:
        # A client started after another comes no sooner than a process restarts: the
        # virtual clock skips Discord's 5 s between IDENTIFYs, which a new client, knowing
        # nothing of the last one's, would otherwise wait out for real after an op 9.
        emulator.advance(IDENTIFY_INTERVAL)
    # ConnectionState holds the guild-ready wait; the emulator needs no more than this.
    client._connection.guild_ready_timeout = FAST_GUILD_READY_TIMEOUT
    task = asyncio.create_task(client.start(emulator.bot_token), name="emulated discord client")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # re-raise why the client stopped
            raise RuntimeError("discord.py client stopped before it was ready")
        await client.close()
        raise TimeoutError(f"discord.py client not ready after {ready_timeout} s")
    running = RunningClient(client, task)
    emulator.client_shutdowns.append(running.stop)
    if handlers_done not in emulator.client_work:
        emulator.client_work.append(handlers_done)
    return running


@contextlib.asynccontextmanager
async def running_client(
    emulator: DiscordEmulator, client: discord.Client
) -> AsyncIterator[discord.Client]:
    running = await start_client(emulator, client)
    try:
        yield client
    finally:
        await running.stop()

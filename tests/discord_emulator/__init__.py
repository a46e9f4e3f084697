"""A local Discord (REST API + Gateway) that the unmodified discord.py client runs against.

Start with `fixtures.emulator` in tests, `clients.start_client` to run a bot, the
`EmulatedUser`s in `emulator.users` to act, and `emulator.transcript` to check what the
bot showed to whom. See README.md in this directory.
"""

from tests.discord_emulator.clients import (
    RunningClient,
    discord_py_pointed_at,
    point_discord_py_at,
    running_client,
    start_client,
)
from tests.discord_emulator.errors import Failure, ImpossibleUserAction
from tests.discord_emulator.interactions import CallbackType, EmulatedInteraction, InteractionFailed
from tests.discord_emulator.message_snapshot import MessageSnapshot, ModalSnapshot
from tests.discord_emulator.server import DiscordEmulator, EmulatedGuild
from tests.discord_emulator.transcript import Scope, Transcript, TranscriptEntry, Visibility
from tests.discord_emulator.users import EmulatedUser

__all__ = [
    "CallbackType",
    "DiscordEmulator",
    "EmulatedGuild",
    "EmulatedInteraction",
    "EmulatedUser",
    "Failure",
    "ImpossibleUserAction",
    "InteractionFailed",
    "MessageSnapshot",
    "ModalSnapshot",
    "RunningClient",
    "Scope",
    "Transcript",
    "TranscriptEntry",
    "Visibility",
    "discord_py_pointed_at",
    "point_discord_py_at",
    "running_client",
    "start_client",
]

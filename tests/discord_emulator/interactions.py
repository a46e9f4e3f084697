"""Interactions a user starts: their token, deadline and responses, and their Gateway payload."""

from __future__ import annotations

import asyncio
import enum
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tests.discord_emulator.errors import Failure
from tests.discord_emulator.message_snapshot import MessageSnapshot, ModalSnapshot
from tests.discord_emulator.payloads import channel_payload, member_payload, user_payload
from tests.discord_emulator.permissions import channel_permissions
from tests.discord_emulator.user_installs import (
    BOT_DM_APP_PERMISSIONS,
    app_permissions,
    context_of,
    forces_ephemeral,
    owners_where_the_bot_is,
)
from tests.discord_emulator.world import World

if TYPE_CHECKING:
    from tests.discord_emulator.clock import VirtualClock

FIRST_RESPONSE_DEADLINE = 3.0  # seconds, real time
TOKEN_LIFETIME = 15 * 60.0  # seconds, virtual time
# `app_permissions` in a DM with the app's bot user (interactions/receiving-and-responding).
DM_APP_PERMISSIONS = BOT_DM_APP_PERMISSIONS


class InteractionType(enum.IntEnum):
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    MODAL_SUBMIT = 5


class CallbackType(enum.IntEnum):
    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    MODAL = 9


class InteractionFailed(AssertionError):
    """The user saw "This interaction failed": no first response within 3 seconds."""


class EmulatedInteraction:
    """One interaction, from the user's click to the bot's last followup.

    Tests get it back from `EmulatedUser.slash/click/select/submit_modal` and await
    `first_response()`. `response_latency` is the real time from dispatch to the bot's
    first callback, which is what Discord's 3-second rule measures.
    """

    def __init__(
        self,
        *,
        world: World,
        clock: VirtualClock,
        kind: InteractionType,
        user_id: int,
        channel_id: int,
        source_message_id: int | None,
        data: dict[str, Any],
        description: str,
        deadline: float,
        on_failure: Callable[[Failure], None],
        owners: dict[str, str] | None = None,
        triggered_by: EmulatedInteraction | None = None,
    ) -> None:
        self.id = world.ids.next()
        self.token = "emulated." + secrets.token_urlsafe(48)
        self.kind = kind
        self.user_id = user_id
        self.channel_id = channel_id
        channel = world.channels[channel_id]
        self.guild_id = channel.guild_id
        self.source_message_id = source_message_id
        self.triggered_by = triggered_by
        """The interaction whose modal this submits."""
        self.context = context_of(channel)
        self.owners: dict[str, str] = (
            dict(owners) if owners is not None else self._inherited_owners(world)
        )
        """`authorizing_integration_owners`: a command's from its installs; a component's
        or a modal's those of the interaction whose message or modal it is on."""
        self.forced_ephemeral = forces_ephemeral(world, channel, user_id)
        """The app's new messages for this interaction become ephemeral (user_installs.py)."""
        self.data = data
        self.description = description
        self._world = world
        self._clock = clock
        self._on_failure = on_failure
        self.issued_at = clock.now()
        loop = asyncio.get_running_loop()
        self.dispatched_at = loop.time()
        self.deadline = deadline
        self.response_type: CallbackType | None = None
        self.response_latency: float | None = None
        self.failed = False
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.modal_data: dict[str, Any] | None = None
        self._settled = asyncio.Event()
        self.original_edited = asyncio.Event()
        """Set when the bot fills in or edits its answer (@original) after answering."""
        self.followed_up = asyncio.Event()
        """Set when the bot sends a followup that is a message of its own (not the one
        filling a "thinking..." in): e.g. a private refusal after a deferred update."""
        self._filled_in = asyncio.Event()
        self._filled_with: MessageSnapshot | None = None
        self._deadline_timer = loop.call_later(deadline, self._miss_deadline)

    def __repr__(self) -> str:
        return (
            f"<EmulatedInteraction {self.description} id={self.id} response={self.response_type!r}>"
        )

    def _inherited_owners(self, world: World) -> dict[str, str]:
        if self.triggered_by is not None:
            return dict(self.triggered_by.owners)
        source = world.messages.get(self.source_message_id or 0)
        if source is not None and source.interaction_metadata is not None:
            return dict(source.interaction_metadata["authorizing_integration_owners"])
        return owners_where_the_bot_is(world, world.channels[self.channel_id])

    # the emulator's side -----------------------------------------------------------

    def token_expired(self) -> bool:
        return self._clock.now() - self.issued_at > TOKEN_LIFETIME

    def too_late(self) -> bool:
        return self.failed or asyncio.get_running_loop().time() - self.dispatched_at > self.deadline

    def acknowledge(self, response_type: CallbackType) -> None:
        self.response_type = response_type
        self.response_latency = asyncio.get_running_loop().time() - self.dispatched_at
        self._deadline_timer.cancel()
        self._settled.set()

    def _miss_deadline(self) -> None:
        if self.response_type is not None:
            return
        self.failed = True
        self._settled.set()
        self._on_failure(
            Failure(
                f"{self.description}: no response within {self.deadline:g} s",
                detail="the user saw 'This interaction failed'",
            )
        )

    def cancel_deadline(self) -> None:
        self._deadline_timer.cancel()

    @property
    def in_flight(self) -> bool:
        """Unanswered, or deferred with the "thinking..." placeholder still showing."""
        if self.failed:
            return False
        if self.response_type is None:
            return True
        if self.response_type is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            original = self._world.messages.get(self.original_message_id or 0)
            return original is not None and original.loading and not original.deleted
        return False

    # the test's side ---------------------------------------------------------------

    async def first_response(self) -> CallbackType:
        """Wait for the bot's first callback; raise `InteractionFailed` if it came too late.

        Returns by the deadline at the latest, so it never hangs a test.
        """
        async with asyncio.timeout(self.deadline + 1.0):
            await self._settled.wait()
        if self.failed or self.response_type is None:
            raise InteractionFailed(
                f"{self.description}: the bot did not respond within {self.deadline:g} s"
            )
        return self.response_type

    async def answer(self, *, wait: float = 5.0) -> MessageSnapshot | None:
        """The bot's answer as the user ends up seeing it: after a defer, once the bot has
        filled it in (its @original edit), else straight after the first response. After
        a deferred update, or once a "thinking..." was deleted, the answer may instead be a
        message of its own (a followup, such as a private refusal): then that message."""
        kind = await self.first_response()
        deferred = (
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )
        if kind in deferred:
            async with asyncio.timeout(wait):
                await self._filled_in.wait()
            return self._filled_with
        return self.message

    def filled_in(self, message: MessageSnapshot) -> None:
        """The bot's answer after its defer (an @original edit, or a message of its own),
        as it read then: what `answer` returns (a later edit, by another path, does not
        change what the click was answered with)."""
        if not self._filled_in.is_set():
            self._filled_with = message
            self._filled_in.set()

    @property
    def message(self) -> MessageSnapshot | None:
        """The response message (@original) as it reads now, if there is one."""
        message = self._world.messages.get(self.original_message_id or 0)
        if message is None or message.deleted:
            return None
        return MessageSnapshot.of(message)

    @property
    def followups(self) -> list[MessageSnapshot]:
        found = [self._world.messages.get(mid) for mid in self.followup_ids]
        return [MessageSnapshot.of(m) for m in found if m is not None and not m.deleted]

    @property
    def modal(self) -> ModalSnapshot | None:
        if self.modal_data is None:
            return None
        return ModalSnapshot(
            custom_id=str(self.modal_data.get("custom_id")),
            title=str(self.modal_data.get("title")),
            components=tuple(self.modal_data.get("components") or ()),
        )


def message_interaction_metadata(
    world: World, interaction: EmulatedInteraction, *, original_response_message_id: int | None
) -> dict[str, Any]:
    """`interaction_metadata` of a message this interaction created ("Message Interaction
    Metadata Object", resources/message): `original_response_message_id` only on followups,
    `interacted_message_id` for components, `triggering_interaction_metadata` for modals."""
    metadata: dict[str, Any] = {
        "id": str(interaction.id),
        "type": int(interaction.kind),
        "user": user_payload(world.users[interaction.user_id]),
        "authorizing_integration_owners": dict(interaction.owners),
    }
    if original_response_message_id is not None:
        metadata["original_response_message_id"] = str(original_response_message_id)
    if interaction.kind is InteractionType.MESSAGE_COMPONENT:
        metadata["interacted_message_id"] = str(interaction.source_message_id)
    if interaction.kind is InteractionType.MODAL_SUBMIT and interaction.triggered_by is not None:
        metadata["triggering_interaction_metadata"] = message_interaction_metadata(
            world, interaction.triggered_by, original_response_message_id=None
        )
    return metadata


def interaction_payload(
    world: World, interaction: EmulatedInteraction, *, message: dict[str, Any] | None
) -> dict[str, Any]:
    """INTERACTION_CREATE as Discord sends it: `member` in guilds (with or without the bot),
    `user` in the bot's DMs and in private channels, no guild_id outside guilds; `context`,
    `authorizing_integration_owners` and `app_permissions` by installation context
    (user_installs.py)."""
    user = world.users[interaction.user_id]
    channel = world.channels[interaction.channel_id]
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(world.bot.id),
        "type": int(interaction.kind),
        "data": interaction.data,
        "token": interaction.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload(world, channel),
        "locale": user.locale,
        "app_permissions": str(app_permissions(world, channel, user.id)),
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "context": interaction.context,
        "authorizing_integration_owners": dict(interaction.owners),
    }
    if channel.guild_id is None:
        payload["user"] = user_payload(user)
    else:
        guild = world.guild_of(channel.guild_id)
        payload["guild_id"] = str(guild.id)
        guild_locale = guild.preferred_locale
        payload["guild"] = {"id": str(guild.id), "locale": guild_locale, "features": []}
        payload["guild_locale"] = guild_locale
        # Computed in the channel, overwrites included, implicit ones not.
        payload["member"] = member_payload(
            world,
            user,
            permissions=channel_permissions(world, user.id, channel),
            guild_id=guild.id,
        )
    if message is not None:
        payload["message"] = message
    return payload

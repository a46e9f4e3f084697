"""The test's hands: a human member who runs commands, clicks, picks and reads."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tests.discord_emulator.application_commands import (
    USER_INSTALL,
    CommandInvocation,
    OptionValue,
)
from tests.discord_emulator.errors import DiscordError, ImpossibleUserAction
from tests.discord_emulator.interactions import EmulatedInteraction, InteractionType
from tests.discord_emulator.layout_rules import walk
from tests.discord_emulator.message_snapshot import MessageSnapshot, ModalField
from tests.discord_emulator.payloads import member_payload, user_payload
from tests.discord_emulator.permissions import ALL, effective_permissions
from tests.discord_emulator.transcript import Action
from tests.discord_emulator.user_installs import context_of
from tests.discord_emulator.world import ChannelRecord, MessageRecord, UserRecord

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator

ChannelRef = ChannelRecord | int | None
MessageRef = MessageSnapshot | MessageRecord | int

USER_SELECT = 5


class EmulatedUser:
    """A member of the emulated guild, acting only through what Discord's client allows."""

    def __init__(self, emulator: DiscordEmulator, record: UserRecord) -> None:
        self._emulator = emulator
        self._world = emulator.world
        self.record = record
        self._submitted_modals: set[int] = set()

    def __repr__(self) -> str:
        return f"<EmulatedUser {self.name} id={self.id}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def name(self) -> str:
        return self.record.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def dm(self) -> ChannelRecord:
        """This user's DM channel with the bot."""
        return self._world.dm_channel_with(self.id)

    def close_dms(self) -> None:
        """From now on the bot cannot DM this user (403, code 50007)."""
        self.record.dms_open = False

    def open_dms(self) -> None:
        self.record.dms_open = True

    def grant(self, permissions: int) -> None:
        """Give this member extra permission bits (Manage Server is ``1 << 5``)."""
        self.record.granted_permissions |= permissions

    # where ----------------------------------------------------------------------------

    def _channel(self, channel: ChannelRef) -> ChannelRecord:
        found: ChannelRecord | None
        if channel is None:
            found = self._emulator.channel
        else:
            found = self._world.channels.get(channel if isinstance(channel, int) else channel.id)
        if found is None or not self._world.can_see_channel(self.id, found):
            raise ImpossibleUserAction(f"{self.name} cannot see channel {channel!r}")
        return found

    def _message(self, message: MessageRef) -> MessageRecord:
        message_id = message if isinstance(message, int) else message.id
        found = self._world.messages.get(message_id)
        if found is None or not self._world.can_see_message(self.id, found):
            raise ImpossibleUserAction(f"{self.name} cannot see message {message_id}")
        return found

    def _permissions_in(self, channel: ChannelRecord) -> int:
        if channel.guild_id is None:
            return ALL
        return effective_permissions(self._world, self.id, channel)

    async def _reopen_to_interact(self, channel_id: int) -> None:
        """Discord's client unarchives a thread (PATCH archived=false, as this user) before it
        sends a component interaction from it, and gives up if that fails
        (discord-api-docs issue 8474)."""
        channel = self._world.channel(channel_id)
        if not (channel.is_thread and channel.archived):
            return
        threads = self._emulator.thread_archive
        try:
            threads.check_edit(
                channel,
                {"archived": False},
                editor_id=self.id,
                permissions=self._permissions_in(channel),
            )
        except DiscordError as error:
            raise ImpossibleUserAction(
                f"{self.name} cannot unarchive thread {channel.id} to interact there: {error}"
            ) from None
        threads.set_archived(channel, archived=False)
        await threads.announce(threads.thread_update(channel))

    def _refuse_if_unreachable(self, record: MessageRecord) -> None:
        """A component reaches the app through the install the message came from: the bot's
        where it is, or the user install of the interaction that posted the message. "Message
        component interactions can be triggered by any user the component is visible to,
        regardless of the installation context" (tutorials/developing-a-user-installable-app),
        so the presser need not have installed the app."""
        channel = self._world.channel(record.channel_id)
        if self._world.bot_is_in(channel):
            return
        metadata = record.interaction_metadata or {}
        if str(USER_INSTALL) in (metadata.get("authorizing_integration_owners") or {}):
            return
        raise ImpossibleUserAction(
            f"the bot is not in channel {channel.id} (guild {channel.guild_id}), and message "
            f"{record.id} came from no user install: its components reach no app"
        )

    def _refuse_if_locked(self, channel_id: int) -> None:
        """Discord's client disables the components of messages in a locked thread, even
        for members with Manage Threads (discord-api-docs issues 6907 and 7900)."""
        channel = self._world.channel(channel_id)
        if channel.is_thread and channel.locked:
            raise ImpossibleUserAction(f"components are disabled in locked thread {channel.id}")

    # reading --------------------------------------------------------------------------

    def can_see(self, message: MessageRef) -> bool:
        message_id = message if isinstance(message, int) else message.id
        found = self._world.messages.get(message_id)
        return found is not None and self._world.can_see_message(self.id, found)

    def message(self, message: MessageRef) -> MessageSnapshot:
        """A message as it reads now; refused if this user cannot see it."""
        return MessageSnapshot.of(self._message(message))

    def messages(self, channel: ChannelRef = None) -> list[MessageSnapshot]:
        """What this user sees in a channel, oldest first, their own ephemerals included."""
        where = self._channel(channel)
        return [
            MessageSnapshot.of(m)
            for m in self._world.messages_in(where.id)
            if self._world.can_see_message(self.id, m)
        ]

    def last_message(self, channel: ChannelRef = None) -> MessageSnapshot:
        seen = self.messages(channel)
        if not seen:
            raise ImpossibleUserAction(f"{self.name} sees no message in channel {channel!r}")
        return seen[-1]

    def ephemerals(self) -> list[MessageSnapshot]:
        """Every live ephemeral message shown to this user, in any channel."""
        return [
            MessageSnapshot.of(m)
            for m in self._world.messages.values()
            if m.ephemeral_to == self.id and not m.deleted
        ]

    def dms(self) -> list[MessageSnapshot]:
        return self.messages(self.dm)

    def threads(self) -> list[ChannelRecord]:
        return [t for t in self._world.threads() if self._world.can_see_channel(self.id, t)]

    # acting ---------------------------------------------------------------------------

    async def slash(
        self, command: str, /, *, channel: ChannelRef = None, **options: OptionValue
    ) -> EmulatedInteraction:
        """Run `/command [group] [subcommand]` with options.

        For example `await ana.slash("hanamikoji challenge", opponent=ben)`.
        """
        where = self._channel(channel)
        if where.is_thread and where.archived:
            # "Users cannot ... use application commands ... in archived threads" (topics/
            # threads); the client does not offer them there (discord-api-docs issue 3475).
            raise ImpossibleUserAction(f"no application commands in archived thread {where.id}")
        words = command.removeprefix("/").split()
        guild_id = where.guild_id
        synced = self._offered(words[0], where)
        owners = self._emulator.commands.owners_for(
            synced,
            context=context_of(where),
            guild_id=guild_id,
            bot_present=self._world.bot_is_in(where),
            user_id=self.id,
        )
        invocation = CommandInvocation(self._world, guild_id=guild_id)
        data = invocation.data(synced, words[1:], options)
        shown = " ".join(f"{k}:{v!r}" for k, v in options.items())
        return await self._emulator.start_interaction(
            kind=InteractionType.APPLICATION_COMMAND,
            user_id=self.id,
            channel_id=where.id,
            data=data,
            description=f"/{' '.join(words)} {shown}".rstrip() + f" by {self.name}",
            owners=owners,
        )

    def _offered(self, name: str, where: ChannelRecord) -> dict[str, Any]:
        """The command `/name` as this user's client lists it in `where`: through the bot's
        install where the bot is, through this user's own install elsewhere (a server
        without the bot, a DM between users, a group DM); else `ImpossibleUserAction`."""
        return self._emulator.commands.find(
            name,
            guild_id=where.guild_id,
            user_id=self.id,
            context=context_of(where),
            bot_present=self._world.bot_is_in(where),
        )

    def offered_commands(self, channel: ChannelRef = None) -> list[str]:
        """The names of the commands this user's client lists in a channel."""
        where = self._channel(channel)
        commands = self._emulator.commands
        names = [*commands.global_commands, *commands.guild_commands.get(where.guild_id or 0, {})]
        offered = []
        for name in dict.fromkeys(names):
            try:
                self._offered(name, where)
            except ImpossibleUserAction:
                continue
            offered.append(name)
        return offered

    def install_app(self) -> None:
        """Add the bot's app to this account (a user install, "Installation Context",
        resources/application), as anyone may when the app allows it."""
        self._emulator.commands.user_installs.add(self.id)

    def commands_offered_in_a_server_without_the_bot(self) -> list[str]:
        """The bot's commands this user's client lists in a server the bot is not in."""
        return self._emulator.commands.offered_where_the_bot_is_not(self.id)

    async def click(self, message: MessageRef, button: str) -> EmulatedInteraction:
        """Click the button with this label (or custom_id) on a message this user sees."""
        record = self._message(message)
        found = MessageSnapshot.of(record).button(button)
        if found.disabled:
            raise ImpossibleUserAction(f"button {button!r} on message {record.id} is disabled")
        if found.custom_id is None:
            raise ImpossibleUserAction(f"button {button!r} is a link; clicking it reaches no bot")
        self._refuse_if_unreachable(record)
        await self._reopen_to_interact(record.channel_id)
        self._refuse_if_locked(record.channel_id)
        return await self._emulator.start_interaction(
            kind=InteractionType.MESSAGE_COMPONENT,
            user_id=self.id,
            channel_id=record.channel_id,
            source_message_id=record.id,
            data={"custom_id": found.custom_id, "component_type": 2},
            description=f"click on {button!r} by {self.name}",
        )

    async def forged_click(
        self, message: MessageRef, button: str, custom_id: str
    ) -> EmulatedInteraction:
        """A tampered client's click on the button with this label (or custom_id), claiming
        `custom_id` instead of the button's own, in the interaction and in the message it
        carries (as an old message from an earlier bot, or a garbled one, would)."""
        record = self._message(message)
        found = MessageSnapshot.of(record).button(button)
        payload = copy.deepcopy(self._emulator.writer.payload(record))
        for component in walk(payload.get("components") or []):  # V2 layouts nest rows
            if component.get("custom_id") == found.custom_id:
                component["custom_id"] = custom_id
        await self._reopen_to_interact(record.channel_id)
        return await self._emulator.start_interaction(
            kind=InteractionType.MESSAGE_COMPONENT,
            user_id=self.id,
            channel_id=record.channel_id,
            source_message_id=record.id,
            data={"custom_id": custom_id, "component_type": 2},
            description=f"forged click {custom_id!r} on {button!r} by {self.name}",
            message_payload=payload,
        )

    async def select(
        self, message: MessageRef, values: Sequence[str | int], *, select: str | None = None
    ) -> EmulatedInteraction:
        """Pick `values` in a message's select (by placeholder or custom_id, or its only one)."""
        record = self._message(message)
        found = MessageSnapshot.of(record).select(select)
        if found.disabled:
            raise ImpossibleUserAction(f"select {found.custom_id!r} is disabled")
        picked = [str(v) for v in values]
        if not found.min_values <= len(picked) <= found.max_values:
            raise ImpossibleUserAction(
                f"select {found.custom_id!r} takes {found.min_values}-{found.max_values} "
                f"values, not {len(picked)}"
            )
        data: dict[str, Any] = {
            "custom_id": found.custom_id,
            "component_type": found.type,
            "values": picked,
        }
        if found.type == USER_SELECT:
            data["resolved"] = self._resolved_users(picked, guild_id=record.guild_id)
        else:
            allowed = {o.value for o in found.options}
            wrong = [v for v in picked if v not in allowed]
            if wrong:
                raise ImpossibleUserAction(f"select {found.custom_id!r} has no option(s) {wrong}")
        self._refuse_if_unreachable(record)
        await self._reopen_to_interact(record.channel_id)
        self._refuse_if_locked(record.channel_id)
        return await self._emulator.start_interaction(
            kind=InteractionType.MESSAGE_COMPONENT,
            user_id=self.id,
            channel_id=record.channel_id,
            source_message_id=record.id,
            data=data,
            description=f"select {picked} in {found.custom_id!r} by {self.name}",
        )

    def _resolved_users(self, ids: Sequence[str], *, guild_id: int | None) -> dict[str, Any]:
        resolved: dict[str, Any] = {"users": {}}
        for raw in ids:
            user = self._world.users.get(int(raw))
            if user is None:
                raise ImpossibleUserAction(f"no user {raw} to pick")
            resolved["users"][raw] = user_payload(user)
            if guild_id is not None and self._world.is_member(user.id, guild_id):
                resolved.setdefault("members", {})[raw] = member_payload(
                    self._world, user, with_user=False, guild_id=guild_id
                )
        return resolved

    async def submit_modal(
        self, opened_by: EmulatedInteraction, values: Mapping[str, str | Sequence[str]]
    ) -> EmulatedInteraction:
        """Fill in and submit the modal the bot showed in answer to `opened_by`.

        `values` maps a field's label (what the user reads) or custom_id to its answer.
        """
        modal = opened_by.modal
        if opened_by.user_id != self.id or modal is None:
            raise ImpossibleUserAction(
                f"{self.name} has no modal open from {opened_by.description}"
            )
        if opened_by.id in self._submitted_modals:
            raise ImpossibleUserAction(f"the modal {modal.title!r} was already submitted")
        fields = {f.custom_id: f for f in modal.fields()}
        by_key = {f.label: f.custom_id for f in fields.values() if f.label} | {c: c for c in fields}
        unknown = sorted(set(values) - set(by_key))
        if unknown:
            raise ImpossibleUserAction(f"modal {modal.title!r} has no field(s) {unknown}")
        given = {by_key[key]: value for key, value in values.items()}
        answers = {cid: self._modal_answer(field, given.get(cid)) for cid, field in fields.items()}
        await self._reopen_to_interact(opened_by.channel_id)
        self._submitted_modals.add(opened_by.id)
        return await self._emulator.start_interaction(
            kind=InteractionType.MODAL_SUBMIT,
            user_id=self.id,
            channel_id=opened_by.channel_id,
            source_message_id=opened_by.source_message_id,
            data={
                "custom_id": modal.custom_id,
                "components": _submitted(list(modal.components), answers),
            },
            description=f"modal {modal.title!r} submitted by {self.name}",
            triggered_by=opened_by,
        )

    def _modal_answer(self, field: ModalField, given: str | Sequence[str] | None) -> dict[str, Any]:
        if field.type == 4:
            text = given if isinstance(given, str) else (field.value or "")
            if field.required and not text:
                raise ImpossibleUserAction(f"modal field {field.custom_id!r} is required")
            return {"type": 4, "custom_id": field.custom_id, "value": text}
        picked = [given] if isinstance(given, str) else list(given or [])
        if field.options and any(v not in field.options for v in picked):
            raise ImpossibleUserAction(
                f"modal select {field.custom_id!r} has no option(s) {picked}"
            )
        return {"type": field.type, "custom_id": field.custom_id, "values": picked}

    async def say(self, content: str, *, channel: ChannelRef = None) -> MessageSnapshot:
        """Post an ordinary message, which the bot receives as MESSAGE_CREATE."""
        where = self._channel(channel)
        try:
            # A message unarchives its thread, unless the thread is locked.
            await self._emulator.thread_archive.reopen_for_message(
                where, self._permissions_in(where)
            )
        except DiscordError as error:
            raise ImpossibleUserAction(f"{self.name} cannot post in {where.id}: {error}") from None
        message = MessageRecord(
            id=self._world.ids.next(),
            channel_id=where.id,
            guild_id=where.guild_id,
            author_id=self.id,
            created_at=self._world.clock.iso_now(),
            content=content,
        )
        await self._emulator.writer.publish_create(message, Action.MESSAGE_CREATE)
        return MessageSnapshot.of(message)


def _submitted(
    components: list[dict[str, Any]], answers: Mapping[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The modal's layout as Discord submits it: same rows and labels, with the answers."""
    submitted: list[dict[str, Any]] = []
    for top in components:
        if top.get("type") == 1:
            inner = [
                answers[c["custom_id"]]
                for c in top.get("components") or []
                if c.get("custom_id") in answers
            ]
            submitted.append({"type": 1, "components": inner})
        elif top.get("type") == 18 and (top.get("component") or {}).get("custom_id") in answers:
            submitted.append({"type": 18, "component": answers[top["component"]["custom_id"]]})
    return submitted

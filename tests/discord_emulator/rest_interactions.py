"""Interaction callbacks and the interaction webhook: followups, @original, message edits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_emulator.errors import (
    DiscordError,
    already_acknowledged,
    invalid_form_body,
    invalid_webhook_token,
    too_many_followups,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)
from tests.discord_emulator.http_responses import json_response, no_content
from tests.discord_emulator.interactions import (
    CallbackType,
    EmulatedInteraction,
    InteractionType,
    message_interaction_metadata,
)
from tests.discord_emulator.limits import MESSAGE_FLAG_EPHEMERAL, check_modal
from tests.discord_emulator.message_bodies import MessageBody, read_message_body
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.message_writes import CREATABLE_FLAGS, LOADING_FLAG
from tests.discord_emulator.permissions import bot_permissions_in
from tests.discord_emulator.thread_archive import refuse_deletion_if_locked, refuse_if_archived
from tests.discord_emulator.transcript import Action
from tests.discord_emulator.user_installs import (
    MAX_FOLLOWUPS_FOR_A_USER_INSTALL,
    only_user_install,
)
from tests.discord_emulator.world import MessageRecord

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator

RESPONSE_FLAGS = CREATABLE_FLAGS | MESSAGE_FLAG_EPHEMERAL
CHAT_INPUT_COMMAND_MESSAGE = 20


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true")


class InteractionRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._world = emulator.world
        self._writer = emulator.writer
        self._threads = emulator.thread_archive

    def add_to(self, app: web.Application, api: str) -> None:
        app.router.add_post(api + "/interactions/{interaction_id}/{token}/callback", self.callback)
        hook = api + "/webhooks/{application_id}/{token}"
        app.router.add_post(hook, self.followup)
        app.router.add_get(hook + "/messages/{message_id}", self.get_message)
        app.router.add_patch(hook + "/messages/{message_id}", self.edit_message)
        app.router.add_delete(hook + "/messages/{message_id}", self.delete_message)

    # callbacks ---------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        interaction = self._emulator.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise unknown_interaction()
        if interaction.response_type is not None:
            raise already_acknowledged()
        if interaction.too_late() or interaction.token_expired():
            raise unknown_interaction()
        body = await read_message_body(request)
        try:
            kind = CallbackType(int(body.payload.get("type", 0)))
        except ValueError:
            raise self._bad_type(body.payload.get("type")) from None
        data = dict(body.payload.get("data") or {})
        handlers = {
            CallbackType.CHANNEL_MESSAGE_WITH_SOURCE: self._reply,
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: self._defer,
            CallbackType.DEFERRED_UPDATE_MESSAGE: self._defer_update,
            CallbackType.UPDATE_MESSAGE: self._update,
            CallbackType.MODAL: self._modal,
        }
        message = await handlers[kind](interaction, MessageBody(data, body.files))
        if not _truthy(request.query.get("with_response")):
            return no_content()
        return json_response(self._callback_response(interaction, kind, message))

    def _bad_type(self, kind: Any) -> DiscordError:
        return invalid_form_body(
            {
                "type": {
                    "_errors": [
                        {
                            "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                            "message": f"Invalid type {kind!r}",
                        }
                    ]
                }
            }
        )

    def _callback_response(
        self, interaction: EmulatedInteraction, kind: CallbackType, message: MessageRecord | None
    ) -> dict[str, Any]:
        summary: dict[str, Any] = {"id": str(interaction.id), "type": int(interaction.kind)}
        resource: dict[str, Any] = {"type": int(kind)}
        if message is not None:
            summary["response_message_id"] = str(message.id)
            summary["response_message_loading"] = message.loading
            summary["response_message_ephemeral"] = bool(message.flags & MESSAGE_FLAG_EPHEMERAL)
            if kind is not CallbackType.DEFERRED_UPDATE_MESSAGE:
                resource["message"] = self._writer.payload(message)
        return {"interaction": summary, "resource": resource}

    def _new_response_message(
        self,
        interaction: EmulatedInteraction,
        body: MessageBody,
        *,
        loading: bool,
        followup: bool = False,
    ) -> MessageRecord:
        """A callback's message (its body is the callback's `data`) or a followup's (the
        body itself, as for Execute Webhook: errors name its fields at the top). Where a
        user install may not answer in public, it is ephemeral whatever the bot asked."""
        error_prefix: tuple[str | int, ...] = () if followup else ("data",)
        if interaction.forced_ephemeral:
            flags = int(body.payload.get("flags") or 0) | MESSAGE_FLAG_EPHEMERAL
            body = MessageBody({**body.payload, "flags": flags}, body.files)
        channel = self._world.channel(interaction.channel_id)
        is_command = interaction.kind is InteractionType.APPLICATION_COMMAND
        message_type = CHAT_INPUT_COMMAND_MESSAGE if is_command else 0
        if loading:
            message = MessageRecord(
                id=self._world.ids.next(),
                channel_id=channel.id,
                guild_id=channel.guild_id,
                author_id=self._world.bot.id,
                created_at=self._world.clock.iso_now(),
                type=message_type,
                flags=LOADING_FLAG | (int(body.payload.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL),
                loading=True,
            )
        else:
            message = self._writer.build(
                body,
                channel=channel,
                author_id=self._world.bot.id,
                allowed_flags=RESPONSE_FLAGS,
                error_prefix=error_prefix,
                message_type=message_type,
            )
        message.webhook_id = self._world.bot.id
        message.interaction_id = interaction.id
        message.interaction_metadata = message_interaction_metadata(
            self._world,
            interaction,
            original_response_message_id=interaction.original_message_id if followup else None,
        )
        if message.flags & MESSAGE_FLAG_EPHEMERAL:
            message.ephemeral_to = interaction.user_id
        return message

    async def _reopen(self, channel_id: int) -> None:
        """A response or followup is a new message: like a webhook's, it unarchives its thread
        (resources/webhook, `thread_id`). It needs no permission, but a lock still holds."""
        channel = self._world.channel(channel_id)
        await self._threads.reopen_for_message(channel, bot_permissions_in(self._world, channel))

    async def _reply(self, interaction: EmulatedInteraction, body: MessageBody) -> MessageRecord:
        message = self._new_response_message(interaction, body, loading=False)
        await self._reopen(message.channel_id)
        interaction.acknowledge(CallbackType.CHANNEL_MESSAGE_WITH_SOURCE)
        interaction.original_message_id = message.id
        await self._writer.publish_create(message, Action.INTERACTION_RESPONSE, response_type=4)
        return message

    async def _defer(self, interaction: EmulatedInteraction, body: MessageBody) -> MessageRecord:
        message = self._new_response_message(interaction, body, loading=True)
        await self._reopen(message.channel_id)
        interaction.acknowledge(CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE)
        interaction.original_message_id = message.id
        await self._writer.publish_create(message, Action.INTERACTION_RESPONSE, response_type=5)
        return message

    def _source_message(
        self, interaction: EmulatedInteraction, kind: CallbackType
    ) -> MessageRecord:
        if interaction.source_message_id is None:
            raise self._bad_type(int(kind))  # only interactions on a message can update it
        return self._world.message(interaction.source_message_id)

    async def _defer_update(
        self, interaction: EmulatedInteraction, body: MessageBody
    ) -> MessageRecord:
        # DEFERRED_UPDATE_MESSAGE (6): "for components, ACK an interaction and edit the
        # original message later; the user does not see a loading state"
        # (interactions/receiving-and-responding, "Interaction Callback Type"). The original
        # is the message the component is on, so `@original` edits it through the
        # interaction webhook, which is not bound to the global rate limit (rate_limits.py).
        # What the user sees as the answer is that message changed, by whichever path.
        message = self._source_message(interaction, CallbackType.DEFERRED_UPDATE_MESSAGE)
        interaction.acknowledge(CallbackType.DEFERRED_UPDATE_MESSAGE)
        interaction.original_message_id = message.id
        self._emulator.deferred_updates.setdefault(message.id, []).append(interaction)
        return message

    async def _update(self, interaction: EmulatedInteraction, body: MessageBody) -> MessageRecord:
        message = self._source_message(interaction, CallbackType.UPDATE_MESSAGE)
        refuse_if_archived(self._world.channel(message.channel_id))
        self._writer.apply_edit(message, body, error_prefix=("data",))
        interaction.acknowledge(CallbackType.UPDATE_MESSAGE)
        interaction.original_message_id = message.id
        await self._writer.publish_update(message, Action.INTERACTION_RESPONSE, response_type=7)
        return message

    async def _modal(self, interaction: EmulatedInteraction, body: MessageBody) -> None:
        if interaction.kind is InteractionType.MODAL_SUBMIT:
            raise self._bad_type(int(CallbackType.MODAL))  # a modal cannot answer a modal
        check_modal(body.payload, prefix=("data",))
        interaction.acknowledge(CallbackType.MODAL)
        interaction.modal_data = body.payload
        self._emulator.transcript.record_modal(
            interaction_id=interaction.id,
            user_id=interaction.user_id,
            channel_id=interaction.channel_id,
            data=body.payload,
        )

    # the interaction webhook ---------------------------------------------------------

    def _webhook_interaction(self, request: web.Request) -> EmulatedInteraction:
        if request.match_info["application_id"] != str(self._world.bot.id):
            raise unknown_webhook()
        interaction = self._emulator.interactions_by_token.get(request.match_info["token"])
        if interaction is None:
            raise unknown_webhook()
        if interaction.token_expired():
            raise invalid_webhook_token()
        if interaction.response_type is None:
            raise unknown_webhook()  # the webhook exists only once the interaction is acknowledged
        return interaction

    def _webhook_message(self, interaction: EmulatedInteraction, message_ref: str) -> MessageRecord:
        if message_ref == "@original":
            if interaction.original_message_id is None:
                raise unknown_message()
            return self._world.message(interaction.original_message_id)
        message = self._world.message(int(message_ref))
        own = {
            interaction.original_message_id,
            interaction.source_message_id,
            *interaction.followup_ids,
        }
        same_app_public = (
            message.webhook_id == self._world.bot.id
            and message.ephemeral_to is None
            and message.channel_id == interaction.channel_id
        )
        # An ephemeral can only be reached through a token of an interaction on it.
        if message.id not in own and not same_app_public:
            raise unknown_message()
        return message

    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        body = await read_message_body(request)
        original = self._world.messages.get(interaction.original_message_id or 0)
        await self._reopen(interaction.channel_id)
        if original is not None and original.loading and not original.deleted:
            # Discord fills the "thinking..." placeholder with the first followup, which
            # therefore keeps the deferral's visibility whatever flags it asks for.
            self._writer.apply_edit(original, body)
            filled = MessageSnapshot.of(original)
            payload = await self._writer.publish_update(original, Action.FOLLOWUP)
            interaction.original_edited.set()
            interaction.filled_in(filled)
        else:
            self._count_followup(interaction)
            message = self._new_response_message(interaction, body, loading=False, followup=True)
            message.type = 0
            interaction.followup_ids.append(message.id)
            filled = MessageSnapshot.of(message)
            payload = await self._writer.publish_create(message, Action.FOLLOWUP)
            interaction.followed_up.set()
            interaction.filled_in(filled)
        return json_response(payload) if _truthy(request.query.get("wait")) else no_content()

    @staticmethod
    def _count_followup(interaction: EmulatedInteraction) -> None:
        """At most 5 followup messages for an interaction whose owners hold USER_INSTALL
        alone ("Create Followup Message"), refused with 40094. Only messages created count:
        the followup that fills a "thinking..." placeholder creates none ("no new message
        will be created, and the loading message will be edited instead", same section);
        deleting a followup gives no slot back [emulator's choice, the docs are silent]."""
        created = len(interaction.followup_ids)
        if only_user_install(interaction.owners) and created >= MAX_FOLLOWUPS_FOR_A_USER_INSTALL:
            raise too_many_followups()

    async def get_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        return json_response(self._writer.payload(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        ref = request.match_info["message_id"]
        message = self._webhook_message(interaction, ref)
        # Strict where the docs are silent: an archived thread's messages are not edited,
        # through a webhook either ("Archived threads are generally immutable").
        refuse_if_archived(self._world.channel(message.channel_id))
        body = await read_message_body(request)
        self._writer.apply_edit(message, body)
        filled = MessageSnapshot.of(message)
        action = Action.ORIGINAL_EDIT if ref == "@original" else Action.WEBHOOK_EDIT
        payload = await self._writer.publish_update(message, action)
        if ref == "@original":
            interaction.original_edited.set()
            interaction.filled_in(filled)
        return json_response(payload)

    async def delete_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        channel = self._world.channel(message.channel_id)
        refuse_deletion_if_locked(channel, bot_permissions_in(self._world, channel))
        await self._writer.publish_delete(message, Action.MESSAGE_DELETE)
        return no_content()

"""What the emulated Discord knows: users, the guild, channels, threads and messages."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from tests.discord_emulator.clock import VirtualClock
from tests.discord_emulator.errors import unknown_channel, unknown_message
from tests.discord_emulator.permissions import BOT_PERMISSIONS, EVERYONE_PERMISSIONS, Overwrite
from tests.discord_emulator.snowflakes import SnowflakeFactory


class ChannelType(enum.IntEnum):
    GUILD_TEXT = 0
    DM = 1
    GROUP_DM = 3
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


THREAD_TYPES = frozenset({ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD})
# "Maximum number of active threads" per guild (topics/threads), 1000 without boosts.
MAX_ACTIVE_THREADS = 1000


@dataclasses.dataclass
class UserRecord:
    id: int
    username: str
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None
    granted_permissions: int = 0
    """Permission bits on top of @everyone's, as a role would give (e.g. Manage Server)."""
    locale: str = "en-US"
    """The language of this user's Discord client, sent as `locale` on interactions."""
    nick: str | None = None
    """The member's nickname in the guild (Discord tells a bot without the members intent
    of a change only through interactions and member fetches)."""


@dataclasses.dataclass
class ChannelRecord:
    id: int
    type: ChannelType
    name: str | None
    guild_id: int | None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None  # the human in a DM with the bot
    recipient_ids: list[int] = dataclasses.field(default_factory=list)
    """The humans of a private channel (a DM between two users, or a group DM), which the
    bot is never in ("PRIVATE_CHANNEL", interactions/receiving-and-responding)."""
    thread_member_ids: set[int] = dataclasses.field(default_factory=set)
    created_at: str = ""
    last_message_id: int | None = None
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    message_count: int = 0
    permission_overwrites: dict[int, Overwrite] = dataclasses.field(default_factory=dict)
    """A guild channel's overwrites by role or member id; threads use their parent's."""
    archive_timestamp: str = ""
    """When the thread was created, archived or unarchived, or its duration changed."""
    last_activity: float = 0.0
    """Virtual time of the thread's last activity: creation, a message, unarchiving, or a
    change of `auto_archive_duration` (topics/threads, "Active & Archived Threads")."""

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_private_thread(self) -> bool:
        return self.type is ChannelType.PRIVATE_THREAD

    @property
    def is_bot_dm(self) -> bool:
        """The bot's own DM with one human (interaction context BOT_DM)."""
        return self.type is ChannelType.DM and self.recipient_id is not None

    @property
    def is_private_channel(self) -> bool:
        """A DM between humans or a group DM: the context PRIVATE_CHANNEL, without the bot."""
        return self.type is ChannelType.GROUP_DM or (
            self.type is ChannelType.DM and self.recipient_id is None
        )


@dataclasses.dataclass
class AttachmentRecord:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclasses.dataclass
class MessageRecord:
    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    created_at: str
    type: int = 0
    content: str = ""
    embeds: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    components: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    attachments: list[AttachmentRecord] = dataclasses.field(default_factory=list)
    flags: int = 0
    edited_at: str | None = None
    deleted: bool = False
    ephemeral_to: int | None = None  # the only user who sees an ephemeral message
    interaction_id: int | None = None  # the interaction whose response or followup this is
    webhook_id: int | None = None
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None  # a thread started from this message
    loading: bool = False  # a deferred "Bot is thinking..." placeholder
    sticker_ids: list[str] = dataclasses.field(default_factory=list)
    poll: dict[str, Any] | None = None  # kept only for the components V2 rules
    interaction_metadata: dict[str, Any] | None = None
    """For a message an interaction created (its response or a followup): the metadata
    Discord attaches ("Message Interaction Metadata Object", resources/message), fixed when
    the message is created."""


@dataclasses.dataclass
class AppEmojiRecord:
    """An emoji the application owns ("Application-Owned Emoji", resources/emoji): usable by
    the bot anywhere, never role-locked or managed, always needing colons."""

    id: int
    name: str
    image: bytes  # the decoded upload, for a test or a renderer to read
    mime_type: str
    user_id: int  # who uploaded it: the bot user, when through the API
    animated: bool = False


@dataclasses.dataclass
class RoleRecord:
    id: int
    name: str
    permissions: int
    position: int
    managed: bool = False  # the bot's own role, which only its integration may hold


@dataclasses.dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    member_ids: list[int]
    bot_role_id: int
    players_role_id: int
    joined_at: str
    preferred_locale: str = "en-US"
    """The server's language (Community servers set it), sent with interactions and GUILD_CREATE."""


# The primary guild's id is a multiple of this in its timestamp part, so it lands on shard 0
# for every shard count that divides it (1 to 8, 10, 12, 14, 15, 20 ...).
PRIMARY_GUILD_SHARD_MODULUS = 840


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild's events go to ("Sharding Formula", topics/gateway)."""
    return (guild_id >> 22) % shard_count


class World:
    """Users, the guilds with their channels, DMs and all messages, as Discord stores them.

    `guild` is the primary guild, the one every helper defaults to; `add_guild` adds more.
    """

    def __init__(self, clock: VirtualClock, ids: SnowflakeFactory) -> None:
        self.clock = clock
        self.ids = ids
        self.users: dict[int, UserRecord] = {}
        self.channels: dict[int, ChannelRecord] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.max_active_threads = MAX_ACTIVE_THREADS
        """Tests lower it (to 0, say) to make thread creation fail with 400 code 160006."""
        self.application_emojis: dict[int, AppEmojiRecord] = {}
        """The bot's application emojis by id (`rest_app_emojis.py`)."""
        self.bot = self.add_user("hanamikoji-bot", bot=True)
        # The owner has every permission, so it is nobody a test plays: not ana.
        self.owner = self.add_user("owner")
        self.guilds: dict[int, Guild] = {}
        self.roles: dict[int, RoleRecord] = {}
        """Every guild's roles by id; a guild's @everyone role has the guild's id."""
        self.left_guild_ids: set[int] = set()
        """Guilds the bot was removed from (kicked, banned): their records stay, as a server
        goes on without the bot, but the bot may no longer reach them."""
        self.deleted_channels: dict[int, int | None] = {}
        """Channels and threads a moderator deleted, with their guild: for counting the
        requests the bot still sends to them."""
        primary_id = ids.next_on_shard(0, PRIMARY_GUILD_SHARD_MODULUS)
        self.guild = self.add_guild("Emulated Tea House", guild_id=primary_id)

    # guilds ------------------------------------------------------------------------

    def add_guild(self, name: str, *, guild_id: int, with_bot: bool = True) -> Guild:
        """A guild the owner is in (and the bot, unless `with_bot` is False: a server where
        the app can only be a user install), with the @everyone, players and bot roles."""
        ids = self.ids
        guild = Guild(
            id=guild_id,
            name=name,
            owner_id=self.owner.id,
            member_ids=[self.bot.id, self.owner.id] if with_bot else [self.owner.id],
            bot_role_id=ids.next(),
            players_role_id=ids.next(),
            joined_at=self.clock.iso_now(),
        )
        self.guilds[guild.id] = guild
        self.roles[guild.id] = RoleRecord(guild.id, "@everyone", EVERYONE_PERMISSIONS, 0)
        # Every human member has this role, so taking a permission from @everyone
        # (to take it from the bot) leaves the players theirs.
        self.roles[guild.players_role_id] = RoleRecord(
            guild.players_role_id, "players", EVERYONE_PERMISSIONS, 1
        )
        self.roles[guild.bot_role_id] = RoleRecord(
            guild.bot_role_id, self.bot.username, BOT_PERMISSIONS, 2, managed=True
        )
        return guild

    def bot_is_in(self, where: ChannelRecord | int | None) -> bool:
        """Whether the bot is in this channel or guild: a guild it joined and was not removed
        from, or its own DMs (None); never a DM between humans or a group DM. Pass the
        channel where there is one: a private channel has no guild either."""
        if isinstance(where, ChannelRecord):
            if where.is_private_channel:
                return False
            where = where.guild_id
        if where is None:
            return True
        guild = self.guilds.get(where)
        return (
            guild is not None
            and where not in self.left_guild_ids
            and self.bot.id in guild.member_ids
        )

    def guild_of_channel(self, channel_id: int) -> int | None:
        """The guild of a channel or thread, even a deleted one; None for a DM or unknown."""
        channel = self.channels.get(channel_id)
        if channel is not None:
            return channel.guild_id
        return self.deleted_channels.get(channel_id)

    def delete_channel(self, channel: ChannelRecord) -> list[ChannelRecord]:
        """Remove a channel, and a text channel's threads with it; what went, threads last."""
        gone = [channel]
        if not channel.is_thread:
            gone += [t for t in self.threads(channel.guild_id) if t.parent_id == channel.id]
        for each in gone:
            del self.channels[each.id]
            self.deleted_channels[each.id] = each.guild_id
        return gone

    def guild_of(self, guild_id: int | None) -> Guild:
        """A guild by id; None means the primary guild."""
        return self.guild if guild_id is None else self.guilds[guild_id]

    def guild_of_role(self, role_id: int) -> Guild:
        return next(
            g for g in self.guilds.values() if role_id in (g.id, g.players_role_id, g.bot_role_id)
        )

    def guild_roles(self, guild_id: int | None = None) -> list[RoleRecord]:
        guild = self.guild_of(guild_id)
        ids = (guild.id, guild.players_role_id, guild.bot_role_id)
        return [self.roles[i] for i in ids]

    # users -------------------------------------------------------------------------

    def add_user(self, username: str, *, bot: bool = False) -> UserRecord:
        user = UserRecord(id=self.ids.next(), username=username, bot=bot, global_name=username)
        self.users[user.id] = user
        return user

    def add_member(self, username: str, guild_id: int | None = None) -> UserRecord:
        user = self.add_user(username)
        self.guild_of(guild_id).member_ids.append(user.id)
        return user

    def join(self, user_id: int, guild_id: int) -> None:
        """Make an existing user a member of another guild too."""
        members = self.guilds[guild_id].member_ids
        if user_id not in members:
            members.append(user_id)

    def is_member(self, user_id: int, guild_id: int | None = None) -> bool:
        return user_id in self.guild_of(guild_id).member_ids

    def member_role_ids(self, user_id: int, guild_id: int | None = None) -> list[int]:
        """The roles a member holds, @everyone aside."""
        guild = self.guild_of(guild_id)
        if user_id == self.bot.id:
            return [guild.bot_role_id]
        return [guild.players_role_id] if self.is_member(user_id, guild.id) else []

    # channels ----------------------------------------------------------------------

    def add_text_channel(self, name: str, guild_id: int | None = None) -> ChannelRecord:
        channel = ChannelRecord(
            id=self.ids.next(),
            type=ChannelType.GUILD_TEXT,
            name=name,
            guild_id=self.guild_of(guild_id).id,
            created_at=self.clock.iso_now(),
        )
        self.channels[channel.id] = channel
        return channel

    def add_thread(
        self,
        parent: ChannelRecord,
        *,
        name: str,
        owner_id: int,
        private: bool,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> ChannelRecord:
        thread = ChannelRecord(
            id=thread_id or self.ids.next(),
            type=ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            thread_member_ids={owner_id},
            created_at=self.clock.iso_now(),
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
        )
        thread.archive_timestamp = thread.created_at
        thread.last_activity = self.clock.now()
        self.channels[thread.id] = thread
        return thread

    def dm_channel_with(self, user_id: int) -> ChannelRecord:
        """The bot's DM channel with a user, created on first use as Discord does."""
        for channel in self.channels.values():
            if channel.type is ChannelType.DM and channel.recipient_id == user_id:
                return channel
        channel = ChannelRecord(
            id=self.ids.next(),
            type=ChannelType.DM,
            name=None,
            guild_id=None,
            recipient_id=user_id,
            created_at=self.clock.iso_now(),
        )
        self.channels[channel.id] = channel
        return channel

    def private_dm(self, first_id: int, second_id: int) -> ChannelRecord:
        """The DM between two humans (type 1, both as recipients, no bot), created on first
        use; Discord keeps one per pair."""
        if first_id == second_id or self.bot.id in (first_id, second_id):
            raise ValueError("a DM between users needs two different humans")
        pair = {first_id, second_id}
        for channel in self.channels.values():
            same_pair = set(channel.recipient_ids) == pair
            if channel.is_private_channel and channel.type is ChannelType.DM and same_pair:
                return channel
        channel = ChannelRecord(
            id=self.ids.next(),
            type=ChannelType.DM,
            name=None,
            guild_id=None,
            recipient_ids=[first_id, second_id],
            created_at=self.clock.iso_now(),
        )
        self.channels[channel.id] = channel
        return channel

    def add_group_dm(self, user_ids: Sequence[int], *, name: str | None = None) -> ChannelRecord:
        """A group DM (type 3) of these humans, the first its owner. The bot is never one of
        its recipients: what the emulator models is the context PRIVATE_CHANNEL ("Group DMs
        and DMs other than the app's bot user"), where the app is a user install."""
        members = list(dict.fromkeys(user_ids))
        if len(members) < 2 or self.bot.id in members:
            raise ValueError("a group DM needs at least two humans")
        channel = ChannelRecord(
            id=self.ids.next(),
            type=ChannelType.GROUP_DM,
            name=name,
            guild_id=None,
            owner_id=members[0],
            recipient_ids=members,
            created_at=self.clock.iso_now(),
        )
        self.channels[channel.id] = channel
        return channel

    def channel(self, channel_id: int) -> ChannelRecord:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise unknown_channel() from None

    def guild_channels(self, guild_id: int | None = None) -> list[ChannelRecord]:
        """A guild's channels, threads aside (the primary guild's by default)."""
        wanted = self.guild_of(guild_id).id
        return [c for c in self.channels.values() if c.guild_id == wanted and not c.is_thread]

    def threads(self, guild_id: int | None = None) -> list[ChannelRecord]:
        """Threads of one guild, or of every guild when no guild is given."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (guild_id is None or c.guild_id == guild_id)
        ]

    def active_threads(self, guild_id: int | None = None) -> list[ChannelRecord]:
        return [t for t in self.threads(guild_id) if not t.archived]

    def can_see_channel(self, user_id: int, channel: ChannelRecord) -> bool:
        if channel.is_private_channel:
            return user_id in channel.recipient_ids
        if user_id == self.bot.id:
            return self.bot_is_in(channel)
        if channel.type is ChannelType.DM:
            return channel.recipient_id == user_id
        if not self.is_member(user_id, channel.guild_id):
            return False
        if channel.type is ChannelType.PRIVATE_THREAD:
            return user_id in channel.thread_member_ids
        return True

    # application emojis ----------------------------------------------------------------

    def add_application_emoji(
        self, name: str, image: bytes, mime_type: str, *, animated: bool = False
    ) -> AppEmojiRecord:
        """Store an emoji of the bot's application as if uploaded; no limit is checked."""
        emoji = AppEmojiRecord(
            id=self.ids.next(),
            name=name,
            image=image,
            mime_type=mime_type,
            user_id=self.bot.id,
            animated=animated,
        )
        self.application_emojis[emoji.id] = emoji
        return emoji

    # messages ----------------------------------------------------------------------

    def add_message(self, message: MessageRecord) -> MessageRecord:
        self.messages[message.id] = message
        channel = self.channels[message.channel_id]
        channel.last_message_id = message.id
        channel.message_count += 1
        channel.last_activity = self.clock.now()
        return message

    def message(self, message_id: int) -> MessageRecord:
        found = self.messages.get(message_id)
        if found is None or found.deleted:
            raise unknown_message()
        return found

    def can_see_message(self, user_id: int, message: MessageRecord) -> bool:
        if message.deleted:
            return False
        if message.ephemeral_to is not None:
            return message.ephemeral_to == user_id
        return self.can_see_channel(user_id, self.channels[message.channel_id])

    def messages_in(self, channel_id: int) -> list[MessageRecord]:
        """Live messages of a channel, oldest first, ephemerals included."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]

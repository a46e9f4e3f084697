"""Per-guild and per-user settings, and the defaults a new match takes from them."""

from __future__ import annotations

from engine.clocks import BadTimeControl, Pace, TimeControl, VacationAllowance
from engine.model import ExpiryPolicy, GuildSettings, MatchInfo, MatchStatus, UserSettings
from engine.rules.state import Variant
from engine.service.config import ServiceConfig
from engine.service.errors import InvalidRequest
from engine.store.match_store import MatchStore


class MatchSettings:
    """Guild settings (cached: every challenge reads them) and user settings."""

    def __init__(self, store: MatchStore, config: ServiceConfig) -> None:
        self._store = store
        self._config = config
        self._guilds: dict[int, GuildSettings] = {}

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's overrides; a field left None follows the configured default (see
        :meth:`thread_per_match`, :meth:`three_rounds`, :meth:`turn_seconds`)."""
        cached = self._guilds.get(guild_id)
        if cached is None:
            cached = await self._store.guild_settings(guild_id) or GuildSettings(guild_id)
            self._guilds[guild_id] = cached
        return cached

    async def set_guild_settings(self, settings: GuildSettings) -> GuildSettings:
        if settings.turn_seconds is not None:
            self.turn_seconds(settings.turn_seconds, None)
        if settings.time_control is not None:
            self.time_control(None, None, settings)
        if settings.vacation_days is not None and not 0 <= settings.vacation_days <= 366:
            raise InvalidRequest(f"{settings.vacation_days} vacation days: 0 to 366 a year")
        await self._store.save_guild_settings(settings)
        self._guilds[settings.guild_id] = settings
        return settings

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self._store.user_settings(user_id) or UserSettings(user_id)

    async def set_user_settings(self, settings: UserSettings) -> UserSettings:
        await self._store.save_user_settings(settings)
        return settings

    # -- what a new match takes ----------------------------------------------------------

    async def new_match(
        self,
        players: tuple[int, int],
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None,
        turn_seconds: float | None,
        created_at: float,
        time_control: TimeControl | None = None,
    ) -> MatchInfo:
        """A pending match between ``players``, not stored yet, as ``guild_id``'s defaults
        make it where ``variant`` and the time (``time_control``, or a timer per turn of
        ``turn_seconds``) are not chosen; each way of starting one adds its own facts (an
        expiry, a seed, a level)."""
        guild = await self.guild_settings(guild_id) if guild_id is not None else None
        control = self.time_control(time_control, turn_seconds, guild)
        return MatchInfo(
            match_id=0,
            status=MatchStatus.PENDING,
            variant=self.variant(variant, guild),
            players=players,
            guild_id=guild_id,
            channel_id=channel_id,
            turn_seconds=control.seconds,
            expiry_policy=self.expiry_policy(guild),
            created_at=created_at,
            pace=control.pace,
            increment_seconds=control.increment,
        )

    def time_control(
        self,
        requested: TimeControl | None,
        turn_seconds: float | None,
        guild: GuildSettings | None,
    ) -> TimeControl:
        """The time control: as requested, else a requested timer per turn, else the guild's
        default, else a timer per turn of the configured length."""
        default = None if guild is None else guild.time_control
        if requested is None and turn_seconds is None and default is not None:
            try:
                requested = TimeControl.parse(default)
            except BadTimeControl as error:
                raise InvalidRequest(f"the server's default time: {error}") from None
        if requested is None or requested.pace is Pace.PER_TURN:
            seconds = None if requested is None else requested.seconds
            return TimeControl.per_turn(self.turn_seconds(seconds or turn_seconds, guild))
        return requested

    def vacation_allowance(self, guild: GuildSettings | None) -> VacationAllowance:
        """The vacation days a member of ``guild`` may take a year."""
        if guild is not None and guild.vacation_days is not None:
            return VacationAllowance(guild.vacation_days)
        return VacationAllowance(self._config.vacation_days)

    def turn_seconds(self, requested: float | None, guild: GuildSettings | None) -> float:
        """The turn timer: as requested, else the guild's, else the configured one."""
        seconds = requested
        if seconds is None and guild is not None:
            seconds = guild.turn_seconds
        if seconds is None:
            seconds = self._config.turn_timer_seconds
        low, high = self._config.min_turn_seconds, self._config.max_turn_seconds
        if not low <= seconds <= high:
            raise InvalidRequest(
                f"a turn timer of {seconds!r} seconds is out of range ({low:g} to {high:g})"
            )
        return float(seconds)

    def thread_per_match(self, guild: GuildSettings | None) -> bool:
        """Whether the guild's matches get a thread: its choice, else the configured one."""
        if guild is not None and guild.thread_per_match is not None:
            return guild.thread_per_match
        return self._config.thread_per_match

    def three_rounds(self, guild: GuildSettings | None) -> bool:
        """Whether a challenge naming no variant plays three rounds."""
        if guild is not None and guild.three_rounds_default is not None:
            return guild.three_rounds_default
        return self._config.three_rounds

    def variant(self, requested: Variant | None, guild: GuildSettings | None) -> Variant:
        if requested is not None:
            return Variant(requested)
        return Variant.THREE_ROUNDS if self.three_rounds(guild) else Variant.STANDARD

    def expiry_policy(self, guild: GuildSettings | None) -> ExpiryPolicy:
        if guild is not None and guild.expiry_policy is not None:
            return guild.expiry_policy
        return self._config.expiry_policy

"""Where the Discord layer shows each match (its thread and board message), remembered."""

from __future__ import annotations

from dataclasses import replace

from engine.model import MatchInfo, MatchStatus, Placement
from engine.service.context import ServiceContext
from engine.service.matches.errors import MatchNotFound


class MatchPlacements:
    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    async def set_location(
        self,
        match_id: int,
        *,
        thread_id: int | None = None,
        board_message_id: int | None = None,
    ) -> MatchInfo:
        """Remember where the match is shown; arguments left None keep their value.

        Also for a match that is over: its start may be shown after its end (the bot was
        down meanwhile), and its board is still edited to the result."""
        async with self._ctx.operation():
            live = self._ctx.matches.get(match_id)
            if live is None or self._ctx.shared:
                # Shared: the database holds the placement; a cached copy is refreshed
                # before it is used, so only the store needs the change.
                return await self._set_stored(match_id, thread_id, board_message_id)
            async with live.lock:
                new = _moved(live.info.placement, thread_id, board_message_id)
                await self._ctx.store.set_location(match_id, new.thread_id, new.board_message_id)
                self._ctx.matches.place(live, new)
                return live.snapshot()

    async def relocate(self, match_id: int, placement: Placement) -> MatchInfo:
        """Show the match somewhere else from now on, exactly as ``placement`` says (a part
        may become None): its thread was deleted, and it moves to a new one or to its
        channel, its board not posted there yet."""
        async with self._ctx.operation():
            live = self._ctx.matches.get(match_id)
            store = self._ctx.store
            if live is None or self._ctx.shared:
                info = await store.get_match(match_id)
                if info is None:
                    raise MatchNotFound(match_id)
                await store.set_location(match_id, placement.thread_id, placement.board_message_id)
                return replace(info, placement=placement)
            async with live.lock:
                await store.set_location(match_id, placement.thread_id, placement.board_message_id)
                self._ctx.matches.place(live, placement)
                return live.snapshot()

    async def set_challenge_message(self, match_id: int, message_id: int) -> None:
        """Remember a challenge's message (to close it after a restart), unless the
        challenge was answered meanwhile: a quick Accept can come before the bot learns its
        own message's id, and the match's start has cleared the board, which must stay
        clear for the match's own thread and board."""
        async with self._ctx.operation():
            live = self._ctx.matches.get(match_id)
            if live is None or self._ctx.shared:
                await self._ctx.store.set_challenge_message(match_id, message_id)
                return
            async with live.lock:
                if live.info.status is not MatchStatus.PENDING:
                    return
                await self._ctx.store.set_challenge_message(match_id, message_id)
                self._ctx.matches.place(live, _moved(live.info.placement, None, message_id))

    async def _set_stored(
        self, match_id: int, thread_id: int | None, board_message_id: int | None
    ) -> MatchInfo:
        info = await self._ctx.store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        new = _moved(info.placement, thread_id, board_message_id)
        await self._ctx.store.set_location(match_id, new.thread_id, new.board_message_id)
        return replace(info, placement=new)

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        """The open match whose thread is ``thread_id``."""
        return await self._ctx.store.match_in_thread(thread_id)

    async def match_of_thread(self, thread_id: int) -> MatchInfo | None:
        """The match of thread ``thread_id``, still open or already over (its moves,
        board and review stay there to look at)."""
        return await self._ctx.store.match_of_thread(thread_id)


def _moved(placement: Placement, thread_id: int | None, board_message_id: int | None) -> Placement:
    """``placement`` with the parts given (None keeps a part as it is)."""
    return Placement(
        placement.thread_id if thread_id is None else thread_id,
        placement.board_message_id if board_message_id is None else board_message_id,
    )

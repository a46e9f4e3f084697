"""A bot process for the crash test: plays matches and prints each acknowledged decision.

Run as ``python -m tests.engine.service.crash_child DB SEED``. Every line ``ack MATCH VERSION
DECISION`` (or ``ack MATCH resign``) is printed and flushed only after the service
returned, i.e. after the commit; the parent kills this process with SIGKILL at random.
"""

from __future__ import annotations

import asyncio
import random
import sys

from engine.service import MatchService, MatchStatus, ServiceConfig, StaleVersion
from engine.store.sqlite import SqliteMatchStore

PAIRS = ((1, 2), (3, 4), (5, 6))
AI_PLAYER = 9
CONFIG = ServiceConfig(
    turn_timer_seconds=86400,
    max_active_matches=1000,
    ai_move_delay_seconds=0,
    max_new_matches_per_hour=1_000_000,  # one pair starts match after match here
)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def play_pair(service: MatchService, a: int, b: int, rng: random.Random) -> None:
    while True:
        open_matches = [m for m in await service.queries.open_matches_for(a) if b in m.players]
        if open_matches:
            match = open_matches[0]
            if match.status is MatchStatus.PENDING:  # killed between challenge and accept
                match = await service.challenges.accept(match.match_id, b)
        else:
            challenge = await service.challenges.challenge(a, b, guild_id=1, channel_id=2)
            match = await service.challenges.accept(challenge.match_id, b)
        await play_match(service, match.match_id, (a, b), rng)


async def play_ai(service: MatchService, rng: random.Random) -> None:
    while True:
        open_matches = await service.queries.open_matches_for(AI_PLAYER)
        if open_matches:
            match = open_matches[0]
        else:
            match = await service.commands.start_ai_match(
                AI_PLAYER, "easy", guild_id=1, channel_id=2
            )
        await play_match(service, match.match_id, (AI_PLAYER,), rng)


async def play_match(
    service: MatchService, match_id: int, humans: tuple[int, ...], rng: random.Random
) -> None:
    info = await service.queries.match_info(match_id)
    while True:
        table = await service.queries.public_view(match_id)
        if table.outcome is not None:
            return
        assert table.current_player is not None
        user = info.players[table.current_player]
        if user not in humans:
            await asyncio.sleep(0.001)  # the AI is thinking
            continue
        if rng.random() < 0.01:
            await service.commands.resign(match_id, user)
            say(f"ack {match_id} resign")
            return
        seen = await service.queries.view_for(match_id, user)
        decision = rng.choice(seen.legal)
        try:
            result = await service.commands.submit(match_id, user, decision, seen.table.version)
        except StaleVersion:
            continue
        say(f"ack {match_id} {result.version} {decision}")


async def main(path: str, seed: int) -> None:
    service = MatchService(SqliteMatchStore(path), CONFIG, rng=random.Random(seed))
    await service.start()
    say(f"ready broken={len(service.broken)}")
    rngs = [random.Random(seed * 100 + i) for i in range(len(PAIRS) + 1)]
    await asyncio.gather(
        *(play_pair(service, a, b, rng) for (a, b), rng in zip(PAIRS, rngs, strict=False)),
        play_ai(service, rngs[-1]),
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))

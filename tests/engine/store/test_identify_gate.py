"""IDENTIFY turns: Discord starts one session per bucket per 5 s for the whole bot, so the
processes of a bot take turns through their shared database (and the shards of one process
through the process). Each check is a lower bound: a slow machine only widens the gaps."""

from __future__ import annotations

import asyncio

from engine.store.identify_gate import IdentifyGate, LocalIdentifyGate
from engine.store.postgres import PostgresMatchStore

SPACING = 0.2  # seconds; Discord's is 5


async def _turns_asked_at_once(gates: list[IdentifyGate], bucket: int) -> list[float]:
    """When each gate's turn came (loop time), all asked for at once, in order."""
    loop = asyncio.get_running_loop()

    async def turn(gate: IdentifyGate) -> float:
        await gate.identify_turn(bucket, SPACING)
        return loop.time()

    return sorted(await asyncio.gather(*(turn(gate) for gate in gates)))


async def test_two_processes_on_one_database_take_turns_in_a_bucket(postgres_url):
    stores = [PostgresMatchStore(postgres_url, origin=f"P{i}") for i in range(2)]
    for store in stores:
        await store.open()
    try:
        first, second = await _turns_asked_at_once(list(stores), bucket=0)
    finally:
        for store in stores:
            await store.close()
    # Spaced by the database's clock; this loop's may tick a hair differently.
    assert second - first >= SPACING * 0.9


async def test_a_process_started_again_waits_out_the_turn_taken_before_it(postgres_url):
    loop = asyncio.get_running_loop()
    before = PostgresMatchStore(postgres_url, origin="before")
    await before.open()
    await before.identify_turn(0, SPACING)
    taken = loop.time()
    await before.close()  # stopped or killed: its turn stays in the database
    after = PostgresMatchStore(postgres_url, origin="after")
    await after.open()
    try:
        await after.identify_turn(0, SPACING)
    finally:
        await after.close()
    assert loop.time() - taken >= SPACING * 0.9


async def test_the_shards_of_one_process_take_turns_in_a_bucket():
    gate = LocalIdentifyGate()
    first, second, third = await _turns_asked_at_once([gate, gate, gate], bucket=0)
    assert second - first >= SPACING and third - second >= SPACING

"""After a run: does the database hold every acknowledged submit exactly once?"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bench.cluster.players import Ack, Tally
from bench.cluster.worker import StoreSpec
from engine.model import DecisionRow, MatchStatus


@dataclass(frozen=True, slots=True)
class Audit:
    matches: int
    """Matches challenged during the run."""
    unfinished: int
    """Of those, the ones not finished (every match is played to its end)."""
    lost: int
    """Acknowledged decisions the database does not hold as acknowledged."""
    doubled: int
    """Stored decisions nobody was told were applied, or acknowledged more than once."""


def _differs(told: Ack, row: DecisionRow) -> bool:
    return row.automatic or (told.seat, told.decision) != (row.seat, row.decision)


async def audit(spec: StoreSpec, tallies: Sequence[Tally]) -> Audit:
    acks = [ack for tally in tallies for ack in tally.acks]
    acked = {(ack.match_id, ack.seq): ack for ack in acks}
    doubled = len(acks) - len(acked)
    created = Counter(match_id for tally in tallies for match_id in tally.created)
    doubled += sum(count - 1 for count in created.values())
    matches = created.keys() | {match_id for match_id, _ in acked}
    store = spec.open(origin="audit")
    await store.open()
    unfinished = lost = 0
    try:
        for match_id in matches:
            info = await store.get_match(match_id)
            unfinished += info is None or info.status is not MatchStatus.FINISHED
            for row in await store.decisions(match_id):
                told = acked.pop((match_id, row.seq), None)
                if told is None or _differs(told, row):
                    doubled += 1
                    lost += told is not None
    finally:
        await store.close()
    return Audit(len(created), unfinished, lost + len(acked), doubled)

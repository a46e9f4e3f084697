"""bench/db_outage.py's audit counts a decision acknowledged but not stored, or acknowledged
twice. (Its arguments are tried in tests/test_command_lines.py; a whole run takes minutes and
two bot processes: run it by hand.)"""

from bench.db_outage import audit
from bench.outage.players import Acknowledged


async def test_the_audit_sees_a_lost_and_a_doubled_decision(postgres_url):
    from engine.store.postgres import PostgresMatchStore
    from tests.engine.store.conftest import active_match, decision_row

    store = PostgresMatchStore(postgres_url)
    await store.open()
    try:
        match_id = await active_match(store)
        await store.append_decision(match_id, decision_row(1, text="1A"))
    finally:
        await store.close()
    stored = Acknowledged(match_id, 0, "1A", 0.0)
    assert await audit(postgres_url, [stored]) == (0, 0, 1)
    assert await audit(postgres_url, [stored, stored]) == (0, 1, 1)  # acknowledged twice
    lost = Acknowledged(match_id, 1, "2AB", 0.0)  # acknowledged, never stored
    assert await audit(postgres_url, [stored, lost]) == (1, 0, 1)

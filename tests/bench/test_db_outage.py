"""bench/db_outage.py: its arguments are checked before anything starts (a clear line and
exit status 2, no traceback), and its audit counts a decision acknowledged but not stored,
or acknowledged twice. (A whole run takes minutes and two bot processes: run it by hand.)"""

import subprocess
import sys
from pathlib import Path

import pytest

from bench.db_outage import audit
from bench.outage.players import Acknowledged

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--matches", "0"], "--matches must be 1 to 60, got 0"),
        (["--freeze-seconds", "-1"], "--freeze-seconds must be more than 0"),
        (["--down-seconds", "-2"], "--down-seconds must not be negative"),
        (["--phases", "freeze,flood"], "--phases must name freeze and/or restart"),
        (["--after", "0"], "--after must be more than 0"),
    ],
)
def test_bad_arguments_are_refused_plainly(args, said):
    run = subprocess.run(
        [sys.executable, "bench/db_outage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert said in run.stderr and "Traceback" not in run.stderr


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

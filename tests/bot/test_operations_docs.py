"""The sample dashboard and alert rules in docs/operations/ name only metrics the bot
serves: a renamed metric would leave an operator with an empty panel or an alert that
never fires."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.operations.metrics import BotMetrics

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations"
METRIC = re.compile(r"\bhanamikoji_[a-z0-9_]+")
SUFFIXES = ("_bucket", "_count", "_sum", "_total", "_created")


def served() -> set[str]:
    """Every sample name a fresh bot's registry serves."""
    body = BotMetrics().exposition().decode()
    names = set()
    for family in text_string_to_metric_families(body):
        names.add(family.name)
        names.update(sample.name for sample in family.samples)
    return names


def named_in(path: Path) -> set[str]:
    return set(METRIC.findall(path.read_text(encoding="utf-8")))


def family_of(name: str, known: set[str]) -> str:
    """``name`` as served: itself, or its family with a histogram/counter suffix off."""
    if name in known:
        return name
    for suffix in SUFFIXES:
        if name.endswith(suffix) and name.removesuffix(suffix) in known:
            return name.removesuffix(suffix)
    return name


@pytest.mark.parametrize("file", ["grafana-dashboard.json", "alerts.yml"])
def test_every_metric_the_operations_files_name_exists(file):
    known = served()
    named = named_in(OPERATIONS / file)
    assert named, f"{file} names no metric"
    unknown = {name for name in named if family_of(name, known) not in known}
    assert not unknown, f"{file} names metrics the bot does not serve: {sorted(unknown)}"


def test_the_dashboard_is_valid_json_with_a_query_per_panel():
    dashboard = json.loads((OPERATIONS / "grafana-dashboard.json").read_text())
    assert dashboard["panels"]
    for panel in dashboard["panels"]:
        assert all(METRIC.search(target["expr"]) for target in panel["targets"]), panel["title"]


def test_the_alert_rules_cover_what_the_issue_asks():
    rules = (OPERATIONS / "alerts.yml").read_text()
    for metric in (
        "hanamikoji_interaction_first_response_seconds_bucket",
        "hanamikoji_discord_rate_limited_total",
        "hanamikoji_announcement_oldest_age_seconds",
        "hanamikoji_gateway_shards_connected",
    ):
        assert metric in rules
    assert re.search(r"\) > 1\b", rules), "first response p99 over 1 s"
    assert "hanamikoji_announcement_oldest_age_seconds > 60" in rules
    assert re.search(r"shards_connected < hanamikoji_gateway_shards\n\s+for: 2m", rules)


def test_a_new_registry_per_bot_so_two_bots_in_one_process_do_not_clash():
    first, second = BotMetrics(), BotMetrics()
    first.decisions_applied.labels("player").inc()
    assert "hanamikoji_decisions_applied_total" in served()
    assert (
        second.registry.get_sample_value("hanamikoji_decisions_applied_total", {"by": "player"})
        == 0.0
    )

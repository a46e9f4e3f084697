"""Terminal play is a console front end: it sees the rules and the agents, and nothing in the
engine but the command lines (``python -m engine`` and its ``review``, which words moves as
terminal play does) sees it."""

from __future__ import annotations

import sys

from tests.test_layering import GRAPH, within

FIRST_PARTY = ("engine", "bot")


def test_terminal_play_imports_only_the_rules_and_the_ai() -> None:
    allowed = ("engine.rules", "engine.ai", "engine.terminal")
    offences = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if within(module, "engine.terminal")
        for target in targets
        if any(within(target, package) for package in FIRST_PARTY)
        and not any(within(target, package) for package in allowed)
    )
    assert offences == []
    third_party = {
        target.partition(".")[0]
        for module, targets in GRAPH.items()
        if within(module, "engine.terminal")
        for target in targets
    } - set(sys.stdlib_module_names)
    assert third_party <= set(FIRST_PARTY)


def test_only_the_command_line_imports_terminal_play() -> None:
    importers = sorted(
        module
        for module, targets in GRAPH.items()
        if not within(module, "engine.terminal")
        and any(within(target, "engine.terminal") for target in targets)
    )
    assert importers == ["engine.__main__", "engine.review.cli"]

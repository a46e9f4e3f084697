"""The layering contracts, checked by walking every import (type-only ones included).

- the rules (`engine.rules`) are pure: they import only the standard library's pure parts
  and each other — no service, store, AI, ratings, asyncio, database or Discord;
- the AI agents see only the rules (views in, decisions out);
- the engine never imports the bot, nor discord.py;
- the bot talks to the engine's service, never to its storage (`engine.store`);
- `bot/`'s root holds the frame of the app; a feature's modules live in its folder;
- a feature (a package the client loads as an extension) imports no module of another
  feature, not even its `__init__`: what several features share lives in the shared places
  (`bot/discord_plumbing/`, `bot/words/`, `bot/pictures/`, `bot/operations/`), which import
  no feature, and a button one feature sends for another to answer is a plain button with
  the id `bot/custom_ids.py` makes;
- `bot/` has no import cycle, so no feature reaches back into the client.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot")
# Standard-library modules the pure rules must not touch: concurrency, I/O, the clock.
IMPURE_STDLIB = {
    "asyncio",
    "concurrent",
    "io",
    "os",
    "pathlib",
    "shutil",
    "socket",
    "sqlite3",
    "subprocess",
    "threading",
    "time",
    "urllib",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[str]:
    """Every module `path` imports, at any depth (inside `if TYPE_CHECKING:` too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # `from engine.rules import state` imports the module engine.rules.state;
            # `from engine.rules import Gift` imports the package engine.rules.
            for alias in node.names:
                child = f"{stem}.{alias.name}"
                yield (
                    child
                    if (ROOT / child.replace(".", "/")).exists()
                    or (ROOT / (child.replace(".", "/") + ".py")).exists()
                    else stem
                )


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def modules() -> dict[str, set[str]]:
    """Each first-party module and the first-party or third-party modules it imports.

    Importing `a.b.c` also runs the `__init__` of `a` and `a.b`, so those count too, except
    a module's own enclosing packages (which are already being imported when it runs).
    """
    graph: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = module_name(path)
            targets = set(imported(path))
            for target in list(targets):
                parts = target.split(".")
                for depth in range(1, len(parts)):
                    parent = ".".join(parts[:depth])
                    if not within(name, parent):
                        targets.add(parent)
            graph[name] = targets
    return graph


GRAPH = modules()


def offences(importer_in: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if within(module, importer_in)
        for target in targets
        if any(within(target, banned) for banned in forbidden)
    )


def test_the_graph_sees_the_packages():
    # A walker that found nothing would pass every contract below.
    assert "engine.rules.state" in GRAPH and "bot.__main__" in GRAPH
    assert any(within(t, "engine.rules") for t in GRAPH["engine.rules.legal"])


def test_the_rules_are_pure():
    forbidden = (
        "engine.service",
        "engine.store",
        "engine.ai",
        "engine.ratings",
        "bot",
        "discord",
        "aiosqlite",
        "asyncpg",
        *sorted(IMPURE_STDLIB),
    )
    assert offences("engine.rules", forbidden) == []


def test_the_ai_sees_only_the_rules():
    forbidden = ("engine.service", "engine.store", "engine.ratings", "bot", "discord")
    assert offences("engine.ai", forbidden) == []


def reachable(start: str) -> set[str]:
    """Every module importing `start` runs, directly or through others."""
    seen: set[str] = set()
    todo = [m for m in GRAPH if within(m, start)]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(t for t in GRAPH.get(module, ()) if t not in seen)
    return seen


def test_the_service_works_over_the_store_protocol_without_a_database_driver():
    # The service gets its store from whoever builds it; importing it loads no driver.
    loaded = reachable("engine.service")
    assert sorted(m for m in loaded if within(m, "engine.store.sqlite")) == []
    assert sorted(m for m in loaded if within(m, "engine.store.postgres")) == []
    assert sorted(m for m in loaded if m in ("aiosqlite", "asyncpg", "sqlite3")) == []


def test_only_the_sqlite_store_talks_to_sqlite():
    # The store behind the MatchStore protocol is the one place with a database driver.
    drivers = ("aiosqlite", "sqlite3")
    everywhere = [o for package in PACKAGES for o in offences(package, drivers)]
    assert [o for o in everywhere if not o.startswith("engine.store.sqlite")] == []


def test_only_the_postgres_store_talks_to_postgres():
    everywhere = [o for package in PACKAGES for o in offences(package, ("asyncpg",))]
    assert [o for o in everywhere if not o.startswith("engine.store.postgres")] == []
    assert any(within(m, "engine.store.postgres") for m in GRAPH)  # the rule has a subject


def test_the_engine_never_imports_the_bot_or_discord():
    assert offences("engine", ("bot", "discord")) == []


def test_the_bot_never_reaches_into_the_store():
    # The bot gets what it needs of the storage layer (errors, the store it runs on) from
    # engine.service and engine.hosting, so the store can change under it.
    assert offences("bot", ("engine.store",)) == []


def test_the_bot_decides_no_sight():
    # Who may see a finished match's hidden cards is the engine's rule: the bot shows what
    # the service answers its viewer and never asks the rule itself.
    assert offences("bot", ("engine.service.reviews.sight",)) == []
    # Nor does it hold what it would have to filter: a whole game state, a match record or
    # a deal carry every hidden card; it gets views (engine.rules.views, SeenMatch).
    whole = (
        "engine.rules.state",
        "engine.rules.record",
        "engine.rules.deal",
        "engine.review.steps",
    )
    assert offences("bot", whole) == []


FEATURES = (
    "bot.play",
    "bot.challenge",
    "bot.stats",
    "bot.settings",
    "bot.review",
    "bot.seasons",
    "bot.tournaments",
    "bot.clocks",
    "bot.puzzles",
)
"""Every feature: the extensions `bot.client` loads (checked below)."""
SHARED = ("bot.discord_plumbing", "bot.words", "bot.pictures", "bot.operations")
"""The places what several features (and the frame) use lives in."""
BOT_FRAME = {
    "bot": "the package",
    "bot.__main__": "the command line",
    "bot.client": "the bot, which loads the features",
    "bot.command_sync": "sending the slash commands when they changed",
    "bot.config": "the settings file",
    "bot.custom_ids": "every component's id and template, and the one refusal of the rest",
    "bot.features": "what a feature is and the parts features share",
    "bot.request_pacing": "the pace of requests to Discord",
}
"""The modules at `bot/`'s root, each with why it is not in a folder. A new one joins a
feature's folder, or the shared plumbing (`bot/discord_plumbing/`, `bot/words/`)."""


def test_the_bots_root_holds_only_the_frame():
    at_root = {m for m in GRAPH if within(m, "bot") and m.count(".") <= 1}
    folders = {m for m in at_root - {"bot"} if (ROOT / m.replace(".", "/")).is_dir()}
    assert sorted(at_root - folders) == sorted(BOT_FRAME)
    assert folders >= {*FEATURES, "bot.discord_plumbing"}  # the rule has its subjects


def test_only_the_client_loads_the_features():
    # A frame module importing a feature would belong to it (bot.client loads them by name).
    reaching = sorted(
        f"{module} imports {target}"
        for module in BOT_FRAME
        if module not in ("bot.client", "bot.__main__")
        for target in GRAPH[module]
        if any(within(target, feature) for feature in FEATURES)
    )
    assert reaching == []


def loaded_by_the_client() -> tuple[str, ...]:
    """The ``EXTENSIONS`` of bot/client.py, read without running it."""
    tree = ast.parse((ROOT / "bot" / "client.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "EXTENSIONS" for target in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("bot/client.py names no EXTENSIONS")


def test_the_features_are_the_extensions_the_client_loads():
    assert sorted(FEATURES) == sorted(loaded_by_the_client())


def feature_of(module: str) -> str | None:
    return next((feature for feature in FEATURES if within(module, feature)), None)


def test_no_feature_imports_another():
    crossings = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if (home := feature_of(module)) is not None
        for target in targets
        if (other := feature_of(target)) is not None and other != home
    )
    assert crossings == []


def test_the_shared_places_import_no_feature():
    assert [o for place in SHARED for o in offences(place, FEATURES)] == []
    assert all(any(within(m, place) for m in GRAPH) for place in SHARED)  # they exist


def cycles(package: str) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    nodes = [m for m in GRAPH if within(m, package)]
    edges = {
        m: sorted(t for t in GRAPH[m] if t in GRAPH and t != m and within(t, package))
        for m in nodes
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in nodes:
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("package", ["bot", "engine"])
def test_no_import_cycles(package):
    assert cycles(package) == []

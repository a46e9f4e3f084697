"""docs/layout.md is the map of the repository: it names every package of `engine/` and
`bot/` (a folder with an `__init__.py`), every feature of the service and the bot, and
names no package that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "docs" / "layout.md"
MENTION = re.compile(r"`((?:engine|bot)(?:/[A-Za-z_0-9]+)*/?)`")


def packages() -> list[str]:
    """Every package under engine/ and bot/, as `engine/service/seasons/`."""
    found = []
    for top in ("engine", "bot"):
        for init in sorted((ROOT / top).rglob("__init__.py")):
            folder = init.parent.relative_to(ROOT).as_posix()
            if "__pycache__" not in folder:
                found.append(folder + "/")
    return found


def mentioned() -> set[str]:
    """The folders the page names in code spans (`engine/service/` or `engine/service`)."""
    text = LAYOUT.read_text(encoding="utf-8")
    return {m.rstrip("/") + "/" for m in MENTION.findall(text)}


def test_there_are_packages_to_find():
    found = packages()
    assert "engine/service/" in found and "bot/play/" in found


def test_the_layout_names_every_package():
    missing = [package for package in packages() if package not in mentioned()]
    assert missing == []


def test_the_layout_names_no_package_that_is_gone():
    gone = [
        folder
        for folder in sorted(mentioned())
        if not (ROOT / folder).is_dir() and not (ROOT / folder.rstrip("/")).is_file()
    ]
    assert gone == []

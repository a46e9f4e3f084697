"""The README and docs/ stand alone: every relative link and anchor resolves, and nothing
in the repository points outside it (a clone has only the repository)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
# Written in two halves so that this file does not match the search it makes.
OUTSIDE = ".." + "/shared"
NOT_SEARCHED = {".git", ".venv", "build", "__pycache__", ".mypy_cache", ".ruff_cache"}


def anchor_of(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors_in(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    anchors = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            anchor = anchor_of(match.group(1))
            anchors.add(anchor if not seen[anchor] else f"{anchor}-{seen[anchor]}")
            seen[anchor] += 1
    return anchors


def relative_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [
        target
        for target in LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # https:, mailto: …
    ]


def test_the_readme_and_docs_have_pages_to_check():
    assert ROOT / "README.md" in PAGES
    assert ROOT / "docs" / "rules.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_and_anchor_resolves(page: Path):
    broken = []
    for target in relative_links(page):
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif not linked.is_relative_to(ROOT):
            broken.append(f"{target} (outside the repository)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors_in(linked):
            broken.append(f"{target} (no heading with that anchor)")
    assert broken == [], f"{page.name}: {broken}"


def test_anchors_follow_githubs_rule():
    assert anchor_of("Several processes on PostgreSQL") == "several-processes-on-postgresql"
    assert anchor_of("The command: `python -m engine review`") == (
        "the-command-python--m-engine-review"
    )


def test_nothing_in_the_repository_points_outside_it():
    pointing_out = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if parts & NOT_SEARCHED or any(part.endswith(".egg-info") for part in parts):
            continue
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        data = path.read_bytes()
        if b"\0" not in data and OUTSIDE.encode() in data:
            pointing_out.append(path.relative_to(ROOT).as_posix())
    assert pointing_out == []

"""Discord's message and modal limits, checked on bodies directly (no client needed)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_emulator.errors import CANNOT_SEND_EMPTY_MESSAGE, INVALID_FORM_BODY, DiscordError
from tests.discord_emulator.limits import check_message, check_modal


def button(custom_id: str = "b", label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(options: int, *, label: str = "card", value_length: int = 1) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": label, "value": f"{n:0{value_length}d}"} for n in range(options)],
    }


def embed(**fields: Any) -> dict[str, Any]:
    return {"title": "t", **fields}


FITS: list[dict[str, Any]] = [
    {"content": "x" * 2000},
    {"components": [row(*(button(f"b{n}") for n in range(5))) for _ in range(1)]},
    {"components": [row(button(f"b{n}")) for n in range(5)]},
    {"components": [row(select(25))]},
    {"components": [row(button("x" * 100, "y" * 80))]},
    {"embeds": [embed(description="d" * 4096)]},
    {
        "embeds": [
            embed(title=None, description="d" * 4000),
            embed(title=None, description="d" * 2000),
        ]
    },
]

TOO_BIG: dict[str, dict[str, Any]] = {
    "content over 2000": {"content": "x" * 2001},
    "6 action rows": {"components": [row(button(f"b{n}")) for n in range(6)]},
    "6 buttons in a row": {"components": [row(*(button(f"b{n}") for n in range(6)))]},
    "custom_id of 101": {"components": [row(button("x" * 101))]},
    "button label of 81": {"components": [row(button(label="y" * 81))]},
    "select with 26 options": {"components": [row(select(26))]},
    "option label of 101": {"components": [row(select(2, label="l" * 101))]},
    "option value of 101": {"components": [row(select(2, value_length=101))]},
    "duplicate custom_ids": {"components": [row(button("same"), button("same"))]},
    "select beside a button": {"components": [row(select(2), button())]},
    "embed description of 4097": {"embeds": [embed(description="d" * 4097)]},
    "embeds over 6000 in total": {
        "embeds": [
            embed(title=None, description="d" * 4000),
            embed(title=None, description="d" * 2001),
        ]
    },
    "11 embeds": {"embeds": [embed() for _ in range(11)]},
}


@pytest.mark.parametrize("payload", FITS)
def test_bodies_within_the_limits_pass(payload: dict[str, Any]) -> None:
    check_message(payload, attachment_count=0, require_body=True)


@pytest.mark.parametrize("payload", TOO_BIG.values(), ids=TOO_BIG.keys())
def test_bodies_over_a_limit_get_invalid_form_body(payload: dict[str, Any]) -> None:
    with pytest.raises(DiscordError) as raised:
        check_message(payload, attachment_count=0, require_body=True)
    assert (raised.value.status, raised.value.code) == (400, INVALID_FORM_BODY)
    assert raised.value.errors


def test_errors_name_the_offending_field_like_discord() -> None:
    with pytest.raises(DiscordError) as raised:
        check_message(
            {"components": [row(button("x" * 101))]}, attachment_count=0, require_body=True
        )
    assert raised.value.errors == {
        "components": {
            "0": {
                "components": {
                    "0": {
                        "custom_id": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_MAX_LENGTH",
                                    "message": "Must be 100 or fewer in length.",
                                }
                            ]
                        }
                    }
                }
            }
        }
    }


def test_an_empty_message_is_refused() -> None:
    with pytest.raises(DiscordError) as raised:
        check_message({"content": ""}, attachment_count=0, require_body=True)
    assert raised.value.code == CANNOT_SEND_EMPTY_MESSAGE
    check_message({"content": ""}, attachment_count=1, require_body=True)


def test_modal_limits() -> None:
    text_input = {"type": 4, "custom_id": "name", "label": "Name", "style": 1}
    check_modal({"custom_id": "m", "title": "t" * 45, "components": [row(text_input)]})
    with pytest.raises(DiscordError):
        check_modal({"custom_id": "m", "title": "t" * 46, "components": [row(text_input)]})
    with pytest.raises(DiscordError):
        check_modal({"custom_id": "m", "title": "t", "components": [row(text_input)] * 6})

"""Small helpers for text a student reads."""

from __future__ import annotations

from henkit.checks import whole


def count(n: int, singular: str, plural: str | None = None) -> str:
    """'1 serving', '2 servings', '1 die', '3 dice' (give `plural` when it is not singular + s)."""
    n = whole(n, "n")
    if not isinstance(singular, str) or not (plural is None or isinstance(plural, str)):
        raise ValueError(f"the words must be text, not {singular!r} and {plural!r}")
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"

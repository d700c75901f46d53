"""Small helpers for text a student reads."""

from __future__ import annotations


def count(n: int, singular: str, plural: str | None = None) -> str:
    """'1 serving', '2 servings', '1 die', '3 dice' (give `plural` when it is not singular + s)."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"

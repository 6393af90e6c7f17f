"""R61: the public screens show a name only as the room's display-name policy allows."""

from __future__ import annotations


def public_name(first: str, last: str, policy: str) -> str:
    first, last = first.strip(), last.strip()
    if policy == "full":
        return f"{first} {last}".strip()
    if policy == "initials":
        return "".join(f"{part[0].upper()}." for part in (first, last) if part)
    return f"{first} {last[0].upper()}." if last else first

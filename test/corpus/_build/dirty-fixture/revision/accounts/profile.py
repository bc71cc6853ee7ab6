"""Profile page helpers."""

import unicodedata


def initials(name: str) -> str:
    return "".join(part[0].upper() for part in name.split() if part)


def display_name(name: str) -> str:
    """The name as shown on the profile page: NFC-normalised, single spaces, at most 40 characters."""
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    return cleaned if len(cleaned) <= 40 else cleaned[:39] + "…"

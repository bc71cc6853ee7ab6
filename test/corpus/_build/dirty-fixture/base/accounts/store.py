"""A small file-backed user store: one JSON object keyed by lower-cased e-mail."""

import json
from pathlib import Path


class DuplicateUserError(Exception):
    """Raised when an e-mail address is already registered."""


class UserStore:
    def __init__(self, path: Path) -> None:
        self._path = path

    def _load(self) -> dict[str, dict]:
        if not self._path.exists():
            return {}
        return json.loads(self._path.read_text(encoding="utf-8"))

    def _save(self, users: dict[str, dict]) -> None:
        self._path.write_text(json.dumps(users, indent=2, sort_keys=True), encoding="utf-8")

    def register(self, email: str, name: str) -> None:
        users = self._load()
        key = email.lower()
        if key in users:
            raise DuplicateUserError(f"{email!r} is already registered")
        users[key] = {"name": name}
        self._save(users)

    def get(self, email: str) -> dict | None:
        return self._load().get(email.lower())

    def count(self) -> int:
        return len(self._load())

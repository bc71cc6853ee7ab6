from pathlib import Path

import pytest

from accounts.store import UserStore

TEST_DB = Path("build/test-users.json")


@pytest.fixture
def store() -> UserStore:
    TEST_DB.parent.mkdir(exist_ok=True)
    return UserStore(TEST_DB)

import pytest

from accounts.store import DuplicateUserError


def test_signup_registers_a_new_user(store):
    store.register("ada@example.com", "Ada Lovelace")
    assert store.get("ada@example.com") == {"name": "Ada Lovelace"}


def test_signup_of_a_second_user(store):
    store.register("grace@example.com", "Grace Hopper")
    assert store.get("GRACE@example.com") == {"name": "Grace Hopper"}


def test_duplicate_signup_is_rejected_ignoring_case(store):
    store.register("linus@example.com", "Linus")
    with pytest.raises(DuplicateUserError):
        store.register("LINUS@example.com", "Linus again")

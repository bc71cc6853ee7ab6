from accounts.profile import initials


def test_initials_of_a_full_name():
    assert initials("Ada Lovelace") == "AL"

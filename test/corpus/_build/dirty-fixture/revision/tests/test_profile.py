from accounts.profile import display_name, initials


def test_initials_of_a_full_name():
    assert initials("Ada Lovelace") == "AL"


def test_display_name_collapses_spaces():
    assert display_name("  Ada   Lovelace ") == "Ada Lovelace"


def test_display_name_is_cut_at_40_characters():
    assert display_name("x" * 50) == "x" * 39 + "…"

"""User accounts: sign-up and profiles."""

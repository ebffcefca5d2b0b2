"""Accounts: passwords and session tokens, and the throttles on logins and sign-ups."""

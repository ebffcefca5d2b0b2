"""Moderation: who is muted or banned, as each process sees it."""

"""Tournaments on the server: the service, its store and the arena."""

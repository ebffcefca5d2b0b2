"""Chouettes on the server: the service, its store, bots, codec and dice."""

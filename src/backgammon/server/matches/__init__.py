"""Matches: the live match, its legal plays, its dice and the players' histories."""

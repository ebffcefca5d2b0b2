"""The FIBS front end: FIBS clients and bots (CLIP, the FIBS Client Protocol) connect
to the same game service as the web, over a line-based TCP listener.

:mod:`~backgammon.server.fibs.clip` formats CLIP's lines (pure functions);
:mod:`~backgammon.server.fibs.session` is one telnet connection (its loop, login and
dispatch), over :mod:`~backgammon.server.fibs.state` (the login's state and output);
the commands by family are :mod:`~backgammon.server.fibs.commands_play`,
:mod:`~backgammon.server.fibs.commands_info` and
:mod:`~backgammon.server.fibs.commands_social`, in one table
(:mod:`~backgammon.server.fibs.commands`); the service's events are told by
:mod:`~backgammon.server.fibs.telling` (a match) and
:mod:`~backgammon.server.fibs.events` (the rest);
:mod:`~backgammon.server.fibs.lobby_feed` writes the lobby to every session and
:mod:`~backgammon.server.fibs.listener` accepts connections. ``docs/fibs.md`` says
what is supported and where we differ.
"""

"""The FIBS front end: FIBS clients and bots (CLIP, the FIBS Client Protocol) connect
to the same game service as the web, over a line-based TCP listener.

:mod:`~backgammon.server.fibs.clip` formats CLIP's lines (pure functions);
:mod:`~backgammon.server.fibs.session` is one telnet connection (login, commands,
the service's events told as FIBS tells them); :mod:`~backgammon.server.fibs.listener`
accepts connections. ``docs/fibs.md`` says what is supported and where we differ.
"""

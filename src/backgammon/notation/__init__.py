"""Pure text codecs over plain data: move notation, Position ID, Match ID, XGID, FIBS
board strings and ASCII diagrams.

Every codec is an exact parse/format pair that works on ints and tuples and imports
nothing from the package but :mod:`backgammon.errors`; :mod:`backgammon.rules` builds
its value objects' text forms on them.
"""

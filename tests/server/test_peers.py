"""The bookkeeping of the other server processes and their users
(:class:`~backgammon.server.lobby.peers.Peers`): who is connected where, and the
expiry of a process that fell silent (issue 53, item 2)."""

from __future__ import annotations

from backgammon.server.lobby.peers import EXPIRE_SECONDS, Peers

ALICE = {"name": "alice", "kind": "user", "bot_level": None}
BOB = {"name": "bob", "kind": "user", "bot_level": None}


def _two_processes() -> Peers:
    """Processes a (alice) and b (bob), both heard at time 0."""
    peers = Peers()
    for origin, user_id, public in (("a", 1, ALICE), ("b", 2, BOB)):
        peers.heard(origin, 0.0)
        peers.online(origin, user_id, public)
    return peers


def test_a_user_is_connected_elsewhere_while_any_process_holds_them() -> None:
    peers = _two_processes()
    peers.online("b", 1, ALICE)
    assert sorted(peers.items(), key=lambda item: item[0]) == [(1, ALICE), (2, BOB)]
    peers.offline("a", 1)
    assert 1 in peers
    peers.offline("b", 1)
    peers.offline("b", 1)  # twice changes nothing
    assert 1 not in peers and 2 in peers


def test_a_silent_process_expires_with_its_users() -> None:
    peers = _two_processes()
    peers.heard("b", EXPIRE_SECONDS)
    assert peers.expire(EXPIRE_SECONDS) == []
    assert peers.expire(EXPIRE_SECONDS + 0.5) == [(1, ALICE)]
    assert 1 not in peers and 2 in peers
    assert peers.expire(EXPIRE_SECONDS + 0.5) == []
    # Heard again after it was taken for dead: its roster is to be asked for.
    assert peers.heard("a", EXPIRE_SECONDS + 1.0) is True
    assert peers.heard("a", EXPIRE_SECONDS + 2.0) is False


def test_a_goodbye_drops_a_process_users_at_once() -> None:
    peers = _two_processes()
    assert peers.forget("a") == [(1, ALICE)]
    assert 1 not in peers
    assert peers.expire(100.0) == [(2, BOB)]  # only b was still heard of

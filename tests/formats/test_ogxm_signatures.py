"""The signatures an OGXM file carries: one that holds, one made by another key, one
over bytes changed since, a reference-writer file with placeholder signatures, and the
CLI as typed."""

from __future__ import annotations

import base64
from pathlib import Path

import ogxm
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from ogxm.signature import match_payload
from typer.testing import CliRunner

from backgammon import MatchFileError
from backgammon.apps.cli import app
from backgammon.formats import read_match
from backgammon.formats.ogxm import write_ogxm
from backgammon.formats.ogxm_signatures import OgxmSignature, check_signatures, signatures_in

DATA = Path(__file__).parents[1] / "data"
MATCH = DATA / "xg" / "gammonview" / "XCu3RJ0UvDg_Tldl.mat"
FOREIGN = DATA / "ogxm" / "gammonview" / "foreign.ogxm"


def _raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def signed(key: Ed25519PrivateKey, *, rename: str | None = None, key_id: str = "club") -> bytes:
    """Our file of a real match with a match signature by ``key`` under ``key_id`` (the
    player renamed after signing, with ``rename``)."""
    document = ogxm.binary_to_json(write_ogxm(read_match(MATCH)))
    signature = {
        "algorithm": "ed25519",
        "key_id": key_id,
        "public_key": base64.b64encode(_raw(key)).decode(),
        "signature": base64.b64encode(bytes(64)).decode(),
    }
    document["match_signatures"] = [signature]
    signature["signature"] = base64.b64encode(key.sign(match_payload(document, 0))).decode()
    if rename is not None:
        document["player_black"] = rename
    return bytes(ogxm.json_to_binary(document))


def test_a_signature_that_holds_and_one_by_another_key() -> None:
    key = Ed25519PrivateKey.generate()
    data = signed(key)
    assert check_signatures(data) == (OgxmSignature("match", 0, "club", True),)
    assert check_signatures(data, keys=[_raw(key)])[0].valid
    assert not check_signatures(data, keys=[_raw(Ed25519PrivateKey.generate())])[0].valid


def test_a_signature_over_changed_bytes_does_not_hold() -> None:
    data = signed(Ed25519PrivateKey.generate(), rename="Mallory")
    assert check_signatures(data) == (OgxmSignature("match", 0, "club", False),)


def test_placeholder_signatures_of_the_reference_writer_do_not_hold() -> None:
    found = check_signatures(FOREIGN.read_bytes())
    assert [(s.covers, s.valid) for s in found if s.covers == "match"] == [
        ("match", False),
        ("match", False),
    ]
    assert any(s.covers == "analysis" for s in found)
    assert not any(s.valid for s in found)


def test_an_unsigned_file_has_no_signatures_and_bad_bytes_are_our_error() -> None:
    assert check_signatures(write_ogxm(read_match(MATCH))) == ()
    with pytest.raises(MatchFileError, match="not a readable OGXM file"):
        check_signatures(b"OGXM" + bytes(40), path="bad.ogxm")


def test_cli_says_whether_each_signature_holds(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.ogxm", tmp_path / "bad.ogxm"
    good.write_bytes(signed(Ed25519PrivateKey.generate()))
    bad.write_bytes(signed(Ed25519PrivateKey.generate(), rename="Mallory"))
    runner = CliRunner()
    held = runner.invoke(app, ["convert", str(good), str(tmp_path / "good.mat")])
    assert held.exit_code == 0, held.output
    assert "match signature 1 ('club'): holds (integrity only" in held.stderr
    broken = runner.invoke(app, ["convert", str(bad), str(tmp_path / "bad.mat")])
    assert broken.exit_code == 0, broken.output
    assert "match signature 1 ('club'): DOES NOT HOLD" in broken.stderr
    assert read_match(tmp_path / "bad.mat").info.players[1] == "Mallory"
    plain = runner.invoke(app, ["convert", str(MATCH), str(tmp_path / "plain.ogxm")])
    again = runner.invoke(app, ["convert", str(tmp_path / "plain.ogxm"), str(tmp_path / "p.mat")])
    assert plain.exit_code == again.exit_code == 0 and "signature" not in again.stderr


def test_analyzing_a_stream_names_the_match_whose_signature_fails(tmp_path: Path) -> None:
    stream = tmp_path / "club.ogxms"
    key = Ed25519PrivateKey.generate()
    stream.write_bytes(signed(key) + write_ogxm(read_match(MATCH)) + signed(key, rename="X"))
    found = dict(signatures_in(stream))
    assert sorted(found) == ["club.ogxms#1", "club.ogxms#3"]
    assert found["club.ogxms#1"][0].valid and not found["club.ogxms#3"][0].valid
    result = CliRunner().invoke(app, ["analyze", str(stream), "--processes", "1"])
    assert result.exit_code == 0, result.output
    assert "club.ogxms#1: match signature 1 ('club'): holds" in result.stderr
    assert "club.ogxms#3: match signature 1 ('club'): DOES NOT HOLD" in result.stderr
    assert "club.ogxms#3" in result.stdout and "all (3)" in result.stdout

"""The SQL endpoint's users file: salted hashes, roles, owner-only, never a password."""

from __future__ import annotations

import stat

import pytest

from lake.storage import LakeError
from lake.users import add_user, check_password, load_users, remove_user, users_file


def test_a_user_is_stored_as_a_salted_hash_readable_by_its_owner_only(tmp_path):
    add_user(tmp_path, "ana", "a long password", "reader")
    add_user(tmp_path, "wes", "another password", "writer")
    text = users_file(tmp_path).read_text()
    assert "a long password" not in text and "another password" not in text
    assert stat.S_IMODE(users_file(tmp_path).stat().st_mode) == 0o600
    assert {u.name: u.role for u in load_users(tmp_path).values()} == {
        "ana": "reader",
        "wes": "writer",
    }
    assert check_password(tmp_path, "ana", "a long password")
    assert not check_password(tmp_path, "ana", "another password")
    assert not check_password(tmp_path, "nobody", "a long password")
    # Two users with one password get different hashes (a salt each).
    add_user(tmp_path, "eve", "a long password")
    users = load_users(tmp_path)
    assert users["eve"].hash != users["ana"].hash


def test_changing_and_removing_users(tmp_path):
    add_user(tmp_path, "ana", "first password")
    add_user(tmp_path, "ana", "second password", "writer")
    assert load_users(tmp_path)["ana"].role == "writer"
    assert check_password(tmp_path, "ana", "second password")
    assert not check_password(tmp_path, "ana", "first password")
    remove_user(tmp_path, "ana")
    assert load_users(tmp_path) == {}
    with pytest.raises(LakeError, match="no user 'ana'; users: none"):
        remove_user(tmp_path, "ana")


@pytest.mark.parametrize(
    ("name", "password", "role", "message"),
    [
        ("a:b", "long enough", "reader", "user name 'a:b'"),
        ("ana", "short", "reader", "8 characters at least"),
        ("ana", "long enough", "admin", "role 'admin': one of reader, writer"),
    ],
)
def test_bad_users_are_refused_with_a_reason(tmp_path, name, password, role, message):
    with pytest.raises(LakeError, match=message):
        add_user(tmp_path, name, password, role)
    assert not users_file(tmp_path).exists()

"""The SQL endpoint's users: names, roles and salted password hashes in the warehouse.

`<warehouse>/_sql/users` holds one line per user, `name:role:iterations:salt:hash` (PBKDF2 with
HMAC-SHA256; salt and hash in hex), readable by its owner only. `claimhouse users add | remove |
list` manage it; the server's authenticator (java/claimhouse/sql/Users.java) reads the same
file and re-reads it when it changes. Passwords are never stored, logged or passed on a
command line.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from lake.storage import LakeError

ROLES = ("reader", "writer")
ITERATIONS = 200_000
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class User:
    name: str
    role: str
    iterations: int
    salt: str
    hash: str


def users_file(warehouse: Path) -> Path:
    return warehouse / "_sql" / "users"


def load_users(warehouse: Path) -> dict[str, User]:
    path = users_file(warehouse)
    if not path.exists():
        return {}
    users = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.strip().split(":")
        if len(parts) == 5:
            users[parts[0]] = User(parts[0], parts[1], int(parts[2]), parts[3], parts[4])
    return users


def _hash(password: str, salt: bytes, iterations: int) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations, 32).hex()


def add_user(warehouse: Path, name: str, password: str, role: str = "reader") -> User:
    """Add or replace a user; returns it."""
    if not _NAME.match(name):
        raise LakeError(
            f"user name {name!r}: use letters, digits, '_', '.' or '-' (64 at most), "
            "starting with a letter or '_'"
        )
    if role not in ROLES:
        raise LakeError(f"role {role!r}: one of {', '.join(ROLES)}")
    if len(password) < 8:
        raise LakeError("the password must have 8 characters at least")
    salt = secrets.token_bytes(16)
    user = User(name, role, ITERATIONS, salt.hex(), _hash(password, salt, ITERATIONS))
    users = load_users(warehouse)
    users[name] = user
    _write(warehouse, users)
    return user


def remove_user(warehouse: Path, name: str) -> None:
    users = load_users(warehouse)
    if name not in users:
        raise LakeError(f"no user {name!r}; users: {', '.join(sorted(users)) or 'none'}")
    del users[name]
    _write(warehouse, users)


def check_password(warehouse: Path, name: str, password: str) -> bool:
    """What the server's authenticator checks, in Python (tests hold the two to each other)."""
    user = load_users(warehouse).get(name)
    if user is None:
        return False
    got = _hash(password, bytes.fromhex(user.salt), user.iterations)
    return hmac.compare_digest(got, user.hash)


def _write(warehouse: Path, users: dict[str, User]) -> None:
    """Write and rename: the server never reads a half-written file."""
    path = users_file(warehouse)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    temporary = path.with_name(f".users.{os.getpid()}")
    lines = [f"{u.name}:{u.role}:{u.iterations}:{u.salt}:{u.hash}\n" for u in users.values()]
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.writelines(sorted(lines))
    os.replace(temporary, path)

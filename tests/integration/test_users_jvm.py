"""The server's authenticator (java/claimhouse/sql/Users.java) and lake.users are two readers of
one users file: they must agree on every password and role."""

from __future__ import annotations

from lake.users import add_user, check_password, users_file


def test_the_jvm_and_python_agree_on_passwords_and_roles(spark, tmp_path):
    add_user(tmp_path, "ana", "reader password")
    add_user(tmp_path, "wes", "writer password", "writer")
    jvm = spark.sparkContext._jvm
    jvm.java.lang.System.setProperty("claimhouse.users.file", str(users_file(tmp_path)))
    users = jvm.claimhouse.sql.Users
    cases = [
        ("ana", "reader password"),
        ("ana", "writer password"),
        ("wes", "writer password"),
        ("nobody", "reader password"),
        ("ana", ""),
    ]
    assert (
        [users.check(u, p) for u, p in cases]
        == [check_password(tmp_path, u, p) for u, p in cases]
        == [True, False, True, False, False]
    )
    assert [users.role(u) for u in ("ana", "wes", "nobody")] == ["reader", "writer", "reader"]
    # A changed password takes effect at once: the file is read again when it changes.
    add_user(tmp_path, "ana", "a new password")
    assert not users.check("ana", "reader password")
    assert users.check("ana", "a new password")

"""Bronze's listing of a local folder, and the name rules it pairs articles and sidecars by."""

from __future__ import annotations

import os
from pathlib import PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lake.bronze.ingest import _classify, _pair_stem, list_local, split_suffix
from lake.storage import LakeError

_PART = st.text(alphabet="ab.-_ é", min_size=1, max_size=8).filter(lambda p: p not in (".", ".."))


@given(st.lists(_PART, min_size=1, max_size=4).map("/".join))
def test_split_suffix_names_the_suffix_as_purepath_does(uri):
    path = PurePosixPath(uri)
    assert split_suffix(uri) == (str(path.with_suffix("")), path.suffix)


def test_articles_and_sidecars_pair_by_the_name_before_the_last_dot():
    assert _pair_stem("a/b.v2.TXT") == "a/b.v2"
    assert _pair_stem("a/b.v2.json") == "a/b.v2"
    assert _pair_stem("a.b/c") is None
    assert _pair_stem("a/notes.") is None
    assert _pair_stem("a/.md") is None


def test_a_nested_folder_is_listed_with_sizes_links_and_hidden_names(tmp_path):
    root = tmp_path / "in"
    (root / "one" / "two").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.txt").write_text("never listed")
    (root / ".draft.txt").write_text("never listed")
    (root / "one" / "two" / "café.md").write_text("12345")
    (root / "one" / "a.txt").write_text("123")
    (root / "one" / "a.json").write_text("{}")
    (root / "one" / "b.pdf").write_bytes(b"%PDF")
    (root / "link.txt").symlink_to(root / "one" / "a.txt")
    (root / "loop").symlink_to(root, target_is_directory=True)
    os.mkfifo(root / "pipe.txt")

    listed = list_local(root)

    assert [(f.source_uri, f.size_bytes, f.problem is None) for f in listed] == [
        ("link.txt", 3, True),
        ("loop", 0, False),
        ("one/a.json", 2, True),
        ("one/a.txt", 3, True),
        ("one/b.pdf", 4, True),
        ("one/two/café.md", 5, True),
        ("pipe.txt", 0, False),
    ]
    by_uri = {f.source_uri: f for f in listed}
    assert by_uri["link.txt"].path == f"file:{root.resolve() / 'link.txt'}"
    assert by_uri["loop"].problem.startswith("link to a folder")
    assert by_uri["pipe.txt"].problem.startswith("not a regular file")
    articles, _, sidecars, rejects = _classify(listed, max_file_bytes=4)
    assert [(f.source_uri, s and s.source_uri) for f, s in articles] == [
        ("link.txt", None),
        ("one/a.txt", "one/a.json"),
    ]
    assert sidecars == ["one/a.json"]
    assert {f.source_uri: why.split(":")[0] for f, why in rejects} == {
        "loop": "link to a folder",
        "pipe.txt": "not a regular file (a pipe, socket or device)",
        "one/two/café.md": "file too large (5 bytes, over the 4-byte limit)",
        "one/b.pdf": "unsupported file type '.pdf'",
    }


def test_a_missing_input_folder_is_a_clear_error(tmp_path):
    with pytest.raises(LakeError, match="does not exist"):
        list_local(tmp_path / "nowhere")

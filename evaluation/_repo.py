"""Read files of a fetched repository: a bare git directory (read through git) or a checkout."""

from __future__ import annotations

import subprocess
from pathlib import Path


class RepoReader:
    """Lists and reads files under a path prefix, from HEAD of a bare git dir or a work tree."""

    def __init__(self, path: str | Path, forbidden: tuple[str, ...] = ()) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no repository at {self.path}")
        self.bare = (self.path / "HEAD").is_file() and (self.path / "objects").is_dir()
        # Held-out files: refusing them here means no caller can open one by mistake.
        self.forbidden = forbidden

    def _check(self, rel: str) -> None:
        if any(marker in rel for marker in self.forbidden):
            raise PermissionError(f"{rel} is held out and must not be read")

    def _git(self, *args: str) -> str:
        out = subprocess.run(
            ["git", f"--git-dir={self.path}", *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout

    def list(self, prefix: str) -> list[str]:
        """Paths (relative to the repository root) of the files under prefix, held-out ones
        left out before anyone sees them."""
        prefix = prefix.rstrip("/") + "/"
        self._check(prefix)
        if self.bare:
            names = self._git("ls-tree", "-r", "--name-only", "HEAD", "--", prefix).splitlines()
        else:
            root = self.path / prefix
            names = (
                [str(p.relative_to(self.path)) for p in root.rglob("*") if p.is_file()]
                if root.is_dir()
                else []
            )
        return sorted(n for n in names if not any(m in n for m in self.forbidden))

    def read_text(self, rel: str) -> str:
        self._check(rel)
        if self.bare:
            return self._git("show", f"HEAD:{rel}")
        return (self.path / rel).read_text(encoding="utf-8")

    def exists(self, rel: str) -> bool:
        self._check(rel)
        if self.bare:
            return bool(self._git("ls-tree", "--name-only", "HEAD", "--", rel).strip())
        return (self.path / rel).is_file()

"""Rebuild BASIL's articles as the plain-text files (and JSON sidecars) claimhouse ingests.

    python -m evaluation.basil.rebuild --repo /path/to/BASIL --out /tmp/basil [--events ID ...]

``--repo`` is a fetched copy of launchnlp/BASIL: a bare git directory (read through
``git show HEAD:...``) or a checkout. Each article becomes ``<event>_<outlet>.txt``
(the title, a blank line, then the paragraphs separated by blank lines; the sentences of a
paragraph joined by one space) and ``<event>_<outlet>.json`` (outlet, title, published_at,
url). The text is already in claimhouse's canonical form (``normalize_body``), so the
offsets of ``extract_claims`` on the ingested body are offsets into the file.

The output is a pure function of BASIL's JSON: the hand labels under ``labels/`` quote
substrings of it and stay valid as long as this file's text layout does not change.

The held-out events below are never read: they are dropped by file name before any file is
opened, and (as a second guard) by their date after.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

# Held out of every development use: never read, rebuilt, labelled or scored.
HELD_OUT_EVENTS = frozenset(
    {
        "f506aafc-8b43-427a-936e-bbd1ef33e076",
        "6e502405-bc90-4416-a787-3122918aa648",
        "3ae35b16-7f7f-4a5e-9f24-5ce724106a73",
    }
)
HELD_OUT_DATES = frozenset({"2013-02-20", "2015-07-31", "2019-02-15"})

OUTLETS = {"hpo": "HuffPost", "fox": "Fox News", "nyt": "The New York Times"}

_ARTICLE_PATH = re.compile(r"^articles/(?P<year>\d{4})/(?P<event>[0-9a-f-]{36})_(?P<n>\d+)\.json$")


def is_held_out(event_id: str, date: str | None = None) -> bool:
    return event_id in HELD_OUT_EVENTS or (date is not None and date[:10] in HELD_OUT_DATES)


def normalize_body(text: str) -> str:
    """The same canonical form as lake.bronze.parse.normalize_body (NFC, LF, stripped)."""
    text = unicodedata.normalize("NFC", text.removeprefix("\ufeff"))
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


@dataclass(frozen=True)
class Article:
    event_id: str
    outlet_key: str  # hpo / fox / nyt
    title: str
    published_at: str  # ISO date
    url: str | None
    text: str  # normalized body: title, blank line, paragraphs

    @property
    def stem(self) -> str:
        return f"{self.event_id}_{self.outlet_key}"

    def sidecar(self) -> dict[str, str]:
        meta = {
            "outlet": OUTLETS[self.outlet_key],
            "title": self.title,
            "published_at": self.published_at,
        }
        if self.url:
            meta["url"] = self.url
        return meta


class BasilRepo:
    """Reads BASIL's article JSON from a bare git dir or a checkout; never a held-out file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no BASIL copy at {self.path}")
        self.bare = (self.path / "HEAD").is_file() and (self.path / "objects").is_dir()

    def _git(self, *args: str) -> str:
        return subprocess.run(
            ["git", f"--git-dir={self.path}", *args], capture_output=True, text=True, check=True
        ).stdout

    def article_paths(self) -> list[str]:
        if self.bare:
            names = self._git("ls-tree", "-r", "--name-only", "HEAD", "--", "articles/")
            paths = names.splitlines()
        else:
            paths = [p.relative_to(self.path).as_posix() for p in self.path.glob("articles/*/*")]
        keep = []
        for p in sorted(paths):
            m = _ARTICLE_PATH.match(p)
            if m and not is_held_out(m.group("event")):
                keep.append(p)
        return keep

    def read(self, rel: str) -> dict:
        m = _ARTICLE_PATH.match(rel)
        if not m or is_held_out(m.group("event")):
            raise PermissionError(f"{rel} is not a readable BASIL article")
        if self.bare:
            raw = self._git("show", f"HEAD:{rel}")
        else:
            raw = (self.path / rel).read_text(encoding="utf-8")
        return json.loads(raw)


def _clean(sentence: str) -> str:
    return " ".join(sentence.split())


def article_text(title: str, paragraphs: list[list[str]]) -> str:
    blocks = [_clean(title)]
    for para in paragraphs:
        sentences = [_clean(s) for s in (para if isinstance(para, list) else [para])]
        joined = " ".join(s for s in sentences if s)
        if joined:
            blocks.append(joined)
    return normalize_body("\n\n".join(blocks))


def to_article(data: dict) -> Article:
    outlet = str(data["source"]).strip().lower()
    if outlet not in OUTLETS:
        raise ValueError(f"unknown BASIL source {data['source']!r}")
    return Article(
        event_id=data["triplet-uuid"],
        outlet_key=outlet,
        title=_clean(data["title"]),
        published_at=str(data["date"])[:10],
        url=(data.get("url") or "").strip() or None,
        text=article_text(data["title"], data["body-paragraphs"]),
    )


def load_articles(repo: str | Path, events: list[str] | None = None) -> list[Article]:
    """Every non-held-out article (or those of ``events``), sorted by event then outlet."""
    basil = BasilRepo(repo)
    wanted = set(events or [])
    refused = wanted & HELD_OUT_EVENTS
    if refused:
        raise PermissionError(f"held-out event(s) requested: {sorted(refused)}")
    out = []
    for rel in basil.article_paths():
        event = _ARTICLE_PATH.match(rel).group("event")  # type: ignore[union-attr]
        if wanted and event not in wanted:
            continue
        article = to_article(basil.read(rel))
        if is_held_out(article.event_id, article.published_at):
            continue
        out.append(article)
    return sorted(out, key=lambda a: (a.event_id, a.outlet_key))


def write_articles(articles: list[Article], out: str | Path) -> list[Path]:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for a in articles:
        txt = folder / f"{a.stem}.txt"
        txt.write_text(a.text + "\n", encoding="utf-8", newline="\n")
        (folder / f"{a.stem}.json").write_text(
            json.dumps(a.sidecar(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        written.append(txt)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--repo", required=True, help="fetched launchnlp/BASIL (bare git dir or checkout)"
    )
    ap.add_argument("--out", required=True, help="folder for <event>_<outlet>.txt/.json")
    ap.add_argument("--events", nargs="*", help="only these BASIL event ids (triplet-uuid)")
    args = ap.parse_args(argv)
    if Path(args.out).resolve().is_relative_to(Path(__file__).resolve().parents[2]):
        print("refusing to write BASIL's texts inside the project tree: use /tmp", file=sys.stderr)
        return 2
    articles = load_articles(args.repo, args.events)
    write_articles(articles, args.out)
    events = {a.event_id for a in articles}
    print(f"wrote {len(articles)} articles of {len(events)} events to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

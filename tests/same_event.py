"""One invented event reported by eight articles, written for claimhouse's tests, and the input
folders that give them: as .txt files with .json sidecars, and as HTML pages, a JSON Lines file,
a Parquet file and a WARC file. Each folder is written from ARTICLES, the one source of truth.
"""

from __future__ import annotations

import html
import io
import json
from pathlib import Path

# name: the .txt file's stem; form: how the formats folder holds it. The first line of a
# body is its headline (a page shows it as <h1>).
ARTICLES = [
    {
        "name": "courier",
        "form": "html",
        "outlet": "Valley Courier",
        "title": "Kestrel rail tunnel opens to passengers",
        "published_at": "2026-03-03T09:00:00+00:00",
        "url": "https://valley-courier.example/news/kestrel-tunnel-opens",
        "body": (
            "Kestrel rail tunnel opens to passengers\n"
            "The Kestrel rail tunnel opened to passengers on Tuesday after six years of "
            "construction that cost $1.8 billion, the regional transport board said.\n"
            "The 9.4 km tunnel cuts the trip between Alder Falls and Pine Harbor to 22 "
            "minutes, and the board expects about 14,000 passengers a day in its first year.\n"
            "Around 420 workers were on site at the height of the works."
        ),
    },
    {
        "name": "gazette",
        "form": "htm",
        "outlet": "Harbor Gazette",
        "title": "First trains run through Kestrel tunnel",
        "published_at": "2026-03-03T11:30:00+00:00",
        "url": "https://harbor-gazette.example/2026/03/03/kestrel",
        "body": (
            "First trains run through Kestrel tunnel\n"
            "The first passenger trains ran through the 9.4 km Kestrel tunnel on Tuesday, "
            "ending six years of construction.\n"
            "The project cost $1.8 billion, according to the regional transport board, "
            "which expects 14,000 passengers a day."
        ),
    },
    {
        "name": "ledger",
        "form": "jsonl",
        "outlet": "pine-ledger.example",
        "title": "Kestrel tunnel: what commuters need to know",
        "published_at": "2026-03-03T14:00:00+00:00",
        "url": "https://www.pine-ledger.example/kestrel-commuters",
        "body": (
            "Kestrel tunnel: what commuters need to know\n"
            "Trains through the new Kestrel tunnel run every 15 minutes at peak times, the "
            "operator said on Tuesday.\n"
            "A single fare costs $4.50, and the journey from Alder Falls to Pine Harbor now "
            "takes 22 minutes.\n"
            "The transport board expects about 14,000 passengers a day."
        ),
    },
    {
        "name": "wire",
        "form": "jsonl",
        "outlet": "northwire.example",
        "title": "Transport board opens $1.8 billion Kestrel tunnel",
        "published_at": "2026-03-03T08:15:00+00:00",
        "url": "https://northwire.example/a/kestrel-opening",
        "body": (
            "Transport board opens $1.8 billion Kestrel tunnel\n"
            "ALDER FALLS - The regional transport board opened the $1.8 billion Kestrel "
            "rail tunnel on Tuesday.\n"
            "About 420 workers built the 9.4 km tunnel over six years, the board said."
        ),
    },
    {
        "name": "tribune",
        "form": "parquet",
        "outlet": "Alder Tribune",
        "title": "Kestrel tunnel ends a long wait for Alder Falls",
        "published_at": "2026-03-04T07:00:00+00:00",
        "url": "https://alder-tribune.example/kestrel-wait",
        "body": (
            "Kestrel tunnel ends a long wait for Alder Falls\n"
            "Residents of Alder Falls waited six years for the Kestrel tunnel, which opened "
            "on Tuesday at a cost of $1.8 billion.\n"
            "The trip to Pine Harbor now takes 22 minutes, down from 55 minutes by road."
        ),
    },
    {
        "name": "review",
        "form": "parquet",
        "outlet": "Coastal Review",
        "title": "Kestrel tunnel opening draws crowds",
        "published_at": "2026-03-03T18:45:00+00:00",
        "url": "https://coastal-review.example/kestrel-crowds",
        "body": (
            "Kestrel tunnel opening draws crowds\n"
            "More than 3,000 people rode the first trains through the Kestrel tunnel on "
            "Tuesday, the operator said.\n"
            "The regional transport board expects 14,000 passengers a day once the line is "
            "fully running."
        ),
    },
    {
        "name": "observer",
        "form": "warc",
        "outlet": "Pine Harbor Observer",
        "title": "Pine Harbor welcomes Kestrel trains",
        "published_at": "2026-03-03T16:20:00+00:00",
        "url": "https://observer.example/pine-harbor-kestrel",
        "body": (
            "Pine Harbor welcomes Kestrel trains\n"
            "Pine Harbor welcomed the first Kestrel trains on Tuesday, six years after "
            "construction began.\n"
            "The 9.4 km tunnel cost $1.8 billion and employed about 420 workers at its peak."
        ),
    },
    {
        # No canonical link in the page: its url is the WARC-Target-URI.
        "name": "bulletin",
        "form": "warc",
        "canonical": False,
        "outlet": "Falls Bulletin",
        "title": "Kestrel tunnel fares set at $4.50",
        "published_at": "2026-03-02T10:00:00+00:00",
        "url": "https://falls-bulletin.example/kestrel-fares",
        "body": (
            "Kestrel tunnel fares set at $4.50\n"
            "A single fare through the Kestrel tunnel will cost $4.50, the operator said on "
            "Monday, a day before the opening.\n"
            "Trains will run every 15 minutes at peak times."
        ),
    },
]


def sidecar(article: dict) -> dict:
    return {k: article[k] for k in ("outlet", "title", "published_at", "url")}


def write_text_folder(folder: Path) -> Path:
    """Each article as <name>.txt and its <name>.json sidecar."""
    folder.mkdir(parents=True, exist_ok=True)
    for a in ARTICLES:
        (folder / f"{a['name']}.txt").write_text(a["body"] + "\n", encoding="utf-8")
        (folder / f"{a['name']}.json").write_text(json.dumps(sidecar(a)), encoding="utf-8")
    return folder


def page(article: dict) -> bytes:
    """The article as a news site's HTML page: menu, article, related links."""
    headline, *paragraphs = article["body"].split("\n")
    esc = html.escape
    canonical = (
        f'<link rel="canonical" href="{esc(article["url"])}">'
        if article.get("canonical", True)
        else ""
    )
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{esc(article['title'])} | {esc(article['outlet'])}</title>"
        f'<meta property="og:title" content="{esc(article["title"])}">'
        f'<meta property="og:site_name" content="{esc(article["outlet"])}">'
        f'<meta property="article:published_time" content="{esc(article["published_at"])}">'
        f"{canonical}</head><body>"
        "<nav><ul><li><a href='/'>Home</a></li><li><a href='/local'>Local</a></li></ul></nav>"
        f"<main><article><h1>{esc(headline)}</h1>"
        + "".join(f"<p>{esc(p)}</p>" for p in paragraphs)
        + "</article></main>"
        "<aside><h2>Related</h2><ul><li><a href='/x'>Weather this week</a></li></ul></aside>"
        "</body></html>"
    ).encode()


def news_please(article: dict) -> dict:
    """The article as news-please writes it (its field names)."""
    return {
        "title": article["title"],
        "maintext": article["body"],
        "date_publish": article["published_at"].replace("T", " ").removesuffix("+00:00"),
        "source_domain": article["outlet"],
        "url": article["url"],
        "language": "en",
        "authors": [],
    }


# Lines of the JSON Lines file that are no article, by line number: what they become.
BROKEN_LINES = {
    2: '{"title": "cut short", "maintext": "The tunnel',
    4: '{"title": "no text here", "url": "https://x.example/1"}',
}


def write_formats_folder(folder: Path) -> Path:
    """The same articles as HTML pages, news.jsonl (with BROKEN_LINES among them),
    news.parquet and crawl.warc.gz (with a request, a metadata and an image record)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    folder.mkdir(parents=True, exist_ok=True)
    by_form: dict[str, list[dict]] = {}
    for a in ARTICLES:
        by_form.setdefault(a["form"], []).append(a)
    for a in by_form["html"] + by_form["htm"]:
        (folder / f"{a['name']}.{a['form']}").write_bytes(page(a))
    lines = [json.dumps(news_please(a)) for a in by_form["jsonl"]]
    for number in sorted(BROKEN_LINES):
        lines.insert(number - 1, BROKEN_LINES[number])
    (folder / "news.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [news_please(a) for a in by_form["parquet"]]
    table = pa.table({k: [r[k] for r in rows] for k in ("title", "maintext", "source_domain")})
    table = table.append_column(
        "date_publish", pa.array([r["date_publish"] for r in rows], pa.string())
    ).append_column("url", pa.array([r["url"] for r in rows], pa.string()))
    pq.write_table(table, folder / "news.parquet")
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    writer.write_record(writer.create_warcinfo_record("crawl.warc.gz", {"software": "tests"}))
    for a in by_form["warc"]:
        writer.write_record(
            writer.create_warc_record(
                a["url"],
                "request",
                payload=io.BytesIO(b""),
                http_headers=StatusAndHeaders(
                    f"GET {a['url']} HTTP/1.1", [("Host", "example")], is_http_request=True
                ),
            )
        )
        writer.write_record(
            writer.create_warc_record(
                a["url"],
                "response",
                payload=io.BytesIO(page(a)),
                http_headers=StatusAndHeaders(
                    "200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1"
                ),
            )
        )
    writer.write_record(
        writer.create_warc_record(
            "https://observer.example/logo.png",
            "response",
            payload=io.BytesIO(b"\x89PNG\r\n\x1a\n" + bytes(64)),
            http_headers=StatusAndHeaders(
                "200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1"
            ),
        )
    )
    writer.write_record(
        writer.create_warc_record(
            "https://observer.example/pine-harbor-kestrel",
            "metadata",
            payload=io.BytesIO(b"outlinks: 3\n"),
            warc_content_type="application/warc-fields",
        )
    )
    (folder / "crawl.warc.gz").write_bytes(buffer.getvalue())
    return folder

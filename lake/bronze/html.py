"""Pure functions: an HTML page's text -> its main text and the metadata it states.

trafilatura (with htmldate for dates) finds the article among the boilerplate. It is given
a decoded string, never a URL or bytes: it fetches nothing, and decoding stays ours.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

HTML_SUFFIXES = (".html", ".htm")

# htmldate's options (trafilatura passes them on). Measured on tests/fixtures/html:
# - extensive_search off: on, a page without a date in its markup got a date from its body
#   ("construction starts on March 3, 2026" became the publication date); off gives none,
#   and bronze then looks for a "Published:" line as it does for text.
# - deferred_url_extractor: the meta tag's full timestamp wins over the day in the URL path.
# - outputformat with a time and its offset: the default format keeps the day only.
_DATE_PARAMS = {
    "original_date": True,
    "extensive_search": False,
    "deferred_url_extractor": True,
    "outputformat": "%Y-%m-%dT%H:%M:%S%z",
}
# A site name that is only a domain came from the page's URL or a title such as
# "Story | example.com": gold derives the site from the URL itself, so bronze.outlet keeps
# only a name the page states.
_DOMAIN = re.compile(r"[\w-]+(?:\.[\w-]+)+")
# The encoding a page declares, where a browser looks for it: a meta tag near the start.
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([\w.:-]{1,40})""", re.I)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
# Browsers read pages labelled latin-1 or ascii as windows-1252 (the WHATWG encoding spec).
_BROWSER_CODEC = {"latin-1": "cp1252", "ascii": "cp1252"}


@dataclass(frozen=True)
class Page:
    """What trafilatura found in a page: the main text and the metadata the page states."""

    text: str
    title: str | None = None
    outlet: str | None = None
    published_at: str | None = None  # as htmldate wrote it; parsed by the caller
    url: str | None = None


def declared_codec(raw: bytes) -> tuple[str | None, str | None]:
    """(Python codec, None) for a charset the page declares in a meta tag, (None, None) when it
    declares none (or UTF-8/16/32, which decode_text handles), (None, reason) for an unknown
    one."""
    found = _META_CHARSET.search(raw[:4096])
    if not found:
        return None, None
    label = found.group(1).decode("ascii", "replace")
    try:
        codec = codecs.lookup(label).name
    except LookupError:
        return None, (
            f"the page declares charset {label!r}, which is not a known encoding: "
            "re-save the page as UTF-8"
        )
    if codec.startswith(("utf-8", "utf-16", "utf-32")):
        return None, None
    return _BROWSER_CODEC.get(codec, codec), None


def extract_page(html: str) -> Page | None:
    """The page's main text and metadata; None when trafilatura finds no main content.

    favor_precision: measured on tests/fixtures/html, the default mode took a navigation-only
    page's menu ("Home\\nNews\\nSport") for its text; precision finds none there and keeps
    every article paragraph of the test pages. Reader comments are not the article.
    """
    import trafilatura  # here, not at the top: a folder of .txt files never loads lxml

    # lxml refuses a str that carries an XML encoding declaration; the text is decoded already.
    html = _XML_DECLARATION.sub("", html, count=1)
    doc = trafilatura.bare_extraction(
        html,
        favor_precision=True,
        include_comments=False,
        with_metadata=True,
        date_extraction_params=dict(_DATE_PARAMS),
    )
    if doc is None or not (doc.text or "").strip():
        return None
    outlet = doc.sitename
    if outlet and _DOMAIN.fullmatch(outlet):
        outlet = None
    return Page(
        text=doc.text,
        title=doc.title or None,
        outlet=outlet or None,
        published_at=doc.date or None,
        url=doc.url or None,
    )

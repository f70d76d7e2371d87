"""Warehouses on S3-compatible object storage (`s3a://bucket/prefix`).

Spark and Delta reach the tables through Hadoop's S3A connector (`.jars/`, fetched by
scripts/setup); this module is the Python side: the few object operations claimhouse itself
does outside Spark (the writer lock's conditional PUTs, listing a warehouse's tables, reading
a commit file), through S3's REST API signed with AWS Signature Version 4. Credentials are
the standard AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) variables,
read when a request is made and never kept in Settings; S3A reads the same variables.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlparse

import requests

SCHEMES = ("s3a://", "s3://")
_NS = "{http://s3.amazonaws.com/doc/2006-03-01/}"


class ObjectStoreError(Exception):
    """A request the store refused or could not answer; the message says which and why."""


def is_remote(location: object) -> bool:
    return str(location).startswith(SCHEMES)


def normalize(text: str) -> str:
    """'s3a:/bucket/x/' (a URL through pathlib) or 's3://bucket/x' -> 's3a://bucket/x'."""
    value = text.strip()
    for scheme in ("s3a:", "s3:"):
        if value.startswith(scheme):
            rest = value[len(scheme) :].lstrip("/")
            bucket, _, key = rest.partition("/")
            if not bucket:
                raise ValueError("an s3a://bucket/prefix URL")
            key = "/".join(p for p in key.split("/") if p)
            return f"s3a://{bucket}" + (f"/{key}" if key else "")
    return value


@dataclass(frozen=True)
class RemotePath:
    """A location in a bucket, `s3a://bucket/key`: joins with `/` like a Path, and names
    the warehouse's tables for Spark (which reads it through S3A)."""

    url: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "url", normalize(self.url))

    def __str__(self) -> str:
        return self.url

    def __truediv__(self, part: object) -> RemotePath:
        return RemotePath(f"{self.url}/{str(part).strip('/')}")

    @property
    def bucket(self) -> str:
        return urlparse(self.url).netloc

    @property
    def key(self) -> str:
        return urlparse(self.url).path.lstrip("/")

    @property
    def name(self) -> str:
        return self.key.rsplit("/", 1)[-1] if self.key else self.bucket

    @property
    def parent(self) -> RemotePath:
        head = self.key.rsplit("/", 1)[0] if "/" in self.key else ""
        return RemotePath(f"s3a://{self.bucket}/{head}")

    def resolve(self) -> RemotePath:
        return self

    def as_uri(self) -> str:
        return self.url


@dataclass(frozen=True)
class S3Config:
    endpoint: str | None
    region: str
    path_style: bool

    @classmethod
    def of(cls, settings) -> S3Config:
        return cls(settings.s3_endpoint, settings.s3_region, settings.s3_path_style)


class S3Client:
    """The handful of S3 calls claimhouse makes itself, signed with SigV4 from the standard
    AWS_* credential variables."""

    def __init__(self, config: S3Config, environ: Mapping[str, str] | None = None) -> None:
        self.config = config
        env = os.environ if environ is None else environ
        self._access = env.get("AWS_ACCESS_KEY_ID", "")
        self._secret = env.get("AWS_SECRET_ACCESS_KEY", "")
        self._token = env.get("AWS_SESSION_TOKEN", "")
        self._http = requests.Session()

    # --- requests -----------------------------------------------------------------------

    def _url(self, bucket: str, key: str) -> tuple[str, str, str]:
        """(url, host, canonical path) for the object."""
        endpoint = self.config.endpoint or f"https://s3.{self.config.region}.amazonaws.com"
        parsed = urlparse(endpoint)
        path_key = quote(key, safe="/-_.~")
        if self.config.path_style:
            host = parsed.netloc
            path = f"/{bucket}/{path_key}" if key else f"/{bucket}"
        else:
            host = f"{bucket}.{parsed.netloc}"
            path = f"/{path_key}"
        return f"{parsed.scheme}://{host}{path}", host, path

    def request(
        self,
        method: str,
        bucket: str,
        key: str = "",
        body: bytes = b"",
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, str] | None = None,
    ) -> requests.Response:
        url, host, path = self._url(bucket, key)
        now = dt.datetime.now(dt.UTC)
        stamp, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
        payload = hashlib.sha256(body).hexdigest()
        sent = {k.lower(): v for k, v in (headers or {}).items()}
        sent.update({"host": host, "x-amz-date": stamp, "x-amz-content-sha256": payload})
        if self._token:
            sent["x-amz-security-token"] = self._token
        query = "&".join(
            f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}"
            for k, v in sorted((params or {}).items())
        )
        names = sorted(sent)
        canonical = "\n".join(
            [
                method,
                path,
                query,
                "".join(f"{n}:{str(sent[n]).strip()}\n" for n in names),
                ";".join(names),
                payload,
            ]
        )
        scope = f"{day}/{self.config.region}/s3/aws4_request"
        to_sign = "\n".join(
            ["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()]
        )
        key_bytes = ("AWS4" + self._secret).encode()
        for part in (day, self.config.region, "s3", "aws4_request"):
            key_bytes = hmac.new(key_bytes, part.encode(), hashlib.sha256).digest()
        signature = hmac.new(key_bytes, to_sign.encode(), hashlib.sha256).hexdigest()
        sent["authorization"] = (
            f"AWS4-HMAC-SHA256 Credential={self._access}/{scope}, "
            f"SignedHeaders={';'.join(names)}, Signature={signature}"
        )
        try:
            return self._http.request(
                method, url + (f"?{query}" if query else ""), data=body, headers=sent, timeout=30
            )
        except requests.RequestException as exc:
            raise ObjectStoreError(f"{method} s3a://{bucket}/{key}: {exc}") from None

    @staticmethod
    def _check(response: requests.Response, what: str) -> requests.Response:
        if response.status_code >= 300:
            code = _error_code(response.content)
            raise ObjectStoreError(f"{what}: HTTP {response.status_code} {code}".rstrip())
        return response

    # --- objects ------------------------------------------------------------------------

    def get(self, bucket: str, key: str) -> tuple[bytes, str] | None:
        """The object's bytes and ETag, or None when there is none."""
        response = self.request("GET", bucket, key)
        if response.status_code == 404:
            return None
        self._check(response, f"GET s3a://{bucket}/{key}")
        return response.content, response.headers.get("ETag", "")

    def put(
        self,
        bucket: str,
        key: str,
        body: bytes,
        if_none_match: bool = False,
        if_match: str | None = None,
    ) -> str | None:
        """Write the object; with if_none_match only if it does not exist, with if_match only
        if its ETag is still that one. Returns the new ETag, or None when the condition
        failed (HTTP 412, or 409 for a concurrent conditional write)."""
        headers = {}
        if if_none_match:
            headers["If-None-Match"] = "*"
        if if_match is not None:
            headers["If-Match"] = if_match
        response = self.request("PUT", bucket, key, body, headers)
        if response.status_code in (409, 412) and headers:
            return None
        self._check(response, f"PUT s3a://{bucket}/{key}")
        return response.headers.get("ETag", "")

    def delete(self, bucket: str, key: str) -> None:
        response = self.request("DELETE", bucket, key)
        if response.status_code != 404:
            self._check(response, f"DELETE s3a://{bucket}/{key}")

    def create_bucket(self, bucket: str) -> None:
        response = self.request("PUT", bucket)
        if response.status_code != 409:  # BucketAlreadyOwnedByYou
            self._check(response, f"create bucket {bucket}")

    def list(self, bucket: str, prefix: str, delimiter: str | None = None) -> Iterator[str]:
        """Keys under the prefix (with a delimiter: also the common prefixes, ending in it)."""
        for root in self._pages(bucket, prefix, delimiter):
            for item in root.iter(f"{_NS}Contents"):
                yield item.findtext(f"{_NS}Key") or ""
            for item in root.iter(f"{_NS}CommonPrefixes"):
                yield item.findtext(f"{_NS}Prefix") or ""

    def objects(self, bucket: str, prefix: str) -> Iterator[StoredObject]:
        """Every object under the prefix, with its size and last modification."""
        for root in self._pages(bucket, prefix, None):
            for item in root.iter(f"{_NS}Contents"):
                modified = dt.datetime.fromisoformat(
                    (item.findtext(f"{_NS}LastModified") or "").replace("Z", "+00:00")
                )
                yield StoredObject(
                    item.findtext(f"{_NS}Key") or "",
                    int(item.findtext(f"{_NS}Size") or 0),
                    modified.timestamp(),
                )

    def _pages(self, bucket: str, prefix: str, delimiter: str | None) -> Iterator[ET.Element]:
        token = None
        while True:
            params = {"list-type": "2", "prefix": prefix}
            if delimiter:
                params["delimiter"] = delimiter
            if token:
                params["continuation-token"] = token
            response = self._check(
                self.request("GET", bucket, params=params), f"list s3a://{bucket}/{prefix}"
            )
            root = ET.fromstring(response.content)
            yield root
            if root.findtext(f"{_NS}IsTruncated") != "true":
                return
            token = root.findtext(f"{_NS}NextContinuationToken")


@dataclass(frozen=True)
class StoredObject:
    key: str
    size: int
    modified_at: float  # seconds since the epoch


def _error_code(content: bytes) -> str:
    try:
        root = ET.fromstring(content)
    except ET.ParseError:
        return ""
    return " ".join(filter(None, (root.findtext("Code"), root.findtext("Message"))))

"""Data Docs that work offline: GE's pages load their styles and scripts from CDNs, so on a
machine without internet they are unstyled and their index tables empty (bootstrap-table
fills them). `scripts/setup` fetches the same files, at the versions GE's templates name, from
the npm registry into ASSETS_DIR (`python -m lake.contracts.docs_assets`); `localize` copies
them into a Data Docs site and points its pages at them. Without them, a page says what is
missing and still loads from the CDNs.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import shutil
import sys
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from lake.config import REPO_ROOT

ASSETS_DIR = REPO_ROOT / ".docs-assets"
REGISTRY = "https://registry.npmjs.org"
VENDOR = "static/vendor"  # under the site's root


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    integrity: str  # the registry's sha512 of the tarball
    # What GE's templates load: CDN address -> file in the package, and folders a file needs
    files: tuple[tuple[str, str], ...]
    folders: tuple[str, ...] = ()

    @property
    def tarball(self) -> str:
        return f"{REGISTRY}/{self.name}/-/{self.name.split('/')[-1]}-{self.version}.tgz"

    @property
    def folder(self) -> str:
        return f"{self.name.replace('/', '+')}@{self.version}"


def _bootstrap_table(version: str, integrity: str, *files: str) -> Package:
    """bootstrap-table as unpkg serves it: the CDN path is the package's dist/ path."""
    cdn = f"https://unpkg.com/bootstrap-table@{version}/dist/"
    return Package(
        "bootstrap-table", version, integrity, tuple((cdn + f, f"dist/{f}") for f in files)
    )


PACKAGES = (
    Package(
        "bootstrap",
        "4.3.1",
        "sha512-rXqOmH1VilAt2DyPzluTi2blhk17bO7ef+zLLPlWvG494pDxcM234pJ8wTc/6R40UWizAIIMgxjvxZg5kmsbag==",
        (
            (
                "https://maxcdn.bootstrapcdn.com/bootstrap/4.3.1/css/bootstrap.min.css",
                "dist/css/bootstrap.min.css",
            ),
            (
                "https://stackpath.bootstrapcdn.com/bootstrap/4.3.1/js/bootstrap.min.js",
                "dist/js/bootstrap.min.js",
            ),
        ),
    ),
    Package(
        "jquery",
        "3.7.1",
        "sha512-m4avr8yL8kmFN8psrbFFFmB/If14iN5o9nw/NgnnM+kybDJpRsAynV2BsfpTYrTRysYUdADVD7CkUUizgkpLfg==",
        (("https://code.jquery.com/jquery-3.7.1.min.js", "dist/jquery.min.js"),),
    ),
    Package(
        "popper.js",
        "1.12.9",
        "sha512-s0EEi9xiSCdqz9lV4IiVH5yIZnDX/U1t0tCjB+0jXx9jW8lrR7kOpVupiUg175ogqVoudpDXHF1p6dKATCHMeg==",
        (
            (
                "https://cdnjs.cloudflare.com/ajax/libs/popper.js/1.12.9/umd/popper.min.js",
                "dist/umd/popper.min.js",
            ),
        ),
    ),
    _bootstrap_table(
        "1.19.1",
        "sha512-WvV+l1AI/C+zThaKmfHmi/IuayVNB0qdFyEhFx1jyZhO0oLtNJNANkCR3rvJf6Dkh72dsLElxpE/bzK9seEQLA==",
        "bootstrap-table.min.css",
        "bootstrap-table.min.js",
        "extensions/filter-control/bootstrap-table-filter-control.min.js",
    ),
    _bootstrap_table(  # GE's filter-control styles name the release before
        "1.19.0",
        "sha512-L+USHm3X9FKocx/6yngGu12yF6r6s1Ntuc+hoIK2a2QQJjHw5kcySLiE2HY/9sEaSGAOfPbfQOtBH3uKkcpqEA==",
        "extensions/filter-control/bootstrap-table-filter-control.css",
        "extensions/filter-control/bootstrap-table-filter-control.min.css",
    ),
    Package(
        "bootstrap-datepicker",
        "1.9.0",
        "sha512-9rYYbaVOheGYxjOr/+bJCmRPihfy+LkLSg4fIFMT9Od8WwWB/MB50w0JO1eBgKUMbb7PFHQD5uAfI3ArAxZRXA==",
        tuple(
            (f"https://cdnjs.cloudflare.com/ajax/libs/bootstrap-datepicker/1.9.0/{f}", f"dist/{f}")
            for f in ("css/bootstrap-datepicker.min.css", "js/bootstrap-datepicker.min.js")
        ),
    ),
    Package(
        "@forevolve/bootstrap-dark",
        "1.1.0",
        "sha512-A3ucpEpxPoTVO490lZZCfjPXxv832l7mm1IxX3bXyxvgwnPGXDLyh7dWrphXKO8YBAu3EswbBEu3VSW8NRMW3A==",
        (
            (
                "https://cdn.jsdelivr.net/npm/@forevolve/bootstrap-dark@1.1.0/dist/css/"
                "bootstrap-prefers-dark.css",
                "dist/css/bootstrap-prefers-dark.css",
            ),
        ),
    ),
    Package(
        "@fortawesome/fontawesome-free",
        "6.6.0",
        "sha512-60G28ke/sXdtS9KZCpZSHHkCbdsOGEhIUGlwq6yhY74UpTiToIh8np7A8yphhM4BWsvNFtIvLpi4co+h9Mr9Ow==",
        (
            (
                "https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.6.0/css/all.min.css",
                "css/all.min.css",
            ),
        ),
        folders=("webfonts",),  # all.min.css loads ../webfonts/*
    ),
    # GE names the majors only (`vega@5`); these are the newest of each on 2026-12-03.
    Package(
        "vega",
        "5.33.1",
        "sha512-1fArfVDUqVbb5z8n+/nVQb+VNBzx8svY6CrsyTK4Ujm4yrd9I1auoKxBAPXLCavY1LcrbHUskQbGUP8gXOzyQw==",
        (("https://cdn.jsdelivr.net/npm/vega@5", "build/vega.min.js"),),
    ),
    Package(
        "vega-lite",
        "5.23.0",
        "sha512-l4J6+AWE3DIjvovEoHl2LdtCUkfm4zs8Xxx7INwZEAv+XVb6kR6vIN1gt3t2gN2gs/y4DYTs/RPoTeYAuEg6mA==",
        (("https://cdn.jsdelivr.net/npm/vega-lite@5", "build/vega-lite.min.js"),),
    ),
    Package(
        "vega-embed",
        "6.29.0",
        "sha512-PmlshTLtLFLgWtF/b23T1OwX53AugJ9RZ3qPE2c01VFAbgt3/GSNI/etzA/GzdrkceXFma+FDHNXUppKuM0U6Q==",
        (("https://cdn.jsdelivr.net/npm/vega-embed@6", "build/vega-embed.min.js"),),
    ),
)
# GE's own logo is in the site's static/images already; only the navbar asks S3 for it.
_LOGO = re.compile(
    r"https://great-expectations-web-assets\.s3\.us-east-2\.amazonaws\.com/logo-long\.png[^\"']*"
)
_MISSING = (
    '<div style="background:#fff3cd;padding:6px 12px;font-family:sans-serif">This page loads '
    "its styles and scripts from the internet: the offline copies are missing ({assets}). Run "
    "<code>./scripts/setup</code> to fetch them.</div>"
)


def _wanted(package: Package, member: str) -> str | None:
    path = member.removeprefix("package/")
    if any(path == f for _, f in package.files) or any(
        path.startswith(d + "/") for d in package.folders
    ):
        return path
    return None


def fetch(dest: Path = ASSETS_DIR) -> list[str]:
    """Download each package's tarball once, check it against its pinned integrity, and keep
    the files GE's pages load; returns the packages fetched this time."""
    fetched = []
    for package in PACKAGES:
        target = dest / package.folder
        if all((target / f).is_file() for _, f in package.files):
            continue
        with urllib.request.urlopen(package.tarball, timeout=120) as response:
            data = response.read()
        digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        if digest != package.integrity:
            raise RuntimeError(
                f"{package.tarball}: integrity {digest} is not the pinned {package.integrity}"
            )
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                path = _wanted(package, member.name)
                if path and member.isfile():
                    out = partial / path
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(archive.extractfile(member).read())
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
        fetched.append(package.folder)
    return fetched


def _available(assets: Path) -> bool:
    return all((assets / p.folder / f).is_file() for p in PACKAGES for _, f in p.files)


def localize(site: Path, pages: list[Path], assets: Path = ASSETS_DIR) -> None:
    """Point `pages` (HTML files of the Data Docs site at `site`) at copies of their assets
    under the site's static/vendor, copied there once; without the copies, say so on the
    page."""
    vendor = site / VENDOR
    have = _available(assets)
    if have and not _available(vendor):
        shutil.copytree(assets, vendor, dirs_exist_ok=True)
    for page in pages:
        text = page.read_text()
        if have:
            up = "../" * (len(page.relative_to(site).parts) - 1)
            for package in PACKAGES:
                for url, path in package.files:
                    text = text.replace(f'"{url}"', f'"{up}{VENDOR}/{package.folder}/{path}"')
            text = _LOGO.sub(f"{up}static/images/logo-long.png", text)
            text = re.sub(r' integrity="[^"]*" crossorigin="anonymous"', "", text)
        elif "offline copies are missing" not in text:
            text = text.replace("<body>", "<body>" + _MISSING.format(assets=assets), 1)
        page.write_text(text)


def main() -> int:
    try:
        fetched = fetch()
    except (OSError, RuntimeError) as err:
        print(f"docs assets: could not fetch from {REGISTRY}: {err}", file=sys.stderr)
        return 1
    print(
        f"docs assets: {len(fetched)} packages fetched into {ASSETS_DIR}"
        if fetched
        else f"docs assets: up to date in {ASSETS_DIR}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Compile claimhouse's own JVM classes (java/) into .jars/claimhouse-sql.jar (run by
scripts/setup): the SQL endpoint's authenticator and its role guard. They are compiled with the
JDK's javac against the jars pyspark ships, so nothing is downloaded. Running it again with the
sources unchanged does nothing.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "java"
JAR = ROOT / ".jars" / "claimhouse-sql.jar"
STAMP = ROOT / ".jars" / ".java-stamp"


def main() -> int:
    import pyspark

    sources = sorted(SOURCES.rglob("*.java"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    if JAR.exists() and STAMP.exists() and STAMP.read_text() == digest:
        print(f"java: up to date in {JAR}")
        return 0
    if shutil.which("javac") is None:
        print(
            "java: the JDK's javac is missing: apt-get install -y openjdk-17-jdk-headless",
            file=sys.stderr,
        )
        return 1
    classpath = str(Path(pyspark.__file__).parent / "jars" / "*")
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            ["javac", "-nowarn", "--release", "17", "-cp", classpath, "-d", out]
            + [str(p) for p in sources],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            print(done.stdout, done.stderr, sep="\n", file=sys.stderr)
            print("java: javac failed (see above)", file=sys.stderr)
            return 1
        JAR.parent.mkdir(exist_ok=True)
        with zipfile.ZipFile(JAR, "w", zipfile.ZIP_DEFLATED) as jar:
            for path in sorted(Path(out).rglob("*.class")):
                jar.write(path, path.relative_to(out).as_posix())
    STAMP.write_text(digest)
    print(f"java: {len(sources)} sources compiled into {JAR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fetch Delta Lake's JVM jars from Maven Central into .jars/ (run by scripts/setup).

Maven resolves delta-spark's POM with its transitive dependencies; jars that pyspark already
ships (Spark, Hadoop, Parquet, Jackson, Scala...) are dropped so Spark's own versions are the
only ones on the classpath. Running it again with the jars present does nothing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POM = ROOT / "scripts" / "jars.pom.xml"
JARS_DIR = ROOT / ".jars"
STAMP = JARS_DIR / ".pom-stamp"


def artifact_name(jar: str) -> str:
    """'jackson-core-2.13.5.jar' -> 'jackson-core'."""
    return re.sub(r"-\d[\w.\-]*$", "", jar.removesuffix(".jar"))


def main() -> int:
    pom_text = POM.read_text()
    if STAMP.exists() and STAMP.read_text() == pom_text:
        print(f"jars: up to date in {JARS_DIR}")
        return 0
    if shutil.which("mvn") is None:
        print("jars: Maven ('mvn') is not installed: apt-get install -y maven", file=sys.stderr)
        return 1
    import pyspark

    shipped = {
        artifact_name(p.name) for p in (Path(pyspark.__file__).parent / "jars").glob("*.jar")
    }
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            "mvn",
            "-q",
            "-B",
            "-f",
            str(POM),
            "dependency:copy-dependencies",
            f"-DoutputDirectory={tmp}",
            "-DincludeScope=runtime",
        ]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", file=sys.stderr)
            print("jars: Maven could not resolve the Delta jars (see above)", file=sys.stderr)
            return 1
        if JARS_DIR.exists():
            shutil.rmtree(JARS_DIR)
        JARS_DIR.mkdir()
        kept = []
        for jar in sorted(Path(tmp).glob("*.jar")):
            if artifact_name(jar.name) not in shipped:
                shutil.copy2(jar, JARS_DIR / jar.name)
                kept.append(jar.name)
    STAMP.write_text(pom_text)
    print(f"jars: {len(kept)} jars in {JARS_DIR}: {', '.join(kept)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

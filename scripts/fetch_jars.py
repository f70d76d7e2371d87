"""Fetch claimhouse's JVM jars from Maven Central into .jars/ (run by scripts/setup).

Maven resolves scripts/jars.pom.xml (delta-spark, and hadoop-aws with the AWS SDK modules S3A
needs) with their transitive dependencies; jars that pyspark already ships (Spark, Hadoop,
Parquet, Jackson, Netty, Scala...) are dropped so Spark's own versions are the only ones on
the classpath. scripts/s3proxy.pom.xml (the S3-compatible server the object-storage tests
start) goes whole into .jars/s3proxy/, which is not on Spark's classpath. Running it again
with the jars present does nothing.
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
S3PROXY_POM = ROOT / "scripts" / "s3proxy.pom.xml"
JARS_DIR = ROOT / ".jars"
S3PROXY_DIR = JARS_DIR / "s3proxy"
STAMP = JARS_DIR / ".pom-stamp"


def artifact_name(jar: str) -> str:
    """'jackson-core-2.13.5.jar' -> 'jackson-core'."""
    return re.sub(r"-\d[\w.\-]*$", "", jar.removesuffix(".jar"))


def resolve(pom: Path, into: Path) -> bool:
    """Maven copies the POM's runtime dependencies into the folder; False (having said why)
    when it cannot."""
    cmd = [
        "mvn",
        "-q",
        "-B",
        "-f",
        str(pom),
        "dependency:copy-dependencies",
        f"-DoutputDirectory={into}",
        "-DincludeScope=runtime",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", file=sys.stderr)
        print(f"jars: Maven could not resolve {pom.name} (see above)", file=sys.stderr)
        return False
    return True


def main() -> int:
    pom_text = POM.read_text() + S3PROXY_POM.read_text()
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
        spark_jars, s3proxy_jars = Path(tmp) / "spark", Path(tmp) / "s3proxy"
        if not (resolve(POM, spark_jars) and resolve(S3PROXY_POM, s3proxy_jars)):
            return 1
        if JARS_DIR.exists():
            shutil.rmtree(JARS_DIR)
        JARS_DIR.mkdir()
        kept = []
        for jar in sorted(spark_jars.glob("*.jar")):
            if artifact_name(jar.name) not in shipped:
                shutil.copy2(jar, JARS_DIR / jar.name)
                kept.append(jar.name)
        shutil.copytree(s3proxy_jars, S3PROXY_DIR)
    STAMP.write_text(pom_text)
    size = sum(p.stat().st_size for p in JARS_DIR.rglob("*.jar")) / 1e6
    print(f"jars: {len(kept)} jars in {JARS_DIR}: {', '.join(kept)}")
    print(f"jars: S3Proxy's {len(list(S3PROXY_DIR.glob('*.jar')))} jars in {S3PROXY_DIR}")
    print(f"jars: {size:.0f} MB in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())

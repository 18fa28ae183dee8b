# Sourced by run.sh and bench.sh: builds the examples module and what it depends on (tests skipped)
# and sets CLASSPATH to its classes and dependencies. Rebuilding is incremental and quiet.
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
CP_FILE="$ROOT/examples/target/classpath.txt"
echo "building Runnel (mvn package -DskipTests) ..." >&2
if ! (cd "$ROOT" && mvn -B -q -pl examples -am package -DskipTests \
      dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime >&2); then
  echo "The build failed; see the Maven output above." >&2
  exit 1
fi
CLASSPATH="$ROOT/examples/target/classes:$(cat "$CP_FILE")"
export CLASSPATH

#!/usr/bin/env bash
# Runs an example job on Runnel's embedded runtime, building what it needs first.
#
#   examples/run.sh EXAMPLE [ARGS...]
#
# EXAMPLE: WordCount | TopPages | FraudDetection | a fully qualified main class.
# Example: examples/run.sh WordCount --input README.md
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"

if [[ $# -lt 1 ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
example="$1"; shift
case "$example" in
  WordCount) main=dev.runnel.examples.wordcount.WordCount ;;
  TopPages) main=dev.runnel.examples.windowing.TopPages ;;
  FraudDetection) main=dev.runnel.examples.fraud.FraudDetection ;;
  *.*) main="$example" ;;
  *) echo "Unknown example '$example': use WordCount, TopPages, FraudDetection or a main class name." >&2; exit 2 ;;
esac

source "$HERE/build-classpath.sh"
exec java ${RUNNEL_JAVA_OPTS:-} -cp "$CLASSPATH" "$main" "$@"

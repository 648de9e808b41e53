#!/usr/bin/env bash
# Run the javac call-graph oracle (JavaCalls.java; JDK 17+) with the javac packages it reads.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exports=()
for p in api code tree util; do
    exports+=("--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
exec java -Xss16m -Xmx3g "${exports[@]}" "$here/JavaCalls.java" "$@"

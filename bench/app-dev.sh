#!/bin/sh
# The desktop app with its development tools (app/src/test/java/dev/fabricscope/app/devtools, not in the shipped app):
#   bench/app-dev.sh --size 1320x860 --bench [FILE]           start-up and open-the-largest-sample benchmark
#   bench/app-dev.sh --screenshots DIR --sample a,b,c          a PNG of every view (also --cluster DIR, --compare A,B)
#   (JAVA_TOOL_OPTIONS="-Dfabricscope.shots.advisorEnv=NCCL_P2P_DISABLE=1 -Dfabricscope.shots.advisorFramework=nccl" fills the Advisor form)
# plus any of the app's own options. Needs app/target/fabricscope-app.jar and app/target/test-classes
# (`mvn -q package -DskipTests` builds both); JAVA picks the java to run (e.g. an installed image's lib/runtime/bin/java).
# Without a display, run it under xvfb-run -a -s "-screen 0 1400x900x24".
cd "$(dirname "$0")/.." || exit 1
for f in app/target/fabricscope-app.jar app/target/test-classes/dev/fabricscope/app/devtools/DevTools.class; do
  [ -e "$f" ] || { echo "app-dev.sh: $f missing: run 'mvn -q package -DskipTests' first" >&2; exit 2; }
done
exec "${JAVA:-java}" -cp app/target/fabricscope-app.jar:app/target/test-classes dev.fabricscope.app.devtools.DevTools "$@"

#!/usr/bin/env bash
# Stages the compiled classes, test classes and test dependencies of probe and app in .device-gputest/ so that the
# tests tagged "gpu" run on the GPU machine (no Maven, no network there) with the jlink runtime in .device/:
#   run: carry [".device", ".device-gputest"]
#        command: bash .device-gputest/run.sh
# The app's gpu tests drive the view-models (javafx.base only, no toolkit): the FX graphics and test-UI jars stay here;
# they keep preferences, so the runtime needs java.prefs beside make-runtime.sh's modules (jlink --add-modules ...,java.prefs).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .device-gputest && mkdir -p .device-gputest/lib .device-gputest/launcher
# one reactor run: probe's classes stand in for its jar on the app's class path
mvn -q -B -ntp -pl app -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=cp.txt
cat probe/cp.txt app/cp.txt | tr ':' '\n' | grep '\.jar$' | sort -u | xargs -I{} cp {} .device-gputest/lib/
rm -f probe/cp.txt app/cp.txt
v=$(ls .device-gputest/lib | sed -n 's/^junit-platform-commons-\(.*\)\.jar$/\1/p')
jar=~/.m2/repository/org/junit/platform/junit-platform-launcher/$v/junit-platform-launcher-$v.jar
[ -f "$jar" ] || mvn -q -B -ntp dependency:get -Dartifact=org.junit.platform:junit-platform-launcher:$v
cp "$jar" .device-gputest/lib/
rm -f .device-gputest/lib/probe-*.jar  # probe's own classes travel as a folder below (cp.txt may name its classes folder)
# directories, not jars: the jlink runtime has no jar file system for JUnit's scan
cp -r probe/target/classes .device-gputest/classes && cp -r probe/target/test-classes .device-gputest/test-classes
cp -r app/target/classes .device-gputest/app-classes && cp -r app/target/test-classes .device-gputest/app-test-classes
# the GPU machine takes at most 64 MiB with the jlink runtime: leave out what the gpu tests do not load
rm -f .device-gputest/lib/archunit* .device-gputest/lib/jqwik* .device-gputest/lib/testfx* .device-gputest/lib/openjfx-monocle* \
      .device-gputest/lib/javafx-graphics* .device-gputest/lib/javafx-controls* .device-gputest/lib/controlsfx* \
      .device-gputest/lib/atlantafx* .device-gputest/lib/hamcrest* .device-gputest/lib/assertj* .device-gputest/lib/org.osgi*
# javafx-base's plain jar is an empty placeholder beside its platform jar
find .device-gputest/lib -name 'javafx-*.jar' ! -name '*-linux*.jar' -delete
# and the runtime's JVM without its symbol table (4 MB): with java.prefs the call is otherwise over the 64 MiB limit
if [ -f .device/runtime/lib/server/libjvm.so ] && command -v strip >/dev/null; then
  strip --strip-unneeded .device/runtime/lib/server/libjvm.so
fi
find .device-gputest/test-classes .device-gputest/app-test-classes -type f ! -name '*.class' -delete
javac -d .device-gputest/launcher -cp ".device-gputest/lib/*" bench/GpuTestLauncher.java
cat > .device-gputest/run.sh <<'RUN'
#!/usr/bin/env bash
# On the GPU machine: runs every test tagged "gpu" (probe and app) and keeps nvidia-smi from the same call.
mkdir -p /tmp/fs
nvidia-smi --query-gpu=pci.bus_id,name,uuid,compute_cap,memory.total,memory.used,driver_version --format=csv > "$OUT/smi-before.csv" 2>&1
G=.device-gputest
.device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -Djava.util.prefs.userRoot=/tmp/fs/prefs \
  -Dfabricscope.prefs.node=dev/fabricscope/app-test \
  -cp "$G/launcher:$G/classes:$G/test-classes:$G/app-classes:$G/app-test-classes:$G/lib/*" \
  GpuTestLauncher "$G/test-classes" "$G/app-test-classes" 2>&1 | tee "$OUT/gpu-tests.txt"
rc=${PIPESTATUS[0]}
nvidia-smi --query-gpu=pci.bus_id,memory.used --format=csv > "$OUT/smi-after.csv" 2>&1
exit $rc
RUN
chmod +x .device-gputest/run.sh
du -sh .device-gputest

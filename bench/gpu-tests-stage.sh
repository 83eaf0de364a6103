#!/usr/bin/env bash
# Stages the probe's compiled classes, test classes and test dependencies in .device-gputest/ so that the tests
# tagged "gpu" run on the GPU machine (no Maven, no network there) with the jlink runtime in .device/:
#   run: carry [".device", ".device-gputest"]
#        command: bash .device-gputest/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -o -pl probe test-compile
rm -rf .device-gputest && mkdir -p .device-gputest/lib .device-gputest/launcher
mvn -q -o -pl probe dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/gputest.cp
tr ':' '\n' < /tmp/gputest.cp | xargs -I{} cp {} .device-gputest/lib/
v=$(ls .device-gputest/lib | sed -n 's/^junit-platform-commons-\(.*\)\.jar$/\1/p')
cp ~/.m2/repository/org/junit/platform/junit-platform-launcher/$v/junit-platform-launcher-$v.jar .device-gputest/lib/
cp -r probe/target/classes .device-gputest/classes && cp -r probe/target/test-classes .device-gputest/test-classes  # directories: the jlink runtime has no jar file system for JUnit's scan
# the GPU machine takes at most 64 MiB with the jlink runtime: leave out what the gpu tests do not load
rm -f .device-gputest/lib/archunit* .device-gputest/lib/jqwik*
find .device-gputest/test-classes -type f ! -name '*.class' -delete
javac -d .device-gputest/launcher -cp ".device-gputest/lib/*" bench/GpuTestLauncher.java
cat > .device-gputest/run.sh <<'RUN'
#!/usr/bin/env bash
# On the GPU machine: runs every test tagged "gpu" and keeps nvidia-smi from the same call.
mkdir -p /tmp/fs
nvidia-smi --query-gpu=pci.bus_id,name,uuid,compute_cap,memory.total,memory.used,driver_version --format=csv > "$OUT/smi-before.csv" 2>&1
.device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs \
  -cp ".device-gputest/launcher:.device-gputest/classes:.device-gputest/test-classes:.device-gputest/lib/*" GpuTestLauncher 2>&1 | tee "$OUT/gpu-tests.txt"
rc=${PIPESTATUS[0]}
nvidia-smi --query-gpu=pci.bus_id,memory.used --format=csv > "$OUT/smi-after.csv" 2>&1
exit $rc
RUN
chmod +x .device-gputest/run.sh
du -sh .device-gputest

#!/bin/sh
# Runs the tests tagged "gpu" on the GPU machine (no Maven there): JUnit console launcher over the test classes
# and the fat jar. Carry: .device/runtime, .device/junit (console-standalone jar), probe/target/test-classes,
# probe/target/fabricscope.jar. Usage: bench/device-gpu-tests.sh > $OUT/gpu-tests.txt
mkdir -p /tmp/fs
.device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs \
  -jar .device/junit/junit-platform-console-standalone.jar execute \
  --class-path probe/target/test-classes:probe/target/fabricscope.jar \
  --scan-class-path probe/target/test-classes --include-tag gpu --details=tree --disable-banner

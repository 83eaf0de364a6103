#!/bin/sh
# JNA's native part (libjnidispatch.so) unpacked into a Linux application image, lib/app/jna/, for the image's own
# architecture: without it JNA writes the library out of the jar to a temporary file and loads that on every start.
# launcher.sh points JNA there (-Djna.boot.library.path) when the file is present; JNA loads it from there, and if
# it cannot, unpacks its own copy as before. The library comes from the image's own jars, so its version is JNA's.
#   sh installers/linux/jna-dispatch.sh IMAGE_DIR ARCH        ARCH: x86_64 or aarch64 (the runtime's OS_ARCH)
set -eu
image="$1"
case "$2" in
  x86_64|amd64) entry=com/sun/jna/linux-x86-64/libjnidispatch.so ;;
  aarch64|arm64) entry=com/sun/jna/linux-aarch64/libjnidispatch.so ;;
  *) echo "jna-dispatch: no JNA library for architecture $2; JNA unpacks its own at start" >&2; exit 0 ;;
esac
out="$image/lib/app/jna"
rm -rf "$out"
for jar in "$image"/lib/app/*.jar; do
  if unzip -l "$jar" "$entry" >/dev/null 2>&1; then
    mkdir -p "$out"
    unzip -p "$jar" "$entry" > "$out/libjnidispatch.so"
    chmod 644 "$out/libjnidispatch.so"
    exit 0
  fi
done
echo "jna-dispatch: no jar of $image/lib/app holds $entry; JNA unpacks its own at start" >&2

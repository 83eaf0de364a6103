#!/bin/sh
# The linux-aarch64 (Grace) application images, packages and portable archives (issue 27), built on this x86-64
# machine from the x86-64 images the installer profile just made: same lib/app (jars, .cfg), same bin/ script
# launcher (installers/linux/launcher.sh, no native launcher) and lib/share; only lib/runtime differs, jlink'd
# from the arm64 jmods of the same Debian JDK build (jdk.sh), JavaFX from its linux-aarch64 jars. Writes
#   INSTALLER_DIR/image-aarch64/fabricscope, fabricscope-cli         the images
#   INSTALLER_DIR/fabricscope{,-cli}_VERSION-1_arm64.deb                dpkg-deb, Architecture arm64
#   INSTALLER_DIR/fabricscope{,-cli}-VERSION-1.aarch64.rpm              rpmbuild --target aarch64 (skipped without rpmbuild)
#   INSTALLER_DIR/fabricscope-cli-VERSION-linux-{x86_64,aarch64}.tar.gz  runtime + launcher, no root needed
#   sh installers/linux/aarch64/build.sh INSTALLER_DIR VERSION          (from the repository root)
set -eu
dir="$1"; version="$2"
x86="$dir/image"; out="$dir/image-aarch64"
for n in fabricscope fabricscope-cli; do
  [ -d "$x86/$n/lib/app" ] || { echo "installer-aarch64: $x86/$n is missing: build the x86-64 images first (-Pinstaller)" >&2; exit 1; }
done
jdks=$(sh installers/linux/aarch64/jdk.sh "${XDG_CACHE_HOME:-$HOME/.cache}/fabricscope/jdk")
jlink="$(echo "$jdks" | sed -n 1p)/bin/jlink"; jmods="$(echo "$jdks" | sed -n 2p)/jmods"

# the modules and jlink options of an args file (one place: installers/app.args, installers/linux/cli-app.args)
modules() { sed -n 's/^--add-modules //p' "$1"; }
# --strip-debug would run the host's objcopy over aarch64 libraries; the Java debug attributes go all the same
JLINK_OPTS="--strip-java-debug-attributes --no-header-files --no-man-pages --compress=2"

image() {   # image NAME ARGS_FILE MODULE_PATH
  rm -rf "$out/$1"; mkdir -p "$out"
  cp -a "$x86/$1" "$out/$1"
  # the x86-64 image's class-data archive is made for its own class path and runtime (cds-archive.sh): not shipped
  rm -f "$out/$1/lib/app/$1.jsa" "$out/$1/lib/app/$1.jsa.classpath"
  rm -rf "$out/$1/lib/runtime"
  # shellcheck disable=SC2086
  "$jlink" --module-path "$3" --add-modules "$(modules "$2")" $JLINK_OPTS --output "$out/$1/lib/runtime"
  # no x86-64 code may stay behind (jpackage's own launcher library)
  find "$out/$1" -type f -name '*.so' -not -path '*/lib/runtime/*' -delete
  sh installers/linux/jna-dispatch.sh "$out/$1" aarch64
  # the CDS archive the x86-64 runtime gets from --generate-cds-archive: made by the aarch64 java itself, under qemu
  if command -v qemu-aarch64-static >/dev/null 2>&1 && [ -e /lib/ld-linux-aarch64.so.1 ]; then
    qemu-aarch64-static "$out/$1/lib/runtime/bin/java" -Xshare:dump >/dev/null 2>&1 \
      || echo "installer-aarch64: $1: no CDS archive (java -Xshare:dump under qemu failed); start-up is slower"
  else
    echo "installer-aarch64: $1: no CDS archive (qemu-user-static or the arm64 libc missing)"
  fi
}
image fabricscope-cli installers/linux/cli-app.args "$jmods"
image fabricscope installers/app.args "$jmods:$dir/javafx-aarch64"

sh installers/linux/aarch64/packages.sh "$dir" "$version"

# portable archives: the command line image as it is, for nodes where packages may not be installed
# without the image's class-data archive: it holds the build's class path, so it would not load where the tarball is unpacked
tar -C "$x86" -czf "$dir/fabricscope-cli-$version-linux-x86_64.tar.gz" --exclude='fabricscope-cli/lib/app/*.jsa*' fabricscope-cli
tar -C "$out" -czf "$dir/fabricscope-cli-$version-linux-aarch64.tar.gz" fabricscope-cli
for f in "$dir"/fabricscope-cli-"$version"-linux-*.tar.gz; do echo "installer-aarch64: $(basename "$f") $(du -m "$f" | cut -f1) MB"; done

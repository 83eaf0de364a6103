#!/bin/sh
# Finishes a Linux application image after jpackage: bin/NAME becomes linux/launcher.sh (see there), and lib/share/
# gets what the packages install under /usr/share: the shell completion and man page generated from the command
# line's picocli model at package time (probe/target/completion, probe/target/man), and for the desktop image its
# one desktop entry, dev.fabricscope.Fabricscope.desktop, with the icon in the hicolor sizes (icons/png).
#   sh installers/linux/image-extras.sh IMAGE_DIR NAME desktop|cli        (from the repository root)
set -eu
image="$1"; name="$2"; kind="$3"
share="$image/lib/share"
install -m 755 installers/linux/launcher.sh "$image/bin/$name"
rm -rf "$share"
install -D -m 644 probe/target/completion/fabricscope "$share/bash-completion/completions/fabricscope"
install -d "$share/man/man1"
gzip -9n -c probe/target/man/fabricscope.1 > "$share/man/man1/fabricscope.1.gz"
if [ "$kind" = desktop ]; then
  install -D -m 644 installers/linux/share/dev.fabricscope.Fabricscope.desktop "$share/applications/dev.fabricscope.Fabricscope.desktop"
  for size in 16 24 32 48 64 128 256 512; do
    install -D -m 644 "icons/png/fabricscope-$size.png" "$share/icons/hicolor/${size}x${size}/apps/dev.fabricscope.Fabricscope.png"
  done
fi
# JNA's native part unpacked once here, not at every start (jna-dispatch.sh); jpackage makes the image for the
# build machine's own architecture (aarch64/build.sh replaces it for the arm64 images)
sh installers/linux/jna-dispatch.sh "$image" "$(uname -m)"
install -m 644 installers/linux/share-files.sh "$image/lib/share-files.sh"
install -m 755 installers/linux/cds-archive.sh "$image/lib/cds-archive.sh"

#!/bin/sh
# The command-line-only application image, fabricscope-cli: the command line's jar (probe/target/fabricscope.jar)
# on a jlink'd runtime without JavaFX (installers/linux/cli-app.args), finished by image-extras.sh, with its
# class-data archive (cds-archive.sh).
#   sh installers/linux/cli-image.sh JPACKAGE INSTALLER_DIR VERSION        (from the repository root)
set -eu
jpackage="$1"; dir="$2"; version="$3"
rm -rf "$dir/cli-input" "$dir/image/fabricscope-cli"
install -D -m 644 probe/target/fabricscope.jar "$dir/cli-input/fabricscope.jar"
"$jpackage" --type app-image --dest "$dir/image" --input "$dir/cli-input" --main-jar fabricscope.jar \
  --app-version "$version" @installers/linux/cli-app.args
sh installers/linux/image-extras.sh "$dir/image/fabricscope-cli" fabricscope-cli cli
sh installers/linux/cds-archive.sh "$dir/image/fabricscope-cli" fabricscope-cli

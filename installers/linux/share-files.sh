# Sourced by the packages' install scripts (jpackage cannot add files outside the install directory, so the files
# under DIR/lib/share are copied to /usr/share after install and removed before erase).
#   share_install DIR      copy DIR/lib/share/* to /usr/share, refresh the menu and icon caches where present
#   share_remove DIR OTHER remove those files again, except the ones the other package (OTHER) also installs
share_install() {
  (cd "$1/lib/share" && find . -type f) | while IFS= read -r f; do
    install -D -m 644 "$1/lib/share/$f" "/usr/share/$f"
  done
  share_refresh
}
share_remove() {
  (cd "$1/lib/share" 2>/dev/null && find . -type f) | while IFS= read -r f; do
    [ -e "$2/lib/share/$f" ] || rm -f "/usr/share/$f"
  done
  share_refresh
}
share_refresh() {
  if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q /usr/share/applications 2>/dev/null || :; fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1; then gtk-update-icon-cache -q -t /usr/share/icons/hicolor 2>/dev/null || :; fi
}

#!/usr/bin/env bash
# apt-install.sh PACKAGE... - installs the Debian packages among PACKAGE that
# are missing (with sudo when not root); the one place setup.sh and fuzz.sh
# install from. Prints what it installs under the caller's name ($TAG).
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "${TAG:-apt-install}: installing ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null

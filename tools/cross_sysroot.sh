#!/usr/bin/env bash
# Makes a sysroot for a Debian cross build: the target architecture's libraries and headers that
# esview needs, downloaded with apt from the machine's own package sources into a private apt
# state, and unpacked (no maintainer scripts, nothing installed on the build machine).
#
#   tools/cross_sysroot.sh ARCH DIR     ARCH: arm64 | armhf
#
# DIR/root is the sysroot; DIR/apt holds apt's lists and downloads. The packages are those of the
# build (setup.sh's list, the target's half of it) plus the C and C++ runtime. A finished sysroot
# records its package list: when it has not changed, the script does nothing. When the security
# archive's index for ARCH cannot be downloaded (a mirror serving an index that does not match its
# release file), the sysroot is made from the main archive alone, with a notice, and every later run
# tries the security archive again.
set -euo pipefail
arch=${1:?usage: cross_sysroot.sh ARCH DIR}
dir=${2:?usage: cross_sysroot.sh ARCH DIR}
case "$arch" in
  arm64 | armhf) ;;
  *) echo "cross_sysroot.sh: unsupported architecture '$arch' (arm64, armhf)" >&2; exit 2 ;;
esac

packages=(
  libc6-dev libstdc++-12-dev
  libglfw3-dev libsdl2-dev libglm-dev libimgui-dev libstb-dev zlib1g-dev liblzma-dev libzstd-dev
  libgles-dev libegl-dev libgl1-mesa-dri libegl-mesa0
  libgtest-dev libmeshoptimizer-dev libfast-float-dev libcli11-dev nlohmann-json3-dev libdraco-dev
)

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stamp="$dir/root/.esview-packages"
wanted="$arch ${packages[*]}"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0
fi

apt_dir="$dir/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
: >"$apt_dir/status"  # nothing counts as installed: apt downloads the whole dependency closure
cat >"$apt_dir/apt.conf" <<CONF
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
APT::Install-Recommends "false";
Dir::State::Lists "$apt_dir/lists";
Dir::State::status "$apt_dir/status";
Dir::Cache "$apt_dir/cache";
Dir::Etc::Preferences "/dev/null";
Dir::Etc::PreferencesParts "/dev/null";
CONF
export APT_CONFIG="$apt_dir/apt.conf"
echo "cross_sysroot: fetching ${#packages[@]} packages and their dependencies for $arch"
# A mirror in the middle of a sync can serve an index of the wrong size: try again a little later.
update_log="$apt_dir/update.log"
for attempt in 1 2 3; do
  apt-get update -qq >"$update_log" 2>&1 && break
  grep -E '^(E|W): ' "$update_log" | grep -v unsandboxed >&2 || true
  if [ "$attempt" = 3 ]; then
    # When only the security archive's index failed (a mirror has served one architecture's index
    # out of step with its release file for more than a day), the main archive still makes a
    # working sysroot: use it, stamped as such, so that every later run tries the full set again.
    failed=$(grep -o 'Failed to fetch [^ ]*' "$update_log" | cut -d ' ' -f 4 || true)
    if [ -n "$failed" ] && ! grep -qv -- '-security/' <<<"$failed"; then
      echo "cross_sysroot: the security archive's $arch index could not be downloaded: this sysroot is made from the main archive only (the next run tries again)" >&2
      wanted="$wanted (main archive only)"
      break
    fi
    echo "cross_sysroot: the package indexes could not be downloaded" >&2
    exit 1
  fi
  echo "cross_sysroot: package indexes incomplete, trying again in 20 s" >&2
  sleep 20
done
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0  # made from the main archive only by an earlier run, and nothing newer can be had yet
fi
apt-get clean -qq  # no stale versions from an earlier package list
apt-get install -y -qq --download-only "${packages[@]}" >/dev/null

rm -rf "$dir/root"
mkdir -p "$dir/root"
count=0
for deb in "$apt_dir"/cache/archives/*_"$arch".deb "$apt_dir"/cache/archives/*_all.deb; do
  [ -e "$deb" ] || continue
  dpkg-deb -x "$deb" "$dir/root"
  count=$((count + 1))
done
# Development symlinks that point at absolute paths (libz.so -> /lib/.../libz.so.1) would name the
# build machine's files: point them into the sysroot instead.
while IFS= read -r link; do
  target=$(readlink "$link")
  ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir/root$target")" "$link"
done < <(find "$dir/root" -type l -lname '/*')
# A shell in the sysroot would be picked by qemu for system() calls and fail to start: the tests'
# shell commands must run the build machine's /bin/sh.
rm -f "$dir/root/bin/sh" "$dir/root/usr/bin/sh"
echo "$wanted" >"$stamp"
echo "cross_sysroot: $count packages unpacked into $dir/root ($(du -sh "$dir/root" | cut -f1))"

#!/usr/bin/env bash
# debian-root.sh WORKDIR IMAGE LABEL: the stand-in for debian:bookworm-slim, the root of every other stand-in.
# debootstrap --variant=minbase from the Debian mirror apt on this machine uses, plus what the official slim
# image has and debootstrap does not: the three suites from deb.debian.org, and slim's dpkg excludes (no
# manuals, docs, translations or kept package files in any later install, which keeps the measured image
# size comparable).
set -euo pipefail
dir=$1 image=$2 label=$3

# Debian's mirror as apt on this machine knows it (deb822 or one-line sources), else Debian's own.
mirror=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
[ -n "$mirror" ] || mirror=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

mkdir -p "$dir"
debootstrap --variant=minbase bookworm "$dir/root" "$mirror" >"$dir/log" 2>&1 || { tail -20 "$dir/log"; exit 1; }
rm -f "$dir/root/etc/apt/sources.list"
cat >"$dir/root/etc/apt/sources.list.d/debian.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
cat >"$dir/root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/man/*
DPKG
# The official image's apt settings: no package files or caches kept after an install, no translations.
cat >"$dir/root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
echo 'Acquire::Languages "none";' >"$dir/root/etc/apt/apt.conf.d/docker-no-languages"
find "$dir/root/usr/share/doc" -mindepth 2 ! -name copyright -type f -delete
rm -rf "$dir/root/usr/share/man"/* "$dir/root/usr/share/info"/* "$dir/root/var/cache/apt"/*.bin "$dir/root/var/cache/apt/archives"/*.deb "$dir/root/var/lib/apt/lists"/*
tar -C "$dir/root" -c . | podman import --change "LABEL $label" --change 'CMD ["bash"]' - "$image" >/dev/null 2>&1

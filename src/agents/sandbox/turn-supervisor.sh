#!/bin/sh
# Runs INSIDE the outer layer of an agent turn's sandbox, never where the agent can reach it. The outer layer
# holds the turn's real writable paths (the fixer's workspace, the agent home) under /run/nm-turn/lower and a
# tmpfs of a fixed size at /run/nm-turn/upper; the agent runs in an inner sandbox that sees each writable path
# as an overlay whose upper layer lives in that tmpfs, so every byte the agent writes is held there and a write
# past the size fails (ENOSPC): the kernel refuses it, nothing is sampled. This script (a shell, so that it
# costs the turn's memory next to nothing while the agent runs):
#   1. mounts the overlays (the outer layer may: it is root of its own user namespace);
#   2. runs the inner sandbox, and stops it as soon as the tmpfs holds more than the workspace limit or a file
#      at the file cap (checked every 100 ms, beside it);
#   3. when the agent ended within its limits, has layer-apply.mjs copy what it changed onto the real paths
#      (`apply`; `discard` throws it away: a scratch run of the PR's own commands), and save the workspace's new
#      and changed files into /run/nm-turn/save when that folder is bound (a setup's cache); past a limit
#      nothing is copied or saved.
# Folders bound at /run/nm-turn/layers/<i> are stacked over the workspace, read-only, layer 0 on top.
# It writes one status line for the app (`limit <setting>`, `setup <why>`, `apply <why>`, `applied <n>`) and
# exits with the agent's code (86 when stopped at a limit, 87 when the layers could not be set up or applied).
# Usage: turn-supervisor.sh <limit bytes> <file cap bytes> <node> <layers: workspace,home or home>
#        <apply|discard> <count of folders stacked over the workspace> -- <inner argv>
set -u
dir=/run/nm-turn
status=$dir/status/status
limit=$1 cap=$2 node=$3 layers=$(printf '%s' "$4" | tr ',' ' ') mode=$5 stacked=$6
shift 6
[ "${1:-}" = "--" ] && shift

fail() {
  printf 'setup %s\n' "$1" > "$status"
  exit 87
}

# bwrap covers parts of /proc with read-only mounts; a nested sandbox may mount its own /proc only where the
# one it would shadow is whole, so those covers go (this layer runs nothing of the agent's).
covers=$(awk '$5 ~ /^\/proc\// { print $5 }' /proc/self/mountinfo | sort -r)
if [ -n "$covers" ]; then
  # One mount point a word: bwrap's own, with no spaces.
  # shellcheck disable=SC2086
  out=$(umount -l $covers 2>&1) || fail "umount: $out"
fi
for name in $layers; do
  upper=$dir/upper/$name
  lower=$dir/lower/$name
  if [ "$name" = workspace ]; then
    i=$((stacked - 1))
    while [ "$i" -ge 0 ]; do
      lower=$dir/layers/$i:$lower
      i=$((i - 1))
    done
  fi
  mkdir -p "$upper/upper" "$upper/work" || fail "cannot make $upper"
  out=$(mount -t overlay overlay -o "lowerdir=$lower,upperdir=$upper/upper,workdir=$upper/work,userxattr" \
    "$dir/merged/$name" 2>&1) || fail "mount: $out"
done

over_limit() {
  # blocks, free blocks and block size of the upper layers' tmpfs
  bytes=$(stat -f -c '%b %f %S' "$dir/upper" | awk '{ printf "%.0f", ($1 - $2) * $3 }')
  if [ "$bytes" -gt "$limit" ]; then
    echo maxWorkspaceMb
  elif [ "$bytes" -ge "$cap" ] && [ -n "$(find "$dir/upper" -type f -size +$((cap - 1))c -print -quit)" ]; then
    echo maxFileMb
  fi
}

# An asynchronous command's stdin would be /dev/null: the agent's prompt comes on this script's.
exec 3<&0
"$@" <&3 3<&- &
child=$!
exec 3<&-
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
# The watch runs beside the agent, so the agent's end is seen at once, not at the next tick.
(
  while sleep 0.1; do
    breach=$(over_limit)
    if [ -n "$breach" ]; then
      printf 'limit %s\n' "$breach" > "$status"
      kill -KILL "$child" 2>/dev/null
      exit 0
    fi
  done
) &
watch=$!
wait "$child"
code=$?
kill -KILL "$watch" 2>/dev/null
wait "$watch" 2>/dev/null
if [ -s "$status" ]; then exit 86; fi
breach=$(over_limit)
if [ -n "$breach" ]; then
  printf 'limit %s\n' "$breach" > "$status"
  exit 86
fi
if [ -d "$dir/save" ]; then
  "$node" "$dir/layer-apply.mjs" "$status" --save "$dir/upper/workspace/upper" "$dir/save" || exit 87
fi
if [ "$mode" = discard ]; then
  printf 'discarded\n' > "$status"
  exit "$code"
fi
changed=""
for name in $layers; do
  [ -n "$(find "$dir/upper/$name/upper" -mindepth 1 -print -quit)" ] && changed="$changed $name"
done
if [ -z "$changed" ]; then
  printf 'applied 0\n' > "$status"
  exit "$code"
fi
# shellcheck disable=SC2086
"$node" "$dir/layer-apply.mjs" "$status" $changed || exit 87
exit "$code"

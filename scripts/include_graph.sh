#!/usr/bin/env bash
# The include graph between the folders of lib/srcc (and app/), and a check of its direction:
# each folder may include only folders listed before it in ORDER (docs/ARCHITECTURE.md). Prints
# the edges with how many includes make each one; exits 1 naming any include that points the
# wrong way (up the order, or a cycle), and any file of app/ that includes more than the
# library's public header srcc/srcc.hpp, and where sweep/ (the mathematics) decides by backend
# (moves_data) or holds a cache-size constant: how work is cut is the backend's. CTest runs it
# (architecture.include_direction).
#
#   bash scripts/include_graph.sh          # from the repository root
set -euo pipefail
cd "$(dirname "$0")/.."
ORDER=(core log memory train io plan backend movement sweep measure run app)

rank() {  # position of a folder in ORDER
  local i
  for i in "${!ORDER[@]}"; do [ "${ORDER[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo "unknown folder '$1' (add it to ORDER in scripts/include_graph.sh)" >&2
  exit 2
}
folder_of() {  # lib/srcc/sweep/x.cpp → sweep; lib/srcc/run.cpp → run; app/x.cpp → app
  case $1 in
    app/*) echo app ;;
    lib/srcc/*/*) local rest=${1#lib/srcc/}; echo "${rest%%/*}" ;;
    lib/srcc/srcc.hpp) echo app ;;  # the public header: what app/ sees
    lib/srcc/*) echo run ;;
  esac
}

declare -A edges=()
bad=0
while IFS= read -r file; do
  from=$(folder_of "$file")
  while IFS= read -r inc; do
    case $inc in
      srcc/version.hpp) continue ;;  # generated, a leaf
      srcc/srcc.hpp) to=app ;;
      srcc/*/*) rest=${inc#srcc/}; to=${rest%%/*} ;;
      srcc/*) to=run ;;
      *) continue ;;
    esac
    if [[ $file == app/* && $inc != srcc/srcc.hpp ]]; then
      echo "app/ sees only the public header: $file includes $inc" >&2
      bad=1
    fi
    [ "$from" = "$to" ] && continue
    edges["$from -> $to"]=$(( ${edges["$from -> $to"]:-0} + 1 ))
    if [ "$(rank "$to")" -gt "$(rank "$from")" ]; then
      echo "upward include: $file includes $inc ($from -> $to)" >&2
      bad=1
    fi
  done < <(sed -n 's/^#include "\(srcc\/[^"]*\)".*/\1/p' "$file")
done < <(find lib/srcc app -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' | sort)

if grep -nE 'moves_data\(|k[A-Za-z]*Bytes *=|L2|L1 cache' lib/srcc/sweep/*.cpp lib/srcc/sweep/*.hpp >&2; then
  echo "sweep/ decides by backend or cache size above: ask the backend (Kernels::piece_units, row_cut, allocate_warmed)" >&2
  bad=1
fi

echo "order (each may include only those before it): ${ORDER[*]}"
for e in "${!edges[@]}"; do echo "$e (${edges[$e]})"; done | sort
exit "$bad"

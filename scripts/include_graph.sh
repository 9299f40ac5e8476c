#!/usr/bin/env bash
# The include graph between the folders of lib/srcc (and app/), and a check of its direction:
# each folder may include only folders listed before it in ORDER (docs/ARCHITECTURE.md), and
# within a folder the units (x.hpp with x.cpp) include one another without a cycle. Prints the
# edges with how many includes make each one; exits 1 naming any include that points the wrong
# way (up the order, a cycle of units), any source file outside a folder (only the public header
# srcc/srcc.hpp and the generated version.hpp live at the top), any file of app/ that includes
# more than the public header, and where sweep/ (the mathematics) decides by backend
# (moves_data) or holds a cache-size constant: how work is cut is the backend's. CTest runs it
# (architecture.include_direction).
#
#   bash scripts/include_graph.sh          # from the repository root
set -euo pipefail
cd "$(dirname "$0")/.."
ORDER=(core parallel log memory train io plan backend movement sweep symmetric measure session app)

rank() {  # position of a folder in ORDER
  local i
  for i in "${!ORDER[@]}"; do [ "${ORDER[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo "unknown folder '$1' (add it to ORDER in scripts/include_graph.sh)" >&2
  exit 2
}
folder_of() {  # lib/srcc/sweep/x.cpp → sweep; app/x.cpp → app
  case $1 in
    app/*) echo app ;;
    lib/srcc/*/*) local rest=${1#lib/srcc/}; echo "${rest%%/*}" ;;
    lib/srcc/srcc.hpp) echo app ;;  # the public header: what app/ sees
    lib/srcc/*) echo "$1 lies outside every folder of lib/srcc: put it in the folder of what it holds" >&2; exit 2 ;;
  esac
}
unit_of() {  # lib/srcc/sweep/x.cpp and srcc/sweep/x.hpp → sweep/x
  local u=${1#lib/}; u=${u#srcc/}; echo "${u%.*}"
}

declare -A edges=() unit_edges=()
bad=0
while IFS= read -r file; do
  from=$(folder_of "$file")
  while IFS= read -r inc; do
    case $inc in
      srcc/version.hpp) continue ;;  # generated, a leaf
      srcc/srcc.hpp) to=app ;;
      srcc/*/*) rest=${inc#srcc/}; to=${rest%%/*} ;;
      *) continue ;;
    esac
    if [[ $file == app/* && $inc != srcc/srcc.hpp ]]; then
      echo "app/ sees only the public header: $file includes $inc" >&2
      bad=1
    fi
    if [ "$from" = "$to" ]; then
      [[ $file == app/* ]] || unit_edges["$(unit_of "$file") $(unit_of "$inc")"]=1
      continue
    fi
    edges["$from -> $to"]=$(( ${edges["$from -> $to"]:-0} + 1 ))
    if [ "$(rank "$to")" -gt "$(rank "$from")" ]; then
      echo "upward include: $file includes $inc ($from -> $to)" >&2
      bad=1
    fi
  done < <(sed -n 's/^#include "\(srcc\/[^"]*\)".*/\1/p' "$file")
done < <(find lib/srcc app -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' | sort)

# Units within a folder: peel off, again and again, the units that include no unit left; what
# remains holds a cycle (a back arrow), printed with its includes.
declare -A left=()
for e in "${!unit_edges[@]}"; do
  read -r a b <<<"$e"
  [ "$a" = "$b" ] && continue
  left["$a"]=1
  left["$b"]=1
done
while :; do
  peeled=0
  for u in "${!left[@]}"; do
    leaf=1
    for e in "${!unit_edges[@]}"; do
      read -r a b <<<"$e"
      if [ "$a" = "$u" ] && [ "$b" != "$u" ] && [ -n "${left[$b]:-}" ]; then leaf=0; break; fi
    done
    if [ "$leaf" = 1 ]; then unset "left[$u]"; peeled=1; fi
  done
  [ "$peeled" = 0 ] && break
done
for e in "${!unit_edges[@]}"; do
  read -r a b <<<"$e"
  if [ "$a" != "$b" ] && [ -n "${left[$a]:-}" ] && [ -n "${left[$b]:-}" ]; then
    echo "back arrow: unit $a includes $b, which leads back to it" >&2
    bad=1
  fi
done

if grep -nE 'moves_data\(|k[A-Za-z]*Bytes *=|L2|L1 cache' lib/srcc/sweep/*.cpp lib/srcc/sweep/*.hpp >&2; then
  echo "sweep/ decides by backend or cache size above: ask the backend (Kernels::piece_units, row_cut, allocate_warmed)" >&2
  bad=1
fi

echo "order (each may include only those before it): ${ORDER[*]}"
for e in "${!edges[@]}"; do echo "$e (${edges[$e]})"; done | sort
exit "$bad"

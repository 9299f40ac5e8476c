#pragma once
// Which process owns a file or directory that src-compress leaves beside an output or in a
// scratch directory while it runs (`.NAME.tmp-…`, `src-compress-…`), told from its name alone.
// Such places are often on a file system that several nodes share (NFS, Lustre, $SCRATCH), and
// a PID means nothing on another node, nor in another PID namespace of the same node. So every
// name carries a tag of the place where its PID counts — host name, boot and PID namespace —
// and a later run removes only entries whose tag is its own and whose process is gone.
#include <cstdint>
#include <string>
#include <string_view>

namespace srcc {

// 16 hex digits: a hash of this host's name, its boot id (/proc/sys/kernel/random/boot_id)
// and this process's PID namespace. Computed once; equal for every process of one PID
// namespace during one boot of one host, different (to hash collisions) anywhere else.
const std::string& process_tag();

// A name's owner, as "<tag>-<pid>-" at the start of `rest` (what follows a known prefix).
struct Owner {
  std::string tag;
  long pid = 0;
};
// Parses "<tag>-<pid>-…"; false when `rest` does not start that way.
bool parse_owner(std::string_view rest, Owner& out);

// Whether an entry owned by `o` may be removed: it is this place's (its tag is ours), its
// process is not this one, and that process certainly no longer exists. A live process, even
// an unrelated one that reused the PID, keeps its entry.
bool owner_is_gone(const Owner& o);

// 64-bit FNV-1a of some bytes, as 16 hex digits (short stable names, not security).
std::string hash_hex(std::string_view bytes);
// The same hash fed in pieces: hex() is hash_hex of their concatenation, which need not be
// formed (a train's sites, hundreds of MB).
class ContentHash {
 public:
  void add(std::string_view bytes);
  std::string hex() const;

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace srcc

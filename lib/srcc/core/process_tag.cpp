#include "srcc/core/process_tag.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fstream>

namespace srcc {

void ContentHash::add(std::string_view bytes) {
  std::uint64_t h = h_;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  h_ = h;
}

std::string ContentHash::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

std::string hash_hex(std::string_view bytes) {
  ContentHash h;
  h.add(bytes);
  return h.hex();
}

namespace {

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string compute_tag() {
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  // The PID namespace's inode: two containers of one host share host name and boot id but
  // not their PIDs.
  struct stat ns {};
  const std::string pidns = ::stat("/proc/self/ns/pid", &ns) == 0
                                ? std::to_string(ns.st_dev) + ":" + std::to_string(ns.st_ino)
                                : std::string();
  std::string key = host;
  key += '\0';
  key += first_line("/proc/sys/kernel/random/boot_id");
  key += '\0';
  key += pidns;
  return hash_hex(key);
}

}  // namespace

const std::string& process_tag() {
  static const std::string tag = compute_tag();
  return tag;
}

bool parse_owner(std::string_view rest, Owner& out) {
  const auto dash = rest.find('-');
  if (dash != 16) return false;
  const std::string_view tag = rest.substr(0, dash);
  if (tag.find_first_not_of("0123456789abcdef") != std::string_view::npos) return false;
  const std::string_view after = rest.substr(dash + 1);
  long pid = 0;
  const auto [end, ec] = std::from_chars(after.data(), after.data() + after.size(), pid);
  if (ec != std::errc() || pid <= 0 || end == after.data() + after.size() || *end != '-')
    return false;
  out.tag = std::string(tag);
  out.pid = pid;
  return true;
}

bool owner_is_gone(const Owner& o) {
  if (o.tag != process_tag() || o.pid == ::getpid()) return false;
  return ::kill(static_cast<pid_t>(o.pid), 0) != 0 && errno == ESRCH;
}

}  // namespace srcc

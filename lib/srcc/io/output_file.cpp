#include "srcc/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "srcc/core/error.hpp"
#include "srcc/core/process_tag.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/size.hpp"

namespace srcc {

namespace fs = std::filesystem;

namespace {

fs::path directory_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

// What a non-regular file is, for messages.
std::string file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// The longest name the directory's file system takes (255 almost everywhere).
std::size_t name_max(const fs::path& dir) {
  const long n = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return n > 0 ? static_cast<std::size_t>(n) : NAME_MAX;
}

// ".tmp-" + tag (16) + "-" + pid (up to 10 digits) + "-" + 8 hex digits.
constexpr std::size_t kTempSuffixBytes = 5 + 16 + 1 + 10 + 1 + 8;

// The part of the temporary name that stands for the final name: the name itself when it
// fits, else its first bytes and a hash of the whole (the same for every process, so that a
// later run finds what a killed one left).
std::string temp_stem(const std::string& filename, std::size_t limit) {
  const std::size_t room = limit > kTempSuffixBytes + 1 ? limit - kTempSuffixBytes - 1 : 0;
  if (filename.size() <= room) return filename;
  const std::string hash = hash_hex(filename).substr(0, 8);
  std::size_t keep = room > hash.size() + 1 ? room - hash.size() - 1 : 0;
  // Not in the middle of a UTF-8 sequence, so that the name stays printable.
  while (keep > 0 && (static_cast<unsigned char>(filename[keep]) & 0xC0) == 0x80) --keep;
  return filename.substr(0, keep) + "~" + hash;
}

std::string temp_prefix(const fs::path& target) {
  return "." + temp_stem(target.filename().string(), name_max(directory_of(target))) + ".tmp-";
}

// Removes temporary files of `target` whose process certainly no longer exists: what a
// SIGKILL'd or OOM-killed run of the same output on this host left. Files of other hosts (a
// shared file system) and of live processes are never touched.
void remove_stale_temps(const fs::path& target) {
  const std::string prefix = temp_prefix(target);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(directory_of(target), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    Owner owner;
    if (parse_owner(std::string_view(name).substr(prefix.size()), owner) && owner_is_gone(owner))
      fs::remove(e.path(), ec);
  }
}

}  // namespace

void check_disk_room(const std::string& path, std::uint64_t bytes, const std::string& what) {
  const std::filesystem::path p(path);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return;  // check_output_path reports a missing directory
  const std::uint64_t free = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (bytes > free)
    throw ResourceError(path + ": disk full: " + what + " needs " + format_size(bytes) + " but the file system has " +
                        format_size(free) + " free");
}

void check_output_path(const std::string& path, bool force) {
  if (path.empty()) throw UsageError("-o/--output: no output file given");
  std::error_code ec;
  // "res.h5:/g": a train argument's spelling, where an output file is meant.
  if (const auto at = path.rfind(":/"); at != std::string::npos) {
    const std::string before = path.substr(0, at);
    if (fs::is_regular_file(before, ec) || (before.size() > 3 && before.substr(before.size() - 3) == ".h5"))
      throw UsageError("-o " + path + ": -o takes a file; the result is written to its /result (only generate "
                       "adds a train to a group of a file, as FILE.h5:/group)");
  }
  const fs::path p(path);
  const fs::path dir = directory_of(p);
  if (!fs::is_directory(dir, ec))
    throw OutputError(path + ": directory " + dir.string() + " does not exist");
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0) {
    struct stat st {};
    if (S_ISLNK(lst.st_mode) && ::stat(path.c_str(), &st) != 0)
      throw OutputError(path + ": is a symbolic link to a file that does not exist; give the "
                               "output's real path");
    if (!S_ISLNK(lst.st_mode)) st = lst;
    if (S_ISDIR(st.st_mode)) throw OutputError(path + ": is a directory");
    if (!S_ISREG(st.st_mode))
      throw OutputError(path + ": is " + file_kind(st.st_mode) +
                        ", not a regular file; it is never replaced (not even with --force)");
    if (!force) throw OutputError(path + ": file exists (use --force to replace it)");
  }
  const std::string name = p.filename().string();
  if (name.size() > name_max(dir))
    throw OutputError(path + ": the file name is " + std::to_string(name.size()) +
                      " bytes, longer than its file system allows (" +
                      std::to_string(name_max(dir)) + ")");
  // Writability is tried, not inferred from permission bits (root ignores them, a read-only
  // mount does not): a file is created and removed, before any work is done.
  const fs::path probe = dir / (".src-compress-probe-" + process_tag() + "-" + std::to_string(getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    throw OutputError(path + ": cannot write in directory " + dir.string() + ": " +
                      std::strerror(err));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

void check_output_not_input(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return;  // a new file cannot be an input
  for (const auto& in : inputs) {
    struct stat st {};
    if (::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
      throw OutputError("-o " + output + ": is the input " + in +
                        (in == output ? "" : " (the same file)") +
                        "; writing the result there would destroy it: give another output file");
  }
}

std::string temporary_name(const std::string& final_path) {
  const fs::path p(final_path);
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, "%s-%d-%08llx", process_tag().c_str(),
                static_cast<int>(getpid()),
                static_cast<unsigned long long>(Rng::random_seed() & 0xffffffffULL));
  return (directory_of(p) / (temp_prefix(p) + suffix)).string();
}

OutputFile::OutputFile(std::string final_path, bool force)
    : final_(std::move(final_path)), force_(force) {
  check_output_path(final_, force_);
  remove_stale_temps(final_);
  temp_ = temporary_name(final_);
}

OutputFile::~OutputFile() {
  if (!committed_) std::remove(temp_.c_str());
}

void OutputFile::start_writeback() {
  const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
  ::close(fd);
}

void OutputFile::commit() {
  // The data reaches the disk before the name does: after a crash the final name holds either
  // the old file or the complete new one.
  const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    if (err == ENOSPC || err == EDQUOT) throw ResourceError(final_ + ": disk full while saving the output");
    throw OutputError(final_ + ": cannot save the output: " + std::strerror(err));
  }
  ::close(fd);
  if (force_) {
    // What appeared under the name meanwhile must still be a file we may replace.
    struct stat st {};
    if (::lstat(final_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
      throw OutputError(final_ + ": became " + file_kind(st.st_mode) +
                        " while the result was computed; not replaced");
    if (std::rename(temp_.c_str(), final_.c_str()) != 0)
      throw OutputError(final_ + ": cannot move the result into place: " + std::strerror(errno));
  } else {
    // link() fails if the target exists: no race can make us clobber a file.
    if (::link(temp_.c_str(), final_.c_str()) != 0)
      throw OutputError(final_ + ": cannot move the result into place: " +
                        std::string(errno == EEXIST ? "file appeared meanwhile (use --force)"
                                                    : std::strerror(errno)));
    std::remove(temp_.c_str());
  }
  committed_ = true;
  const int dfd = ::open(directory_of(final_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // the rename itself; a failure here loses nothing already visible
    ::close(dfd);
  }
}

}  // namespace srcc

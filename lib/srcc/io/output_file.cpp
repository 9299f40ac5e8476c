#include "srcc/io/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"

namespace srcc {

namespace fs = std::filesystem;

void check_output_path(const std::string& path, bool force) {
  if (path.empty()) throw UsageError("-o/--output: no output file given");
  std::error_code ec;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw OutputError(path + ": directory " + dir.string() + " does not exist");
  if (fs::is_directory(p, ec)) throw OutputError(path + ": is a directory");
  if (fs::exists(p, ec) && !force)
    throw OutputError(path + ": file exists (use --force to replace it)");
  // Writability is tried, not inferred from permission bits (root ignores them, a read-only
  // mount does not): a file is created and removed, before any work is done.
  const fs::path probe = dir / (".src-compress-probe-" + std::to_string(getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    throw OutputError(path + ": cannot write in directory " + dir.string() + ": " +
                      std::strerror(err));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {

// Removes temporary files of `target` (".NAME.tmp-PID-XXXXXXXX" beside it) whose process no
// longer exists: what a SIGKILL'd or OOM-killed run of the same output left.
void remove_stale_temps(const fs::path& target) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = "." + target.filename().string() + ".tmp-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && pid != getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      fs::remove(e.path(), ec);
  }
}

}  // namespace

OutputFile::OutputFile(std::string final_path, bool force)
    : final_(std::move(final_path)), force_(force) {
  check_output_path(final_, force_);
  remove_stale_temps(final_);
  const fs::path p(final_);
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".tmp-%d-%08llx", static_cast<int>(getpid()),
                static_cast<unsigned long long>(Rng::random_seed() & 0xffffffffULL));
  temp_ = (p.parent_path() / ("." + p.filename().string() + suffix)).string();
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
  const fs::path dir = fs::path(final_).has_parent_path() ? fs::path(final_).parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // the rename itself; a failure here loses nothing already visible
    ::close(dfd);
  }
}

}  // namespace srcc

#include "srcc/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/io/pinned_file.hpp"

namespace srcc {

namespace {

bool same_inode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// An exclusive record lock on byte 0 that belongs to this open file description (not to the
// process, so that closing another descriptor of the file does not drop it).
bool take_record_lock(int fd) {
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = 0;
  fl.l_len = 1;
  return ::fcntl(fd, F_OFD_SETLK, &fl) == 0;
}

}  // namespace

FileLock::FileLock(const std::string& path, double wait_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(wait_seconds));
  for (;;) {
    poll_interrupt();
    // Read and write: record locks for writing need a descriptor open for writing.
    fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) throw OutputError(path + ": cannot open it to lock it: " + std::strerror(errno));
    struct stat locked {};
    ::fstat(fd_, &locked);
    if (::flock(fd_, LOCK_SH | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = lock_holder(locked);
      ::close(fd_);
      fd_ = -1;
      if (err != EWOULDBLOCK) throw OutputError(path + ": cannot lock it: " + std::strerror(err));
      throw OutputError(path + ": locked by " + (holder.empty() ? "another program" : holder) +
                        ", which has it open for writing; try again once it has closed it");
    }
    if (take_record_lock(fd_)) {
      // The name may have been given to a new version (the previous holder's rename) while
      // we waited: the lock counts only on the file the name holds now.
      struct stat now {};
      if (::stat(path.c_str(), &now) == 0 && same_inode(now, locked)) return;
    } else if (errno != EAGAIN && errno != EACCES) {
      const int err = errno;
      ::close(fd_);
      fd_ = -1;
      throw OutputError(path + ": cannot lock it: " + std::strerror(err));
    }
    ::close(fd_);
    fd_ = -1;
    if (Clock::now() > deadline)
      throw OutputError(path + ": another src-compress is still updating it after " +
                        std::to_string(static_cast<int>(wait_seconds)) + " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases both locks
}

}  // namespace srcc

#include "srcc/io/pinned_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "srcc/core/error.hpp"

namespace srcc {

PinnedFile::PinnedFile(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) {
      // "in.h5:psi": a file and a group without its leading slash.
      const auto colon = path.rfind(':');
      struct stat before {};
      if (colon != std::string::npos && colon + 1 < path.size() && path[colon + 1] != '/' &&
          ::stat(path.substr(0, colon).c_str(), &before) == 0 && S_ISREG(before.st_mode))
        throw InputError(path + ": no such file; a group starts with '/': " + path.substr(0, colon) + ":/" +
                         path.substr(colon + 1));
      throw InputError(path + ": no such file");
    }
    if (err == ENAMETOOLONG) throw InputError(path + ": path too long");
    throw InputError(path + ": cannot be read: " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode))
    throw InputError(path + ": not a regular file (" +
                     (S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket") +
                     "); give an HDF5 file");
  // O_NONBLOCK: should a FIFO take the name between the check and here, open() does not wait.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) {
    const int err = errno;
    throw InputError(path + ": cannot be read: " + (err == EACCES ? std::string("permission denied") : std::strerror(err)));
  }
  if (::fstat(fd_, &st_) != 0 || !S_ISREG(st_.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path + ": not a regular file; give an HDF5 file");
  }
}

PinnedFile::~PinnedFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool PinnedFile::same_file(int other_fd) const {
  struct stat o {};
  return ::fstat(other_fd, &o) == 0 && o.st_dev == st_.st_dev && o.st_ino == st_.st_ino;
}

bool PinnedFile::still_named() const {
  struct stat now {};
  return ::stat(path_.c_str(), &now) == 0 && now.st_dev == st_.st_dev && now.st_ino == st_.st_ino;
}

void PinnedFile::check_unchanged() const {
  struct stat now {};
  if (::fstat(fd_, &now) != 0) return;
  if (now.st_size != st_.st_size || now.st_mtim.tv_sec != st_.st_mtim.tv_sec ||
      now.st_mtim.tv_nsec != st_.st_mtim.tv_nsec)
    throw InputError(path_ + ": the file was modified while it was being read (its size or time "
                             "changed); what was read may mix two versions: run again once "
                             "nothing writes into it");
}

std::string PinnedFile::writer_lock_holder() const {
  // HDF5 takes a shared lock to read and an exclusive one to write: a shared lock we cannot
  // take means a writer has the file open.
  if (::flock(fd_, LOCK_SH | LOCK_NB) == 0) {
    ::flock(fd_, LOCK_UN);
    return "";
  }
  if (errno != EWOULDBLOCK) return "";
  const std::string who = lock_holder(st_);
  return who.empty() ? "another process" : who;
}

std::string lock_holder(const struct stat& st) {
  // Lines like "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (device numbers in hex).
  std::ifstream locks("/proc/locks");
  std::string line;
  char want[64];
  std::snprintf(want, sizeof want, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  while (std::getline(locks, line)) {
    std::istringstream in(line);
    std::string id, kind, mode, access, pid, where;
    in >> id >> kind;
    if (kind == "->") continue;  // a request waiting for the lock, not its holder
    in >> mode >> access >> pid >> where;
    // A writer: HDF5 holds an exclusive flock while it has the file open for writing.
    if (where != want || kind != "FLOCK" || access != "WRITE" || pid == std::to_string(::getpid()))
      continue;
    std::ifstream comm("/proc/" + pid + "/comm");
    std::string name;
    std::getline(comm, name);
    return "process " + pid + (name.empty() ? "" : " (" + name + ")");
  }
  return "";
}

}  // namespace srcc

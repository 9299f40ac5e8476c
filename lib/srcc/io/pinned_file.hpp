#pragma once
// An input file held open from its first check to the end of a run, so that every reader of
// the run — the read check's child process, the HDF5 handles, the direct reads — is checked to
// see one and the same file even when the path is given to another one meanwhile (`mv new.h5
// in.h5`, any writer that replaces files by renaming, our own `--force` among them), and so that
// a file modified in place while it is read is noticed instead of trusted. (HDF5 opens files by
// name only, and refuses /proc/self/fd/N once the name has moved on; so an HDF5 handle opened by
// name is compared with the pinned file, and a run that finds them different starts again.)
#include <sys/stat.h>

#include <string>

namespace srcc {

class PinnedFile {
 public:
  // Opens `path` read-only. Throws InputError naming it when it does not exist, cannot be
  // read, or is not a regular file (a FIFO would block a reader forever; a directory or a
  // device is no input).
  explicit PinnedFile(const std::string& path);
  ~PinnedFile();
  PinnedFile(const PinnedFile&) = delete;
  PinnedFile& operator=(const PinnedFile&) = delete;

  const std::string& path() const { return path_; }  // as given: what messages name
  int fd() const { return fd_; }
  // Whether `other_fd` is open on this file (same device and inode).
  bool same_file(int other_fd) const;
  // Whether path() still names this file.
  bool still_named() const;
  // Throws InputError when the file's size or modification time differs from when it was
  // opened: something wrote into it while the run read it, so what was read may mix versions.
  void check_unchanged() const;
  // Who holds a lock that keeps readers out (an HDF5 program with the file open for writing):
  // "process 1234 (python3)", "another process" when the system does not say, "" when none.
  std::string writer_lock_holder() const;

 private:
  std::string path_;
  int fd_ = -1;
  struct stat st_ {};
};

// The holder of an exclusive flock (an HDF5 writer's) on the file `st` describes, from
// /proc/locks: "process PID (NAME)", or "" when /proc/locks lists none (or is not there).
std::string lock_holder(const struct stat& st);

}  // namespace srcc

#pragma once
// The locks held on a file that is updated by writing a copy and renaming it over the original
// (`generate -o FILE.h5:/group` adds a group that way), so that no update is lost:
// - against other src-compress writers: an exclusive record lock (fcntl, open file
//   description) on the file's first byte; they take turns;
// - against HDF5 programs (h5py, HDF5.jl, …), which flock() a file while they have it open (a
//   shared lock to read, an exclusive one to write): our shared flock. A program that has the
//   file open for writing makes the update fail, naming it; one that opens it for writing
//   meanwhile is refused by its HDF5 library. Readers are no concern: they keep the version
//   they opened.
// Held until the object goes, after the rename.
#include <string>

namespace srcc {

class FileLock {
 public:
  // How long to wait for another src-compress writer to finish its update.
  static constexpr double kWaitSeconds = 60;

  // Locks the file now at `path` (which must exist), waiting for other src-compress writers
  // and checking for interrupts meanwhile. Throws OutputError naming the holder when a program
  // has the file open for writing, or when the wait runs out.
  explicit FileLock(const std::string& path, double wait_seconds = kWaitSeconds);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace srcc

#pragma once
// Atomic output: everything is written to a temporary file beside the target and renamed into
// place only once complete, so a killed job leaves no half-written result under the final name.
// The temporary name is `.NAME.tmp-TAG-PID-XXXXXXXX` (TAG: core/process_tag.hpp), shortened to
// fit the file system's name limit when NAME is long.
#include <cstdint>
#include <string>
#include <vector>

namespace srcc {

class OutputFile {
 public:
  // Fails with OutputError as check_output_path does.
  OutputFile(std::string final_path, bool force);
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& temp_path() const { return temp_; }
  const std::string& final_path() const { return final_; }
  // Moves the temporary file into place; without force never replaces a file that appeared
  // in the meantime.
  void commit();
  // Starts writing the temporary file's dirty pages to the disk without waiting (commit()
  // waits for them); a hint only: nothing fails if the system declines it.
  void start_writeback();

 private:
  std::string final_, temp_;
  bool force_;
  bool committed_ = false;
};

// The check a run makes before any work, so that a mistake costs nothing. Throws OutputError
// when `path` exists and !force; when it exists but is not a regular file (a device, a FIFO, a
// socket, a directory: never replaced, whatever the flags) or is a symbolic link to nothing;
// when its directory does not exist or cannot be written; when its name is longer than the
// file system allows.
void check_output_path(const std::string& path, bool force);

// Throws ResourceError when the file system that will hold `path` has less than `bytes` free for
// this user (statvfs's f_bavail): a file that cannot fit is refused before it is started.
// `what` names the writer in the message.
void check_disk_room(const std::string& path, std::uint64_t bytes, const std::string& what);

// Throws OutputError (before any work, whatever the flags) when `output` is one of `inputs`
// under any spelling: the same file by device and inode (relative paths, `./`, `..`, symbolic
// and hard links). Writing the result there would replace the input.
void check_output_not_input(const std::string& output, const std::vector<std::string>& inputs);

// The temporary name beside `final_path` for a file being written by this process (the
// random part makes it unique among this process's writers).
std::string temporary_name(const std::string& final_path);

}  // namespace srcc

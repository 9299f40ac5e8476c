#pragma once
// Atomic output: everything is written to a temporary file beside the target and renamed into
// place only once complete, so a killed job leaves no half-written result under the final name.
#include <string>

namespace srcc {

class OutputFile {
 public:
  // Fails with OutputError when the target exists (and !force) or its directory is missing.
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

// Throws OutputError when `path` exists and !force, or its directory does not exist; the
// check a run makes before any work, so a mistake costs nothing.
void check_output_path(const std::string& path, bool force);

}  // namespace srcc

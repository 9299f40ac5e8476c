// libFuzzer target for everything that reads a file someone gave us: train listing and
// description, site reads, and the output-file readers of collect and --skip-existing. Bytes
// that make any of them crash, hang or trip a sanitizer are a bug: a damaged file must end in
// an srcc::Error (exit 3), nothing else. Built and run by scripts/sanitize.sh (clang,
// -fsanitize=fuzzer, ASan, UBSan).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "srcc/srcc.hpp"

namespace {

// Sites larger than this are not read (a crafted shape could ask for terabytes; the reader's
// own checks are what is fuzzed, not the allocator).
constexpr std::size_t kMaxSiteElements = std::size_t{1} << 22;
// The read check's limit here: shorter than the fuzzer's own -timeout, so that a file HDF5 gets
// stuck on is the check's input error (contained), not a fuzzing timeout.
constexpr double kProbeSeconds = 5;

std::string scratch_file() {
  return "/tmp/srcc-fuzz-" + std::to_string(getpid()) + ".h5";
}

void read_everything(const std::string& path) {
  for (const auto& listed : srcc::list_trains(path)) {
    if (!listed.info) continue;
    srcc::TrainReader reader(srcc::TrainRef{path, listed.group, listed.format});
    srcc::TransferLog log;
    for (std::size_t j = 0; j < reader.info().length(); ++j) {
      std::size_t elements = 1;
      for (auto d : reader.info().dataset_shapes[j]) elements *= d;
      if (elements <= kMaxSiteElements) reader.read_site(j, log);
    }
  }
}

void read_as_the_tool_does(const std::string& path) {
  // The commands first read a file in a forked child (io/read_probe.hpp): a file that crashes
  // the HDF5 library there is an input error, not a finding. What must never crash is the
  // real read that follows a probe that passed, and the readers' own checks.
  try {
    srcc::probe_files(
        {path},
        [](const std::string& file) {
          read_everything(file);
          (void)srcc::read_result_record(file);
          return std::string();
        },
        kProbeSeconds);
  } catch (const srcc::InputError&) {
    return;
  }
  try {
    read_everything(path);
  } catch (const srcc::Error&) {
  }
  try {
    (void)srcc::read_result_record(path);
  } catch (const srcc::Error&) {
  }
  (void)srcc::is_complete_result(path);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = scratch_file();
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  read_as_the_tool_does(path);
  std::remove(path.c_str());
  return 0;
}

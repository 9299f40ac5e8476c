#pragma once
// The library's error family. The library never prints to stdout and never exits: it throws one
// of these, and app/main.cpp maps each kind to one documented exit code (see exit_code()).
#include <stdexcept>
#include <string>

namespace srcc {

enum class ErrorKind {
  kUsage,        // bad flag, option value or combination of options
  kInput,        // an input file, group, dataset or attribute is missing or inconsistent
  kOutput,       // the output cannot be written (exists without --force, directory missing, ...)
  kResource,     // out of memory, disk or a budget
  kBackend,      // BLAS/LAPACK/CUDA failure or an unavailable device
  kNumerical,    // non-finite values or a failed factorisation during the sweep
  kInterrupted,  // SIGINT/SIGTERM or a time limit stopped the run
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

struct UsageError : Error {
  explicit UsageError(const std::string& m) : Error(ErrorKind::kUsage, m) {}
};
struct InputError : Error {
  explicit InputError(const std::string& m) : Error(ErrorKind::kInput, m) {}
};
struct OutputError : Error {
  explicit OutputError(const std::string& m) : Error(ErrorKind::kOutput, m) {}
};
struct ResourceError : Error {
  explicit ResourceError(const std::string& m) : Error(ErrorKind::kResource, m) {}
};
struct BackendError : Error {
  explicit BackendError(const std::string& m) : Error(ErrorKind::kBackend, m) {}
};
struct NumericalError : Error {
  explicit NumericalError(const std::string& m) : Error(ErrorKind::kNumerical, m) {}
};
struct InterruptedError : Error {
  explicit InterruptedError(const std::string& m) : Error(ErrorKind::kInterrupted, m) {}
};

// Process exit status for each error kind; the table in README.md and `--help` repeats it.
// 1 is reserved for unexpected internal failures (std::exception that is not an Error).
constexpr int exit_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage: return 2;
    case ErrorKind::kInput: return 3;
    case ErrorKind::kOutput: return 4;
    case ErrorKind::kResource: return 5;
    case ErrorKind::kBackend: return 6;
    case ErrorKind::kNumerical: return 7;
    case ErrorKind::kInterrupted: return 130;
  }
  return 1;
}

}  // namespace srcc

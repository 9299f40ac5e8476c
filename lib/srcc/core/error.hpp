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
// Its cause ("stopped by SIGTERM") is kept apart from what the stop left, so that a command which
// does keep its finished work (evolve's checkpoint) can say so in place of "no output was written".
struct InterruptedError : Error {
  explicit InterruptedError(const std::string& m) : Error(ErrorKind::kInterrupted, m), cause_(m) {}
  InterruptedError(const std::string& cause, const std::string& consequence)
      : Error(ErrorKind::kInterrupted, cause + consequence), cause_(cause) {}
  const std::string& cause() const { return cause_; }

 private:
  std::string cause_;
};

// Throws the error type of `kind` (an error that crossed a process boundary as kind and text).
[[noreturn]] inline void throw_error(ErrorKind kind, const std::string& message) {
  switch (kind) {
    case ErrorKind::kUsage: throw UsageError(message);
    case ErrorKind::kInput: throw InputError(message);
    case ErrorKind::kOutput: throw OutputError(message);
    case ErrorKind::kResource: throw ResourceError(message);
    case ErrorKind::kBackend: throw BackendError(message);
    case ErrorKind::kNumerical: throw NumericalError(message);
    case ErrorKind::kInterrupted: throw InterruptedError(message);
  }
  throw InputError(message);
}

// Process exit status for each error kind; `--help` prints them from here (with
// exit_meaning), README.md's table documents them. 1 is reserved for unexpected internal
// failures (a std::exception that is not an Error).
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

inline constexpr ErrorKind kErrorKinds[] = {ErrorKind::kUsage,    ErrorKind::kInput,
                                            ErrorKind::kOutput,   ErrorKind::kResource,
                                            ErrorKind::kBackend,  ErrorKind::kNumerical,
                                            ErrorKind::kInterrupted};

// The kind's name in a JSON error object (`--json` on failure).
constexpr const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage: return "usage";
    case ErrorKind::kInput: return "input";
    case ErrorKind::kOutput: return "output";
    case ErrorKind::kResource: return "resource";
    case ErrorKind::kBackend: return "backend";
    case ErrorKind::kNumerical: return "numerical";
    case ErrorKind::kInterrupted: return "interrupted";
  }
  return "internal";
}

// What an exit status means, as --help says it.
constexpr const char* exit_meaning(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage: return "usage (bad flag or value)";
    case ErrorKind::kInput:
      return "input (missing or inconsistent input file, group, dataset or attribute)";
    case ErrorKind::kOutput: return "output (exists without --force, cannot be written)";
    case ErrorKind::kResource: return "resource (memory, disk)";
    case ErrorKind::kBackend: return "backend (BLAS/LAPACK/CUDA)";
    case ErrorKind::kNumerical: return "numerical (non-finite values, failed factorisation)";
    case ErrorKind::kInterrupted:
      return "interrupted (--max-time; SIGINT/SIGTERM end the process by the signal after the same "
             "clean-up; no output left behind, but for evolve's checkpoint)";
  }
  return "internal error";
}

}  // namespace srcc

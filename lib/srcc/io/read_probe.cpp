#include "srcc/io/read_probe.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"

namespace srcc {

namespace {

// The child's messages: a frame per event, [kind][8-byte length][payload]. kStart opens file
// i (the payload is empty), kDone carries what read() returned for it.
enum Frame : char { kStart = 'S', kDone = 'D' };

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool send(int fd, Frame kind, const std::string& payload) {
  char head[9];
  head[0] = kind;
  const std::uint64_t n = payload.size();
  std::memcpy(head + 1, &n, sizeof n);
  return write_all(fd, head, sizeof head) && write_all(fd, payload.data(), payload.size());
}

[[noreturn]] void child(int fd, const std::vector<std::string>& files,
                        const std::function<std::string(const std::string&)>& read) {
  for (const auto& file : files) {
    if (!send(fd, kStart, "")) ::_exit(0);
    std::string payload;
    try {
      payload = read(file);
    } catch (...) {
      continue;  // an ordinary error: the real read reports it
    }
    if (!send(fd, kDone, payload)) ::_exit(0);
  }
  // _exit: no exit handler or destructor of the parent's state runs here.
  ::_exit(0);
}

}  // namespace

std::vector<std::optional<std::string>> probe_files(
    const std::vector<std::string>& files,
    const std::function<std::string(const std::string&)>& read, double limit_seconds) {
  std::vector<std::optional<std::string>> out(files.size());
  if (files.empty()) return out;
  int fds[2];
  if (::pipe(fds) != 0)
    throw ResourceError(std::string("cannot start the input check: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw ResourceError(std::string("cannot start the input check: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], files, read);
  }
  ::close(fds[1]);
  std::string stream;       // bytes received and not yet parsed
  std::size_t started = 0;  // files the child has begun
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limit_seconds));
  auto parse = [&] {
    for (;;) {
      if (stream.size() < 9) return;
      std::uint64_t n = 0;
      std::memcpy(&n, stream.data() + 1, sizeof n);
      if (stream.size() < 9 + n) return;
      if (stream[0] == kStart) ++started;
      else if (stream[0] == kDone && started > 0) out[started - 1] = stream.substr(9, n);
      stream.erase(0, 9 + n);
    }
  };
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, 50) > 0) {
      char buf[1 << 16];
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n > 0) {
        stream.append(buf, static_cast<std::size_t>(n));
        parse();
        continue;
      }
      if (n == 0) break;  // the child is done (or died)
    }
    const bool late = std::chrono::steady_clock::now() > deadline;
    if (interrupt_signal() != 0 || late) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      ::close(fds[0]);
      poll_interrupt();
      const std::string& file = files[started > 0 ? started - 1 : 0];
      throw InputError(file + ": reading its metadata did not finish within " +
                       std::to_string(static_cast<int>(limit_seconds)) +
                       " s (the HDF5 library is stuck on it: the file is damaged)");
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // The child leaves with 0 whatever it read; anything else is a crash (a signal, or a
  // sanitizer's report and exit code when the tools are built with one).
  if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) {
    const std::string& file = files[started > 0 ? started - 1 : 0];
    const std::string how = WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                : "exit status " + std::to_string(WEXITSTATUS(status));
    throw InputError(file + ": reading it crashed the HDF5 library (" + how +
                     "); the file is damaged or not what it seems");
  }
  return out;
}

}  // namespace srcc

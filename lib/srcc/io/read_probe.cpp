#include "srcc/io/read_probe.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"

namespace srcc {

void probe_files(const std::vector<std::string>& files,
                 const std::function<void(const std::string&)>& read, double limit_seconds) {
  if (files.empty()) return;
  int fds[2];
  if (::pipe(fds) != 0) throw ResourceError(std::string("cannot start the input check: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw ResourceError(std::string("cannot start the input check: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // The child: reports which file it starts (an index byte), reads it, and leaves with
    // _exit, running no exit handler or destructor of the parent's state.
    ::close(fds[0]);
    for (std::size_t i = 0; i < files.size(); ++i) {
      const unsigned char mark = static_cast<unsigned char>(i & 0xff);
      if (::write(fds[1], &mark, 1) != 1) ::_exit(0);
      try {
        read(files[i]);
      } catch (...) {
        ::_exit(0);  // an ordinary error: the real read reports it
      }
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::size_t started = 0;  // files the child has begun
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limit_seconds));
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, 50);
    if (ready > 0) {
      unsigned char buf[256];
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n > 0) {
        started += static_cast<std::size_t>(n);
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
}

}  // namespace srcc

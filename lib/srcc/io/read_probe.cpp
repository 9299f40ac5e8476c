#include "srcc/io/read_probe.hpp"

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdio>

#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"

namespace srcc {

namespace {

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

// A child reads one file and writes to its pipe kRead and what read() returned, or kError, the
// error's kind and its message.
constexpr char kRead = 'R';
constexpr char kError = 'E';
constexpr char kOutOfMemory = 'M';

// Bounds what the child may map beyond its inherited address space (Linux's VmSize), so that a
// file claiming gigabytes of metadata fails in the child. Not under AddressSanitizer, whose
// reservations make the address space meaningless as a bound.
void limit_memory() {
#ifdef SRCC_SANITIZED
  return;
#endif
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  if (pages <= 0) return;
  const rlim_t have = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
  rlimit lim{};
  if (::getrlimit(RLIMIT_AS, &lim) != 0) return;
  const rlim_t want = have + kProbeMemoryBytes;
  if (lim.rlim_max == RLIM_INFINITY || want < lim.rlim_max) {
    lim.rlim_cur = want;
    ::setrlimit(RLIMIT_AS, &lim);
  }
}

std::string error_message(ErrorKind kind, const std::string& text) {
  std::string m;
  m.reserve(text.size() + 2);
  m.push_back(kError);
  m.push_back(static_cast<char>(kind));
  m.append(text);
  return m;
}

[[noreturn]] void child(int fd, const std::string& file,
                        const std::function<std::string(const std::string&)>& read) {
  limit_memory();
  std::string message;
  try {
    const std::string got = read(file);
    message.reserve(got.size() + 1);
    message.push_back(kRead);
    message.append(got);
  } catch (const Error& e) {
    message = error_message(e.kind(), e.what());
  } catch (const std::bad_alloc&) {
    message.assign(1, kOutOfMemory);
  } catch (const std::exception& e) {
    message = error_message(ErrorKind::kInput, file + ": " + e.what());
  } catch (...) {
    message.clear();
  }
  write_all(fd, message.data(), message.size());
  // _exit: no exit handler or destructor of the parent's state runs here.
  ::_exit(0);
}

// One child per file, several at once: a command reads a few files, and checking them side by
// side takes the time of the slowest instead of the sum. At most kAtOnce at a time: `collect` checks every output of a sweep, thousands of files,
// and a child each at once would run the process out of file descriptors.
constexpr std::size_t kAtOnce = 16;

using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid = -1;  // -1 before it starts and once it has been waited for
  int fd = -1;     // the read end of its pipe while open
  Clock::time_point deadline;
  std::string received;
  int status = 0;
};

// Starts the child for `file`; `running` are the siblings whose pipes it must not keep open.
Child start(const std::string& file, const std::function<std::string(const std::string&)>& read,
            const std::vector<Child>& running, Clock::duration limit) {
  int fds[2];
  if (::pipe(fds) != 0)
    throw ResourceError(std::string("cannot start the input check: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw ResourceError(std::string("cannot start the input check: ") + std::strerror(err));
  }
  if (pid == 0) {
    ::close(fds[0]);
    for (const auto& c : running)
      if (c.fd >= 0) ::close(c.fd);
    child(fds[1], file, read);
  }
  ::close(fds[1]);
  Child c;
  c.pid = pid;
  c.fd = fds[0];
  c.deadline = Clock::now() + limit;
  return c;
}

// Reads what is waiting on c's pipe; at its end, waits for the child (its status is kept).
void take(Child& c) {
  char buf[1 << 16];
  const ssize_t n = ::read(c.fd, buf, sizeof buf);
  if (n > 0) {
    c.received.append(buf, static_cast<std::size_t>(n));
    return;
  }
  if (n < 0 && errno == EINTR) return;
  ::close(c.fd);  // the child is done (or died)
  c.fd = -1;
  while (::waitpid(c.pid, &c.status, 0) < 0 && errno == EINTR) {
  }
  c.pid = -1;
}

void kill_all(std::vector<Child>& children) {
  for (auto& c : children) {
    if (c.pid > 0) {
      ::kill(c.pid, SIGKILL);
      ::waitpid(c.pid, nullptr, 0);
      c.pid = -1;
    }
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
  }
}

}  // namespace

std::vector<std::string> probe_files(
    const std::vector<std::string>& files,
    const std::function<std::string(const std::string&)>& read, double limit_seconds) {
  const auto limit = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(limit_seconds));
  std::vector<Child> children(files.size());
  std::size_t next = 0;  // the next file to start a child for
  try {
    for (;;) {
      std::vector<pollfd> open;
      std::vector<std::size_t> which;
      for (std::size_t i = 0; i < next; ++i)
        if (children[i].fd >= 0) {
          open.push_back({children[i].fd, POLLIN, 0});
          which.push_back(i);
        }
      while (open.size() < kAtOnce && next < files.size()) {
        children[next] = start(files[next], read, children, limit);
        open.push_back({children[next].fd, POLLIN, 0});
        which.push_back(next++);
      }
      if (open.empty()) break;
      if (::poll(open.data(), open.size(), 50) > 0) {
        for (std::size_t k = 0; k < open.size(); ++k)
          if ((open[k].revents & (POLLIN | POLLHUP | POLLERR)) != 0) take(children[which[k]]);
        continue;
      }
      poll_interrupt();  // SIGINT/SIGTERM: the children are killed below
      const auto now = Clock::now();
      for (std::size_t i : which)
        if (now > children[i].deadline)
          throw InputError(files[i] + ": reading its metadata did not finish within " +
                           std::to_string(static_cast<int>(limit_seconds)) +
                           " s (the HDF5 library is stuck on it: the file is damaged)");
    }
  } catch (...) {
    kill_all(children);
    throw;
  }
  std::vector<std::string> out(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const int status = children[i].status;
    // A child leaves with 0 whatever it read; anything else is a crash (a signal, or a
    // sanitizer's report and exit code when the tools are built with one).
    if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) {
      const std::string how = WIFSIGNALED(status)
                                  ? "signal " + std::to_string(WTERMSIG(status))
                                  : "exit status " + std::to_string(WEXITSTATUS(status));
      throw InputError(files[i] + ": reading it crashed the HDF5 library (" + how +
                       "); the file is damaged or not what it seems");
    }
    const std::string& got = children[i].received;
    if (got.empty())
      throw InputError(files[i] + ": the read check stopped without an answer (damaged file?)");
    if (got.front() == kOutOfMemory)
      throw ResourceError(files[i] + ": reading its metadata needs more than " +
                          std::to_string(kProbeMemoryBytes >> 20) +
                          " MiB, far more than any real train: damaged or crafted file");
    if (got.front() == kError && got.size() >= 2)
      throw_error(static_cast<ErrorKind>(got[1]), got.substr(2));
    out[i] = got.substr(1);
  }
  return out;
}

}  // namespace srcc

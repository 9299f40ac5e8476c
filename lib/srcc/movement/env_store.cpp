#include "srcc/movement/env_store.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/process_tag.hpp"

namespace srcc {

namespace fs = std::filesystem;

namespace {
// Private scratch directories are named src-compress-<tag>-<pid>-XXXXXX (tag:
// core/process_tag.hpp), so that a later run can tell those of processes of this host that no
// longer exist (killed with SIGKILL, or by the OOM killer) from those of runs on other nodes
// sharing the directory, which it never touches.
constexpr std::string_view kScratchPrefix = "src-compress-";
}  // namespace

std::vector<std::string> remove_stale_scratch(const std::string& parent) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kScratchPrefix, 0) != 0) continue;
    Owner owner;
    if (!parse_owner(std::string_view(name).substr(kScratchPrefix.size()), owner)) continue;
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
    if (!owner_is_gone(owner)) continue;
    std::error_code rm;
    fs::remove_all(entry.path(), rm);
    if (!rm) removed.push_back(entry.path().string());
  }
  return removed;
}

ScratchDir::ScratchDir(const std::string& parent) {
  std::string tmpl = (fs::path(parent) / (std::string(kScratchPrefix) + process_tag() + "-" +
                                          std::to_string(::getpid()) + "-XXXXXX"))
                         .string();
  if (!mkdtemp(tmpl.data()))
    throw ResourceError(opt::kScratchDir.name() + " " + parent + ": cannot create a private directory");
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

template <class T>
EnvStore<T>::EnvStore(Mover<T>& mover, TransferLog& log, TierRule tier, std::string scratch_parent)
    : mover_(mover), log_(log), tier_(std::move(tier)), parent_(std::move(scratch_parent)) {}

namespace {
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
// A spilled environment's file, opened for reading back.
File open_spilled(const fs::path& path) {
  File file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw ResourceError(path.string() + ": spilled environment vanished");
  return file;
}
}  // namespace

template <class T>
void EnvStore<T>::put(std::size_t block, std::size_t j, Buffer<T> env, std::size_t rows,
                      std::size_t cols) {
  Entry e;
  e.rows = rows;
  e.cols = cols;
  e.tier = tier_(j);
  if (e.tier == Tier::kMemory) {
    e.memory = std::move(env);
    std::lock_guard lock(entries_mutex_);
    entries_[{block, j}] = std::move(e);
    return;
  }
  if (e.tier == Tier::kScratch && !scratch_) scratch_ = std::make_unique<ScratchDir>(parent_);
  const auto sid = static_cast<std::int64_t>(j);
  // A host backend's memory is host memory: there "host" is "memory", and a file is written
  // straight from the environment (no copy, no fresh pages to fault in).
  const bool host_backend = !mover_.kernels().moves_data();
  if (host_backend && e.tier == Tier::kHost) {
    e.tier = Tier::kMemory;
    e.memory = std::move(env);
    std::lock_guard lock(entries_mutex_);
    entries_[{block, j}] = std::move(e);
    return;
  }
  spiller_.wait();  // one spill in flight at a time; reports the previous one's error
  const QueuePoint after = host_backend ? nullptr : mover_.kernels().mark();
  {
    std::lock_guard lock(entries_mutex_);
    entries_[{block, j}] = e;  // where it goes now, its data when the spill is done
  }
  spiller_.post([this, block, j, sid, e, env = std::move(env), after, host_backend]() mutable {
    if (host_backend)
      write_file(e, env.data(), e.rows * e.cols, block, j);
    else
      keep(e, mover_.down(env, e.rows * e.cols, "environment", sid, after), block, j);
    env.reset();
    std::lock_guard lock(entries_mutex_);
    auto& target = entries_.at({block, j});
    target.host = std::move(e.host);
    target.file = e.file;
  });
}

template <class T>
void EnvStore<T>::keep(Entry& e, std::vector<T>&& host, std::size_t block, std::size_t j) {
  if (e.tier == Tier::kHost)
    e.host = std::move(host);
  else
    write_file(e, host.data(), host.size(), block, j);
}

template <class T>
void EnvStore<T>::write_file(Entry& e, const T* data, std::size_t n, std::size_t block,
                             std::size_t j) {
  const auto t0 = std::chrono::steady_clock::now();
  e.file = scratch_->path() / ("env-" + std::to_string(block) + "-" + std::to_string(j) + ".bin");
  std::FILE* f = std::fopen(e.file.c_str(), "wb");
  const bool ok = f && std::fwrite(data, sizeof(T), n, f) == n;
  if (f && std::fclose(f) != 0) throw ResourceError(e.file.string() + ": writing failed (disk full?)");
  if (!ok) throw ResourceError(e.file.string() + ": writing the spilled environment failed");
  const std::string dt(dtype_name(dtype_of<T>));
  log_.add({.what = "environment", .site = static_cast<std::int64_t>(j),
            .mechanism = mechanism::kFileWrite, .source = "host",
            .target = "scratch:" + e.file.string(), .dtype_from = dt, .dtype_to = dt,
            .bytes = static_cast<std::int64_t>(n * sizeof(T)), .seconds = since(t0)});
}

template <class T>
void EnvStore<T>::read_rows(Entry& e, std::FILE* file, std::size_t j, std::size_t a0,
                            std::size_t count, T* into) {
  const std::size_t n = count * e.cols;
  if (!file) {
    std::copy_n(e.host.begin() + static_cast<std::ptrdiff_t>(a0 * e.cols), n, into);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::fseek(file, static_cast<long>(a0 * e.cols * sizeof(T)), SEEK_SET);
  if (std::fread(into, sizeof(T), n, file) != n)
    throw ResourceError(e.file.string() + ": reading the spilled environment failed");
  const std::string dt(dtype_name(dtype_of<T>));
  log_.add({.what = "environment", .site = static_cast<std::int64_t>(j),
            .mechanism = mechanism::kFileRead, .source = "scratch:" + e.file.string(),
            .target = "host", .dtype_from = dt, .dtype_to = dt,
            .bytes = static_cast<std::int64_t>(n * sizeof(T)), .seconds = since(t0)});
}

template <class T>
void EnvStore<T>::for_rows(std::size_t block, std::size_t j, std::size_t rows, std::size_t batch,
                           const std::function<void(const T*, std::size_t, std::size_t)>& f) {
  Entry* found = nullptr;
  {
    std::lock_guard lock(entries_mutex_);
    found = &entries_.at({block, j});
  }
  auto& e = *found;
  if (e.tier != Tier::kMemory) settle();  // its spill may still be in flight
  if (e.tier == Tier::kMemory) {
    f(e.memory.data(), 0, rows);
    return;
  }
  batch = std::max<std::size_t>(batch, 1);
  File file(nullptr, &std::fclose);
  if (e.tier == Tier::kScratch) file = open_spilled(e.file);
  const auto sid = static_cast<std::int64_t>(j);
  // A device backend copies asynchronously: the next batch goes up while f computes on this
  // one. On the host a second batch would only raise the peak, so there it is one at a time,
  // read straight into backend memory (recycled blocks: no fresh pages to fault in).
  const bool ahead = mover_.kernels().moves_data();
  auto upload = [&](std::size_t a0) {
    const std::size_t count = std::min(batch, rows - a0);
    if (!ahead) {
      Buffer<T> b = mover_.kernels().allocate(count * e.cols);
      read_rows(e, file.get(), j, a0, count, b.data());
      return b;
    }
    std::vector<T> host(count * e.cols);
    read_rows(e, file.get(), j, a0, count, host.data());
    return mover_.up(std::move(host), "environment", sid);
  };
  Buffer<T> next = upload(0);
  for (std::size_t a0 = 0; a0 < rows; a0 += batch) {
    Buffer<T> cur = std::move(next);
    const std::size_t after = a0 + batch;
    if (ahead && after < rows) next = upload(after);
    f(cur.data(), a0, std::min(batch, rows - a0));
    cur.reset();
    if (!ahead && after < rows) next = upload(after);
  }
}

template <class T> void EnvStore<T>::release(std::size_t block, std::size_t j) {
  settle();  // no spill may still be writing into the entry
  std::lock_guard lock(entries_mutex_);
  auto it = entries_.find({block, j});
  if (it == entries_.end()) return;
  if (!it->second.file.empty()) {
    std::error_code ec;
    fs::remove(it->second.file, ec);
  }
  entries_.erase(it);
}

template <class T> Buffer<T> EnvStore<T>::take(std::size_t block, std::size_t j) {
  settle();  // its spill may still be in flight
  Entry e;
  {
    std::lock_guard lock(entries_mutex_);
    auto it = entries_.find({block, j});
    if (it == entries_.end()) throw std::logic_error("EnvStore::take: no environment of cut " + std::to_string(j));
    e = std::move(it->second);
    entries_.erase(it);
  }
  const auto sid = static_cast<std::int64_t>(j);
  if (e.tier == Tier::kMemory) return std::move(e.memory);
  if (e.tier == Tier::kHost) return mover_.up(std::move(e.host), "environment", sid);
  File file = open_spilled(e.file);
  Buffer<T> out;
  if (mover_.kernels().moves_data()) {
    std::vector<T> host(e.rows * e.cols);
    read_rows(e, file.get(), j, 0, e.rows, host.data());
    out = mover_.up(std::move(host), "environment", sid);
  } else {
    out = mover_.kernels().allocate(std::max<std::size_t>(e.rows * e.cols, 1));
    read_rows(e, file.get(), j, 0, e.rows, out.data());
  }
  file.reset();
  std::error_code ec;
  fs::remove(e.file, ec);
  return out;
}

#define SRCC_INSTANTIATE(T) template class EnvStore<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

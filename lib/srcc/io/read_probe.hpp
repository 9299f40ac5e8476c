#pragma once
// Containment for files that crash HDF5 itself. libhdf5 1.10 trusts some on-disk structures
// (global heaps behind variable-length strings, object header messages, compound conversion
// paths): a crafted or damaged file can make it dereference garbage, which no check of ours
// before the call can rule out. So every file a command will read is first read, the same way,
// in a forked child process: if the child dies on a signal, the command fails with an
// InputError naming the file, instead of crashing itself. Errors the child meets normally are
// left for the real read, which reports them with its own message.
#include <functional>
#include <string>
#include <vector>

namespace srcc {

// How long the child may take: reading metadata and one element per site is quick even for
// large trains, while a crafted file can send HDF5 into an endless loop.
inline constexpr double kProbeSeconds = 30;

// Runs read(file) for each file in a child process; throws InputError naming the file the
// child crashed or got stuck on (killed after `limit_seconds`), and InterruptedError when a
// stop is requested while it runs.
void probe_files(const std::vector<std::string>& files,
                 const std::function<void(const std::string&)>& read,
                 double limit_seconds = kProbeSeconds);

}  // namespace srcc

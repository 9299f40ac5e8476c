#pragma once
// Containment for files that crash HDF5 itself. libhdf5 1.10 trusts some on-disk structures
// (global heaps behind variable-length strings, object header messages, compound conversion
// paths): a crafted or damaged file can make it dereference garbage or loop forever, which no
// check of ours before the call can rule out. So every file a command reads is first read, the
// same way, in a forked child process of its own (the files side by side): if a child dies or
// gets stuck, the command fails with an InputError naming the file instead of crashing or
// hanging itself. What a child learnt (a train's description) comes back through a pipe, so
// the real read does not repeat it.
// An error the child meets normally (a bad attribute, say) comes back and is thrown here, so the
// file is not read a second time; the child's memory is bounded (kProbeMemoryBytes), so a file
// whose metadata claims gigabytes fails there, not in the command.
#include <functional>
#include <string>
#include <vector>

namespace srcc {

// How long the child may take: reading metadata is quick even for large trains, while a crafted
// file can send HDF5 into an endless loop.
inline constexpr double kProbeSeconds = 30;

// What a child may allocate beyond what it inherited: metadata of any real file is far less.
inline constexpr std::size_t kProbeMemoryBytes = std::size_t{512} << 20;

// Runs read(file) for each file in a child process of its own (a few at a time) and returns
// what each call returned. Throws InputError naming the first file whose child crashed, or a
// file whose child got stuck (killed `limit_seconds` after it started); the error (of the same
// kind, with the same message) that read() threw in the child for the first such file; a
// ResourceError when the child ran out of its memory; InterruptedError when a stop is requested
// meanwhile.
std::vector<std::string> probe_files(
    const std::vector<std::string>& files,
    const std::function<std::string(const std::string&)>& read,
    double limit_seconds = kProbeSeconds);

}  // namespace srcc

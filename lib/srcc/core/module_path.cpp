#include "srcc/core/module_path.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

namespace srcc {

std::vector<std::string> module_candidates(const char* env_var, const std::string& built_path,
                                           const std::string& install_libdir) {
  if (const char* env = std::getenv(env_var); env && *env) return {env};
  std::vector<std::string> out;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto name = std::filesystem::path(built_path).filename();
    out.push_back((exe.parent_path() / name).string());
    out.push_back((exe.parent_path().parent_path() / install_libdir / name).string());
    out.push_back((exe.parent_path().parent_path() / "lib" / name).string());
  }
  out.push_back(built_path);
  return out;
}

void* open_module(const std::vector<std::string>& candidates, int flags, const std::string& what,
                  std::string& path, std::string& error) {
  path.clear();
  for (const auto& p : candidates) {
    std::error_code ec;
    if (candidates.size() > 1 && !std::filesystem::exists(p, ec)) continue;
    path = p;
    break;
  }
  if (path.empty()) {
    std::string where;
    for (const auto& p : candidates) where += (where.empty() ? "" : ", ") + p;
    error = "no module for " + what + " (looked at " + where + ")";
    return nullptr;
  }
  void* handle = dlopen(path.c_str(), flags);
  if (!handle) error = "cannot load " + what + " from " + path + ": " + dlerror();
  return handle;
}

}  // namespace srcc

#pragma once
// Where a module this build loads with dlopen (the CUDA backend, the MPI ranks) may be, in
// order: $ENV_VAR alone when set; beside the executable, in ../LIBDIR (cmake --install) or
// ../lib (a copied build); the path this build wrote it to.
#include <string>
#include <vector>

namespace srcc {

std::vector<std::string> module_candidates(const char* env_var, const std::string& built_path,
                                           const std::string& install_libdir);

// dlopen of the first candidate that exists (the only one when the variable names it). Returns
// the handle, or null with `error` saying which module is missing or why it did not load.
// `what` names the module in the error ("the CUDA backend").
void* open_module(const std::vector<std::string>& candidates, int flags, const std::string& what,
                  std::string& path, std::string& error);

}  // namespace srcc

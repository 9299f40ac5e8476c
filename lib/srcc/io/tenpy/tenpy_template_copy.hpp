#pragma once
// A TeNPy file's objects copied into the output, each object once. TeNPy writes an object once
// and links it from every place that holds it (the charge info from every leg, a site's physical
// leg from each tensor); a second link to an object already copied becomes a hard link to its
// copy, so the output shares what the template shares. Unlike one H5Ocopy of the whole train,
// the members the writer replaces (the tensors and their blocks) are never copied.
#include <hdf5.h>

#include <map>
#include <set>
#include <string>
#include <utility>

namespace srcc::tenpy_h5 {

class TemplateCopy {
 public:
  // `file` names the template in errors.
  TemplateCopy(hid_t from_file, std::string file, hid_t to_file) : from_(from_file), file_(std::move(file)), to_(to_file) {}

  // Copies the template's object at `from` (an absolute path) to `to` (an absolute path in the
  // output, its parent group existing): a group with its attributes and members, less the
  // direct members named in `skip`. Throws OutputError naming the template's object and the step
  // that failed.
  void copy(const std::string& from, const std::string& to, const std::set<std::string>& skip = {});

 private:
  // The object `name` under `loc` (the template's `path`, at `address`) to `to`.
  void copy_object(hid_t loc, const std::string& name, const std::string& path, haddr_t address,
                   const std::string& to, const std::set<std::string>& skip);

  hid_t from_;
  std::string file_;
  hid_t to_;
  std::map<haddr_t, std::string> copies_;  // a template object's address → where its copy is
};

}  // namespace srcc::tenpy_h5

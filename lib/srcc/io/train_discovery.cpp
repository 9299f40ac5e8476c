#include "srcc/io/train_discovery.hpp"

#include <set>

#include "srcc/core/error.hpp"
#include "srcc/io/formats.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"

namespace srcc {

namespace {


bool is_group(hid_t file, const std::string& path) {
  H5O_info_t info;
  return H5Oget_info_by_name(file, path.c_str(), &info, H5P_DEFAULT) >= 0 &&
         info.type == H5O_TYPE_GROUP;
}

}  // namespace

TrainFormat detect_format(hid_t file, const std::string& path, const std::string& where) {
  if (!is_group(file, path)) return TrainFormat::kAuto;
  h5::Handle g(H5Gopen2(file, path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid() || !h5::has_attr(g.get(), h5names::kAttrType)) return TrainFormat::kAuto;
  const std::string type = h5::read_string_attr(g.get(), h5names::kAttrType, where);
  for (const auto& row : format_table())
    if (row.is_train(g.get(), type, where)) return row.format;
  return TrainFormat::kAuto;
}

namespace {

struct Visit {
  hid_t file;
  const std::string* file_name;
  std::vector<FoundTrain> found;
  std::set<haddr_t> seen;
};

herr_t visit(hid_t root, const char* name, const H5L_info_t*, void* data) {
  auto& v = *static_cast<Visit*>(data);
  H5O_info_t info;
  if (H5Oget_info_by_name(root, name, &info, H5P_DEFAULT) < 0 || info.type != H5O_TYPE_GROUP) return 0;
  const std::string path = std::string("/") + name;
  const TrainFormat f = detect_format(v.file, path, *v.file_name + ":" + path);
  if (f != TrainFormat::kAuto && v.seen.insert(info.addr).second) v.found.push_back({path, f});
  return 0;
}

}  // namespace

std::vector<FoundTrain> find_trains(hid_t file, const std::string& file_name) {
  Visit v{file, &file_name, {}, {}};
  const TrainFormat root = detect_format(file, "/", file_name + ":/");
  if (root != TrainFormat::kAuto) v.found.push_back({"/", root});
  // An exception must not cross HDF5's C frames: errors are caught in the callback's caller.
  std::string error;
  auto guarded = [](hid_t r, const char* n, const H5L_info_t* i, void* d) -> herr_t {
    auto* pair = static_cast<std::pair<Visit*, std::string*>*>(d);
    try {
      return visit(r, n, i, pair->first);
    } catch (const Error& e) {
      *pair->second = e.what();
      return -1;
    }
  };
  std::pair<Visit*, std::string*> data{&v, &error};
  H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, guarded, &data);
  if (!error.empty()) throw InputError(error);
  return v.found;
}

}  // namespace srcc

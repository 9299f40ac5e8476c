#include "srcc/io/tenpy/tenpy_template_copy.hpp"

#include <utility>
#include <vector>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc::tenpy_h5 {

namespace {

using h5::Handle;

[[noreturn]] void failed(const std::string& what, const std::string& path) {
  throw OutputError("copying the template's " + path + ": " + what + " failed");
}

// A group's attributes as they are (types, shapes, values; h5py's variable-length strings too).
// Their names are listed first: an error is thrown here, never through HDF5's iteration.
void copy_attributes(hid_t from, hid_t to, const std::string& path) {
  std::vector<std::string> names;
  auto one = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  hsize_t at = 0;
  if (H5Aiterate2(from, H5_INDEX_NAME, H5_ITER_NATIVE, &at, one, &names) < 0) failed("listing its attributes", path);
  for (const std::string& name : names) {
    Handle a(H5Aopen(from, name.c_str(), H5P_DEFAULT), H5Aclose);
    Handle ft(H5Aget_type(a.get()), H5Tclose), space(H5Aget_space(a.get()), H5Sclose);
    Handle mt(H5Tget_native_type(ft.get(), H5T_DIR_ASCEND), H5Tclose);
    if (!a.valid() || !ft.valid() || !space.valid() || !mt.valid()) failed("reading attribute " + name, path);
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    std::vector<unsigned char> buf(static_cast<std::size_t>(points < 1 ? 1 : points) * H5Tget_size(mt.get()));
    if (H5Aread(a.get(), mt.get(), buf.data()) < 0) failed("reading attribute " + name, path);
    const bool variable = H5Tdetect_class(mt.get(), H5T_VLEN) > 0 ||
                          (H5Tget_class(mt.get()) == H5T_STRING && H5Tis_variable_str(mt.get()) > 0);
    Handle b(H5Acreate2(to, name.c_str(), ft.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    const bool ok = b.valid() && H5Awrite(b.get(), mt.get(), buf.data()) >= 0;
    if (variable) H5Dvlen_reclaim(mt.get(), space.get(), H5P_DEFAULT, buf.data());
    if (!ok) failed("writing attribute " + name, path);
  }
}

std::vector<std::pair<std::string, H5L_info_t>> links_of(hid_t group, const std::string& path) {
  std::vector<std::pair<std::string, H5L_info_t>> out;
  auto one = [](hid_t, const char* name, const H5L_info_t* info, void* data) -> herr_t {
    static_cast<std::vector<std::pair<std::string, H5L_info_t>>*>(data)->emplace_back(name, *info);
    return 0;
  };
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, one, &out) < 0) failed("listing its members", path);
  return out;
}

}  // namespace

void TemplateCopy::copy(const std::string& from, const std::string& to, const std::set<std::string>& skip) {
  H5O_info_t info;
  if (H5Oget_info_by_name2(from_, from.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
    failed("finding it", from + " (" + file_ + ")");
  try {
    copy_object(from_, from, from, info.addr, to.front() == '/' ? to : "/" + to, skip);
  } catch (const OutputError& e) {
    throw OutputError(std::string(e.what()) + " (" + file_ + ")");
  }
}

void TemplateCopy::copy_object(hid_t loc, const std::string& name, const std::string& path, haddr_t address,
                               const std::string& to, const std::set<std::string>& skip) {
  if (const auto it = copies_.find(address); it != copies_.end()) {
    if (H5Lcreate_hard(to_, it->second.c_str(), to_, to.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0)
      failed("a link to " + it->second, path);
    return;
  }
  copies_.emplace(address, to);
  Handle o(H5Oopen(loc, name.c_str(), H5P_DEFAULT), H5Oclose);
  if (!o.valid()) failed("opening it", path);
  if (H5Iget_type(o.get()) != H5I_GROUP) {
    if (H5Ocopy(loc, name.c_str(), to_, to.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) failed("the copy to " + to, path);
    return;
  }
  Handle made(H5Gcreate2(to_, to.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (!made.valid()) failed("creating " + to, path);
  copy_attributes(o.get(), made.get(), path);
  for (const auto& [member, info] : links_of(o.get(), path)) {
    if (skip.count(member)) continue;
    const std::string from = path + "/" + member, target = to + "/" + member;
    if (info.type == H5L_TYPE_HARD) {
      copy_object(o.get(), member, from, info.u.address, target, {});
      continue;
    }
    // A soft or external link stays what it is: its value, not the object it names.
    std::vector<char> value(info.u.val_size + 1);
    if (H5Lget_val(o.get(), member.c_str(), value.data(), value.size(), H5P_DEFAULT) < 0) failed("reading the link", from);
    if (info.type == H5L_TYPE_SOFT) {
      if (H5Lcreate_soft(value.data(), to_, target.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) failed("the link", from);
      continue;
    }
    const char *file = nullptr, *object = nullptr;
    if (H5Lunpack_elink_val(value.data(), value.size(), nullptr, &file, &object) < 0 ||
        H5Lcreate_external(file, object, to_, target.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0)
      failed("the external link", from);
  }
}

}  // namespace srcc::tenpy_h5

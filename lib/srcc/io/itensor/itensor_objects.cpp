#include "srcc/io/itensor/itensor_objects.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "srcc/core/error.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc::itensor {

namespace {

using h5::Handle;

constexpr std::size_t kMaxMetadata = std::size_t{1} << 24;
constexpr std::size_t kMaxRank = 16;

Handle open_group(hid_t parent, const std::string& path, const std::string& where) {
  if (!h5::exists(parent, path)) throw InputError(where + ": missing");
  Handle g(H5Gopen2(parent, path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw InputError(where + ": not a group");
  return g;
}

std::string type_attr(hid_t g, const std::string& where) {
  if (!h5::has_attr(g, "type")) throw InputError(where + ": missing attribute 'type'");
  return h5::read_string_attr(g, "type", where);
}

QN read_qn(hid_t parent, const std::string& path, const std::string& where) {
  Handle g = open_group(parent, path, where);
  if (type_attr(g.get(), where) != "QN") throw InputError(where + ": not a QN");
  QN q;
  q.names = h5::read_string_array(g.get(), "names", where + "/names", 16);
  q.vals = h5::read_int_array(g.get(), "vals", where + "/vals", 16);
  q.mods = h5::read_int_array(g.get(), "mods", where + "/mods", 16);
  if (q.vals.size() != q.mods.size() || q.names.size() != q.vals.size())
    throw InputError(where + ": names, vals and mods differ in length");
  return q;
}

Index read_index(hid_t parent, const std::string& path, const std::string& where) {
  Handle g = open_group(parent, path, where);
  if (type_attr(g.get(), where) != "Index") throw InputError(where + ": not an Index");
  Index ix;
  ix.id = h5::read_uint_dataset(g.get(), "id", where);
  ix.dim = h5::read_int_dataset(g.get(), "dim", where);
  ix.dir = h5::read_int_dataset(g.get(), "dir", where);
  ix.plev = h5::read_int_dataset(g.get(), "plev", where);
  if (ix.dim < 1 || ix.dim > (1LL << 32)) throw InputError(where + ": dimension " + std::to_string(ix.dim));
  Handle tags = open_group(g.get(), "tags", where + "/tags");
  ix.tags = h5::read_string_dataset(tags.get(), "tags", where + "/tags");
  const std::string space = h5::has_attr(g.get(), "space_type") ? h5::read_string_attr(g.get(), "space_type", where) : "Int";
  if (space == "QNBlocks") {
    Handle sp = open_group(g.get(), "space", where + "/space");
    ix.block_dims = h5::read_int_array(sp.get(), "dims", where + "/space/dims", kMaxMetadata);
    long long total = 0;
    for (std::size_t b = 0; b < ix.block_dims.size(); ++b) {
      if (ix.block_dims[b] < 1) throw InputError(where + "/space: block " + std::to_string(b + 1) + " of size " + std::to_string(ix.block_dims[b]));
      total += ix.block_dims[b];
      ix.qns.push_back(read_qn(sp.get(), "QN[" + std::to_string(b + 1) + "]", where + "/space/QN[" + std::to_string(b + 1) + "]"));
    }
    if (total != ix.dim)
      throw InputError(where + "/space: blocks add up to " + std::to_string(total) + ", the index has dimension " + std::to_string(ix.dim));
  } else if (space != "Int") {
    throw InputError(where + ": space type '" + space + "' is not read");
  }
  return ix;
}

// The element type a storage type string names: "Dense{ComplexF64}", "Diag{Float64,Vector{Float64}}", …
DType storage_dtype(const std::string& type) {
  if (type.find("ComplexF32") != std::string::npos) return DType::kComplex64;
  if (type.find("ComplexF64") != std::string::npos) return DType::kComplex128;
  if (type.find("Float32") != std::string::npos) return DType::kFloat32;
  return DType::kFloat64;
}

// The block boundaries of an index: its QN blocks, or one block of its whole dimension.
std::vector<std::size_t> block_starts(const Index& ix) {
  std::vector<std::size_t> starts{0};
  if (ix.block_dims.empty()) {
    starts.push_back(static_cast<std::size_t>(ix.dim));
  } else {
    for (auto d : ix.block_dims) starts.push_back(starts.back() + static_cast<std::size_t>(d));
  }
  return starts;
}

// The data dataset of a storage read whole, as values of `dt` (complex pairs made complex).
std::vector<unsigned char> read_data(hid_t file, const TensorInfo& t, std::size_t most, std::size_t& count,
                                     const std::string& where) {
  const std::string path = t.storage_path + "/data", w = where + "/data";
  const AnyTensor raw = h5::read_any(file, path, w, t.complex_pairs ? 2 * most : most);
  std::vector<unsigned char> out;
  std::visit([&](const auto& x) {
    using S = typename std::decay_t<decltype(x.data)>::value_type;
    if (t.complex_pairs) {
      if constexpr (is_complex_v<S>) {
        throw InputError(w + ": __complex__ data must be real pairs");
      } else {
        if (x.size() % 2 != 0) throw InputError(w + ": __complex__ data of odd length");
        count = x.size() / 2;
        out.resize(count * sizeof(cdouble));
        for (std::size_t i = 0; i < count; ++i) {
          const cdouble v(static_cast<double>(x.data[2 * i]), static_cast<double>(x.data[2 * i + 1]));
          std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
        }
      }
      return;
    }
    count = x.size();
    visit_dtype(t.dtype, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (is_complex_v<S> && !is_complex_v<T>) {
        throw InputError(w + ": complex data in a storage of real type");
      } else {
        out.resize(count * sizeof(T));
        for (std::size_t i = 0; i < count; ++i) {
          const T v = static_cast<T>(x.data[i]);
          std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
        }
      }
    });
  }, raw);
  return out;
}

}  // namespace

bool Index::has_tag(const std::string& tag) const {
  std::stringstream ss(tags);
  std::string t;
  while (std::getline(ss, t, ','))
    if (t == tag) return true;
  return false;
}

std::string Index::describe() const {
  return "(dim " + std::to_string(dim) + ", tags " + (tags.empty() ? "none" : tags) + ", plev " +
         std::to_string(plev) + ")";
}

std::size_t TensorInfo::elements() const {
  std::size_t n = 1;
  for (const auto& ix : inds) n *= static_cast<std::size_t>(ix.dim);
  return n;
}

TensorInfo read_tensor_info(hid_t file, const std::string& path, const std::string& where) {
  Handle g = open_group(file, path, where);
  if (type_attr(g.get(), where) != "ITensor") throw InputError(where + ": not an ITensor");
  TensorInfo t;
  t.path = path;
  Handle inds = open_group(g.get(), "inds", where + "/inds");
  if (type_attr(inds.get(), where + "/inds") != "IndexSet") throw InputError(where + "/inds: not an IndexSet");
  const long long n = h5::read_int_dataset(inds.get(), "length", where + "/inds");
  if (n < 0 || static_cast<std::size_t>(n) > kMaxRank) throw InputError(where + "/inds: length " + std::to_string(n));
  double elements = 1;
  for (long long k = 1; k <= n; ++k) {
    t.inds.push_back(read_index(inds.get(), "index_" + std::to_string(k), where + "/inds/index_" + std::to_string(k)));
    elements *= static_cast<double>(t.inds.back().dim);
  }
  if (elements > static_cast<double>(std::size_t{1} << 40)) throw InputError(where + ": a tensor of " + std::to_string(elements) + " elements");
  const std::string key = h5::exists(g.get(), "storage") ? "storage" : "store";  // ITensors ≤ 0.1: store
  t.storage_path = path + "/" + key;
  Handle st = open_group(g.get(), key, where + "/" + key);
  const std::string type = type_attr(st.get(), where + "/" + key);
  t.dtype = storage_dtype(type);
  if (type.rfind("Dense{", 0) == 0) t.storage = Storage::kDense;
  else if (type.rfind("BlockSparse{", 0) == 0) t.storage = Storage::kBlockSparse;
  else if (type.rfind("Diag{", 0) == 0) t.storage = Storage::kDiag;
  else if (type.rfind("EmptyStorage{", 0) == 0) t.storage = Storage::kEmpty;
  else throw InputError(where + "/" + key + ": storage '" + type + "' is not read (Dense, BlockSparse, Diag, EmptyStorage)");
  if (t.storage != Storage::kEmpty && h5::exists(st.get(), "data")) {
    Handle d(H5Dopen2(st.get(), "data", H5P_DEFAULT), H5Dclose);
    t.complex_pairs = d.valid() && h5::has_attr(d.get(), "__complex__");
    if (t.complex_pairs) t.dtype = DType::kComplex128;
  }
  return t;
}

void read_tensor_values(hid_t file, const TensorInfo& t, void* out, const std::string& where) {
  if (t.storage == Storage::kEmpty) return;
  const std::size_t total = t.elements();
  const std::size_t es = dtype_size(t.dtype);
  auto* dst = static_cast<unsigned char*>(out);
  const std::string sw = where + "/" + t.storage_path.substr(t.storage_path.rfind('/') + 1);
  std::size_t count = 0;
  if (t.storage == Storage::kDense) {
    const auto data = read_data(file, t, total, count, sw);
    if (count != total)
      throw InputError(sw + "/data: " + std::to_string(count) + " values for indices of " + std::to_string(total));
    std::memcpy(dst, data.data(), total * es);
    return;
  }
  if (t.storage == Storage::kDiag) {
    std::size_t diag = total == 0 ? 0 : static_cast<std::size_t>(t.inds.front().dim);
    for (const auto& ix : t.inds) diag = std::min(diag, static_cast<std::size_t>(ix.dim));
    const auto data = read_data(file, t, diag, count, sw);
    if (count != diag && count != 1)
      throw InputError(sw + "/data: " + std::to_string(count) + " diagonal values for a diagonal of " + std::to_string(diag));
    for (std::size_t i = 0; i < diag; ++i) {
      std::size_t at = 0, stride = 1;
      for (const auto& ix : t.inds) {
        at += i * stride;
        stride *= static_cast<std::size_t>(ix.dim);
      }
      std::memcpy(dst + at * es, data.data() + (count == 1 ? 0 : i) * es, es);
    }
    return;
  }
  for_each_block(file, t, where, [&](const std::vector<std::size_t>& first, const std::vector<std::size_t>& size,
                                     const unsigned char* block) {
    const std::size_t rank = t.inds.size();
    std::size_t block_elements = 1;
    for (auto n : size) block_elements *= n;
    std::vector<std::size_t> idx(rank, 0);
    for (std::size_t e = 0; e < block_elements; ++e) {
      std::size_t at = 0, stride = 1;
      for (std::size_t k = 0; k < rank; ++k) {
        at += (first[k] + idx[k]) * stride;
        stride *= static_cast<std::size_t>(t.inds[k].dim);
      }
      std::memcpy(dst + at * es, block + e * es, es);
      for (std::size_t k = 0; k < rank; ++k) {  // column-major: the first index fastest
        if (++idx[k] < size[k]) break;
        idx[k] = 0;
      }
    }
  });
}

void for_each_block(hid_t file, const TensorInfo& t, const std::string& where, const BlockVisitor& f) {
  // BlockSparse: blocks one after another in `data`, each column-major; `offsets` gives, per
  // block, its block number on every index (1-based) and its first element (0-based).
  const std::string sw = where + "/" + t.storage_path.substr(t.storage_path.rfind('/') + 1);
  Handle st(H5Gopen2(file, t.storage_path.c_str(), H5P_DEFAULT), H5Gclose);
  const std::size_t rank = t.inds.size(), es = dtype_size(t.dtype);
  const long long nd = h5::read_int_dataset(st.get(), "ndims", sw);
  if (nd != static_cast<long long>(rank)) throw InputError(sw + ": ndims " + std::to_string(nd) + " for " + std::to_string(rank) + " indices");
  const auto offsets = h5::read_int_array(st.get(), "offsets", sw + "/offsets", kMaxMetadata);
  if (offsets.size() % (rank + 1) != 0) throw InputError(sw + "/offsets: not (ndims + 1) values per block");
  std::size_t count = 0;
  const auto data = read_data(file, t, t.elements(), count, sw);
  std::vector<std::vector<std::size_t>> starts;
  for (const auto& ix : t.inds) starts.push_back(block_starts(ix));
  const std::size_t nblocks = offsets.size() / (rank + 1);
  for (std::size_t b = 0; b < nblocks; ++b) {
    const long long* row = offsets.data() + b * (rank + 1);
    std::vector<std::size_t> first(rank), size(rank);
    std::size_t block_elements = 1;
    for (std::size_t k = 0; k < rank; ++k) {
      const long long q = row[k];
      if (q < 1 || static_cast<std::size_t>(q) >= starts[k].size())
        throw InputError(sw + "/offsets: block " + std::to_string(b + 1) + " names block " + std::to_string(q) +
                         " of index " + std::to_string(k + 1) + ", which has " + std::to_string(starts[k].size() - 1));
      first[k] = starts[k][static_cast<std::size_t>(q) - 1];
      size[k] = starts[k][static_cast<std::size_t>(q)] - first[k];
      block_elements *= size[k];
    }
    const long long off = row[rank];
    if (off < 0 || static_cast<std::size_t>(off) + block_elements > count)
      throw InputError(sw + "/offsets: block " + std::to_string(b + 1) + " at offset " + std::to_string(off) +
                       " with " + std::to_string(block_elements) + " elements runs past the " +
                       std::to_string(count) + " values of data");
    f(first, size, data.data() + static_cast<std::size_t>(off) * es);
  }
}

}  // namespace srcc::itensor

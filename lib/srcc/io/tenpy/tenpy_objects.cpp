#include "srcc/io/tenpy/tenpy_objects.hpp"

#include <sys/stat.h>

#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/pipe_bytes.hpp"

namespace srcc::tenpy {

namespace {

using h5::Handle;

// Metadata arrays larger than this are taken for a damaged file.
constexpr std::size_t kMaxMetadata = std::size_t{1} << 24;

Handle open_object(hid_t parent, const std::string& path, const std::string& where) {
  if (!h5::exists(parent, path)) throw InputError(where + ": missing");
  Handle o(H5Oopen(parent, path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!o.valid()) throw InputError(where + ": cannot be opened");
  return o;
}

std::string class_of(hid_t obj, const std::string& where) {
  return h5::has_attr(obj, "class") ? h5::read_string_attr(obj, "class", where) : "";
}

// A file's state — device, inode, size and modification time — so that what was read from a
// file is read again once the file is rewritten.
struct FileKey {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  long long mtime_ns = 0;
  auto tie() const { return std::tie(dev, ino, size, mtime_ns); }
  bool operator<(const FileKey& o) const { return tie() < o.tie(); }
};

std::optional<FileKey> file_key_of(hid_t obj) {
  const ssize_t nf = H5Fget_name(obj, nullptr, 0);
  if (nf <= 0) return std::nullopt;
  std::string file(static_cast<std::size_t>(nf), '\0');
  H5Fget_name(obj, file.data(), file.size() + 1);
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::nullopt;
  return FileKey{st.st_dev, st.st_ino, st.st_size,
                 static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}

// TeNPy writes an object once and links it from every place that holds it: a site's physical
// leg from each tensor of the train, the charge info from every leg, each label, a bond's
// charges and block boundaries from both tensors beside it — about half of a train's metadata.
// Each is read once per file state, found by its address in the file (which every hard link to
// it shares); finding the address costs a link lookup, a tenth of opening and reading it.
struct ObjectKey {
  FileKey file;
  haddr_t address = 0;
  auto tie() const { return std::tie(file, address); }
  bool operator<(const ObjectKey& o) const { return tie() < o.tie(); }
};

std::optional<ObjectKey> object_key(const std::optional<FileKey>& file, hid_t parent, const std::string& name) {
  if (!file) return std::nullopt;
  H5L_info_t info;
  if (H5Lget_info(parent, name.c_str(), &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_HARD) return std::nullopt;
  return ObjectKey{*file, info.u.address};
}

template <class V> struct SharedObjects {
  std::mutex mutex;
  std::map<ObjectKey, V> read;
};
constexpr std::size_t kMostShared = 1 << 16;

// `read()` of the object `name` under `parent`, or what it gave for the same object before.
template <class V, class F>
V shared_object(SharedObjects<V>& memo, const std::optional<FileKey>& file, hid_t parent, const std::string& name,
                F&& read) {
  const std::optional<ObjectKey> key = object_key(file, parent, name);
  if (key) {
    std::lock_guard lock(memo.mutex);
    const auto it = memo.read.find(*key);
    if (it != memo.read.end()) return it->second;
  }
  V v = read();
  if (key) {
    std::lock_guard lock(memo.mutex);
    if (memo.read.size() >= kMostShared) memo.read.clear();
    memo.read.emplace(*key, v);
  }
  return v;
}

SharedObjects<LegCharge> shared_legs;
SharedObjects<std::string> shared_strings;
SharedObjects<std::pair<std::vector<long long>, std::vector<std::size_t>>> shared_ints;

// An integer array (with its shape), read once per file state (shared_object).
std::vector<long long> shared_int_array(const std::optional<FileKey>& file, hid_t parent, const std::string& name,
                                        const std::string& where, std::size_t most,
                                        std::vector<std::size_t>* shape = nullptr) {
  auto v = shared_object(shared_ints, file, parent, name, [&] {
    std::pair<std::vector<long long>, std::vector<std::size_t>> read;
    read.first = h5::read_int_array(parent, name, where, most, &read.second);
    return read;
  });
  if (v.first.size() > most) throw InputError(where + ": " + std::to_string(v.first.size()) + " values, at most " +
                                              std::to_string(most) + " expected here");
  if (shape) *shape = std::move(v.second);
  return std::move(v.first);
}

long long mod(long long v, long long m) {
  if (m <= 1) return v;
  const long long r = v % m;
  return r < 0 ? r + m : r;
}

}  // namespace

std::string type_of(hid_t parent, const std::string& path, const std::string& where) {
  Handle o = open_object(parent, path, where);
  return h5::has_attr(o.get(), "type") ? h5::read_string_attr(o.get(), "type", where) : "";
}

bool is_none(hid_t parent, const std::string& path, const std::string& where) {
  return type_of(parent, path, where) == "None";
}

std::size_t list_length(hid_t group, const std::string& where, std::size_t most) {
  const long long len = h5::read_int_attr(group, "len", where);
  if (len < 0 || static_cast<unsigned long long>(len) > most)
    throw InputError(where + ": a list of " + std::to_string(len) + " entries is not plausible here");
  for (long long i = 0; i < len; ++i)
    if (H5Lexists(group, std::to_string(i).c_str(), H5P_DEFAULT) <= 0)
      throw InputError(where + ": entry " + std::to_string(i) + " of " + std::to_string(len) +
                       " is missing (truncated?)");
  return static_cast<std::size_t>(len);
}

namespace {

std::vector<std::string> string_list_in(const std::optional<FileKey>& file, hid_t parent, const std::string& path,
                                        const std::string& where) {
  Handle g = open_object(parent, path, where);
  std::vector<std::string> out;
  const std::size_t n = list_length(g.get(), where, 64);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = std::to_string(i);
    out.push_back(shared_object(shared_strings, file, g.get(), name,
                                [&] { return h5::read_string_dataset(g.get(), name.c_str(), where); }));
  }
  return out;
}

}  // namespace

std::vector<std::string> string_list(hid_t parent, const std::string& path, const std::string& where) {
  return string_list_in(file_key_of(parent), parent, path, where);
}

std::optional<long long> int_or_none(hid_t parent, const std::string& path, const std::string& where) {
  if (is_none(parent, path, where)) return std::nullopt;
  const auto slash = path.rfind('/');
  Handle g = slash == std::string::npos ? Handle() : open_object(parent, path.substr(0, slash), where);
  const hid_t at = slash == std::string::npos ? parent : g.get();
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return h5::read_int_dataset(at, name.c_str(), where);
}

namespace {

SharedObjects<std::vector<long long>> shared_moduli;

std::vector<long long> charge_moduli_in(const std::optional<FileKey>& file, hid_t parent, const std::string& path,
                                        const std::string& where) {
  return shared_object(shared_moduli, file, parent, path, [&] {
    Handle info = open_object(parent, path, where);
    return h5::read_int_array(info.get(), "U1_ZN", where + "/U1_ZN", 64);
  });
}

LegCharge read_leg_from_file(const std::optional<FileKey>& file, hid_t parent, const std::string& path,
                             const std::string& where);

LegCharge leg_in(const std::optional<FileKey>& file, hid_t parent, const std::string& path, const std::string& where) {
  return shared_object(shared_legs, file, parent, path, [&] { return read_leg_from_file(file, parent, path, where); });
}

}  // namespace

std::vector<long long> read_charge_moduli(hid_t parent, const std::string& path, const std::string& where) {
  return charge_moduli_in(file_key_of(parent), parent, path, where);
}

LegCharge read_leg(hid_t parent, const std::string& path, const std::string& where) {
  return leg_in(file_key_of(parent), parent, path, where);
}

namespace {

LegCharge read_leg_from_file(const std::optional<FileKey>& file, hid_t parent, const std::string& path,
                             const std::string& where) {
  Handle g = open_object(parent, path, where);
  const std::string cls = class_of(g.get(), where);
  if (cls == "LegPipe")
    throw InputError(where + ": a LegPipe (grouped sites or legs), which src-compress does not read; "
                             "ungroup the sites in TeNPy first");
  if (cls != "LegCharge") throw InputError(where + ": expected a LegCharge, found '" + cls + "'");
  LegCharge leg;
  leg.qconj = static_cast<int>(h5::read_int_attr(g.get(), "qconj", where));
  if (leg.qconj != 1 && leg.qconj != -1) throw InputError(where + ": qconj is not +1 or -1");
  const long long ind_len = h5::read_int_attr(g.get(), "ind_len", where);
  const std::string format = h5::has_attr(g.get(), "format") ? h5::read_string_attr(g.get(), "format", where) : "blocks";
  std::vector<std::size_t> shape;
  if (format == "blocks") {
    leg.slices = shared_int_array(file, g.get(), "slices", where + "/slices", kMaxMetadata);
    leg.charges = shared_int_array(file, g.get(), "charges", where + "/charges", kMaxMetadata, &shape);
  } else if (format == "compact") {
    const auto bc = h5::read_int_array(g.get(), "blockcharges", where + "/blockcharges", kMaxMetadata, &shape);
    if (shape.size() != 2 || shape[1] < 2) throw InputError(where + "/blockcharges: not a (blocks, 2 + charges) array");
    const std::size_t nb = shape[0], w = shape[1];
    for (std::size_t b = 0; b < nb; ++b) {
      leg.slices.push_back(bc[b * w]);
      for (std::size_t q = 2; q < w; ++q) leg.charges.push_back(bc[b * w + q]);
    }
    leg.slices.push_back(nb > 0 ? bc[(nb - 1) * w + 1] : 0);
    shape = {nb, w - 2};
  } else if (format == "flat") {
    leg.charges = h5::read_int_array(g.get(), "charges", where + "/charges", kMaxMetadata, &shape);
    for (long long i = 0; i <= ind_len; ++i) leg.slices.push_back(i);
  } else {
    throw InputError(where + ": unknown LegCharge format '" + format + "'");
  }
  const std::size_t nb = leg.blocks();
  leg.num_charges = shape.size() == 2 ? shape[1] : 0;
  if (shape.size() != 2 || shape[0] != nb)
    throw InputError(where + ": " + std::to_string(nb) + " blocks but charges of shape " + shape_string(shape));
  if (leg.slices.empty() || leg.slices.front() != 0 || leg.slices.back() != ind_len)
    throw InputError(where + ": block boundaries do not run from 0 to ind_len " + std::to_string(ind_len));
  for (std::size_t b = 0; b < nb; ++b)
    if (leg.slices[b + 1] < leg.slices[b]) throw InputError(where + ": block boundaries decrease");
  return leg;
}

}  // namespace

namespace {

// `file`: the file's state, for the objects its Arrays share (none: each read from the file).
ArrayInfo read_array_info_from_file(const std::optional<FileKey>& file, hid_t parent, const std::string& path,
                                    const std::string& where);

// A run opens its inputs' metadata several times (probing them, planning, choosing the
// symmetry, reading, the write-back's template): each Array's is read once per process and
// file state. The key is the Array's file — by device, inode, size and modification time, so
// that a file rewritten in between is read again — and its path in it.
struct ArrayKey {
  FileKey file;
  std::string path;
  auto tie() const { return std::tie(file, path); }
  bool operator<(const ArrayKey& o) const { return tie() < o.tie(); }
};

std::optional<ArrayKey> key_of(hid_t parent, const std::string& path) {
  const ssize_t ng = H5Iget_name(parent, nullptr, 0);
  const std::optional<FileKey> file = file_key_of(parent);
  if (!file || ng <= 0) return std::nullopt;
  std::string group(static_cast<std::size_t>(ng), '\0');
  H5Iget_name(parent, group.data(), group.size() + 1);
  const std::string full = !path.empty() && path.front() == '/' ? path : (group == "/" ? "" : group) + "/" + path;
  return ArrayKey{*file, full};
}

// The descriptions read so far, by key; a bound on their number keeps a long-lived process (the
// Python module) from growing without end.
std::mutex cache_mutex;
std::map<ArrayKey, ArrayInfo> cache;
constexpr std::size_t kMostCached = 1 << 16;

}  // namespace

ArrayInfo read_array_info(hid_t parent, const std::string& path, const std::string& where) {
  const std::optional<ArrayKey> key = key_of(parent, path);
  if (key) {
    std::lock_guard lock(cache_mutex);
    const auto it = cache.find(*key);
    if (it != cache.end()) {
      ArrayInfo a = it->second;
      a.path = path;
      return a;
    }
  }
  ArrayInfo a = read_array_info_from_file(key ? std::optional<FileKey>(key->file) : std::nullopt, parent, path, where);
  if (key) {
    std::lock_guard lock(cache_mutex);
    if (cache.size() >= kMostCached) cache.clear();
    cache.emplace(*key, a);
  }
  return a;
}

std::string known_arrays() {
  std::lock_guard lock(cache_mutex);
  Bytes b;
  b.u64(cache.size());
  for (const auto& [k, a] : cache) {
    b.u64(static_cast<std::uint64_t>(k.file.dev));
    b.u64(static_cast<std::uint64_t>(k.file.ino));
    b.u64(static_cast<std::uint64_t>(k.file.size));
    b.u64(static_cast<std::uint64_t>(k.file.mtime_ns));
    b.str(k.path);
    b.str(a.path);
    b.u64(a.labels.size());
    for (const auto& l : a.labels) b.str(l);
    b.u64(a.legs.size());
    for (const auto& leg : a.legs) {
      b.ints(leg.slices);
      b.ints(leg.charges);
      b.u64(leg.num_charges);
      b.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(leg.qconj)));
    }
    b.ints(a.block_inds);
    b.ints(a.total_charge);
    b.ints(a.moduli);
    b.u64(a.nblocks);
    b.str(a.dtype);
  }
  return b.take();
}

namespace {

std::vector<std::pair<ArrayKey, ArrayInfo>> decoded(const std::string& bytes) {
  Unbytes b(bytes);
  const std::uint64_t n = b.u64();
  std::vector<std::pair<ArrayKey, ArrayInfo>> learnt;
  for (std::uint64_t i = 0; i < n; ++i) {
    ArrayKey k;
    k.file.dev = static_cast<dev_t>(b.u64());
    k.file.ino = static_cast<ino_t>(b.u64());
    k.file.size = static_cast<off_t>(b.u64());
    k.file.mtime_ns = static_cast<long long>(b.u64());
    k.path = b.str();
    ArrayInfo a;
    a.path = b.str();
    a.labels.resize(b.u64());
    for (auto& l : a.labels) l = b.str();
    a.legs.resize(b.u64());
    for (auto& leg : a.legs) {
      leg.slices = b.ints<long long>();
      leg.charges = b.ints<long long>();
      leg.num_charges = b.u64();
      leg.qconj = static_cast<int>(static_cast<std::int64_t>(b.u64()));
    }
    a.block_inds = b.ints<long long>();
    a.total_charge = b.ints<long long>();
    a.moduli = b.ints<long long>();
    a.nblocks = b.u64();
    a.dtype = b.str();
    learnt.emplace_back(std::move(k), std::move(a));
  }
  return learnt;
}

}  // namespace

std::vector<ArrayInfo> arrays_in(const std::string& bytes) {
  std::vector<ArrayInfo> out;
  for (auto& [k, a] : decoded(bytes)) out.push_back(std::move(a));
  return out;
}

void learn_arrays(const std::string& bytes) {
  auto learnt = decoded(bytes);
  std::lock_guard lock(cache_mutex);
  for (auto& [k, a] : learnt)
    if (cache.size() < kMostCached) cache.emplace(std::move(k), std::move(a));
}

namespace {

ArrayInfo read_array_info_from_file(const std::optional<FileKey>& file, hid_t parent, const std::string& path,
                                    const std::string& where) {
  Handle g = open_object(parent, path, where);
  const std::string cls = class_of(g.get(), where);
  if (cls != "Array") throw InputError(where + ": expected an np_conserved Array, found '" + cls + "'");
  ArrayInfo a;
  a.path = path;
  a.labels = is_none(g.get(), "labels", where + "/labels") ? std::vector<std::string>{}
                                                           : string_list_in(file, g.get(), "labels", where + "/labels");
  Handle legs = open_object(g.get(), "legs", where + "/legs");
  const std::size_t rank = list_length(legs.get(), where + "/legs", 16);
  for (std::size_t k = 0; k < rank; ++k)
    a.legs.push_back(leg_in(file, legs.get(), std::to_string(k), where + "/legs/" + std::to_string(k)));
  if (a.labels.size() != rank)
    throw InputError(where + ": " + std::to_string(a.labels.size()) + " labels for " + std::to_string(rank) + " legs");
  // The dtype group's name (a group of its own, shared like a label: one string per object).
  a.dtype = shared_object(shared_strings, file, g.get(), "dtype", [&] {
    Handle dt = open_object(g.get(), "dtype", where + "/dtype");
    return h5::read_string_attr(dt.get(), "name", where + "/dtype");
  });
  std::vector<std::size_t> shape;
  a.block_inds = h5::read_int_array(g.get(), "block_inds", where + "/block_inds", kMaxMetadata, &shape);
  Handle blocks = open_object(g.get(), "blocks", where + "/blocks");
  a.nblocks = list_length(blocks.get(), where + "/blocks", kMaxMetadata);
  if (a.nblocks > 0 && (shape.size() != 2 || shape[0] != a.nblocks || shape[1] != rank))
    throw InputError(where + "/block_inds: shape " + shape_string(shape) + " for " +
                     std::to_string(a.nblocks) + " blocks of rank " + std::to_string(rank));
  a.total_charge = h5::read_int_array(g.get(), "total_charge", where + "/total_charge", 64);
  a.moduli = charge_moduli_in(file, g.get(), "chinfo", where + "/chinfo");
  const std::size_t nq = a.moduli.size();
  if (a.total_charge.size() != nq)
    throw InputError(where + ": total_charge has " + std::to_string(a.total_charge.size()) +
                     " values for " + std::to_string(nq) + " charges");
  for (const auto& leg : a.legs)
    if (leg.num_charges != nq)
      throw InputError(where + ": a leg carries " + std::to_string(leg.num_charges) + " charges, the tensor " +
                       std::to_string(nq));
  for (std::size_t b = 0; b < a.nblocks; ++b) {
    std::vector<long long> sum(nq, 0);
    for (std::size_t k = 0; k < rank; ++k) {
      const long long q = a.block_inds[b * rank + k];
      if (q < 0 || static_cast<std::size_t>(q) >= a.legs[k].blocks())
        throw InputError(where + "/block_inds: block " + std::to_string(b) + " names block " +
                         std::to_string(q) + " of leg " + a.labels[k] + ", which has " +
                         std::to_string(a.legs[k].blocks()));
      for (std::size_t c = 0; c < nq; ++c)
        sum[c] += a.legs[k].qconj * a.legs[k].charges[static_cast<std::size_t>(q) * nq + c];
    }
    for (std::size_t c = 0; c < nq; ++c)
      if (mod(sum[c], a.moduli[c]) != mod(a.total_charge[c], a.moduli[c]))
        throw InputError(where + ": block " + std::to_string(b) + " violates the charge rule (charge " +
                         std::to_string(c) + " sums to " + std::to_string(sum[c]) +
                         ", the tensor's total charge is " + std::to_string(a.total_charge[c]) + ")");
  }
  return a;
}

}  // namespace

}  // namespace srcc::tenpy

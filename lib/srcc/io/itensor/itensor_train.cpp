#include "srcc/io/itensor/itensor_train.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <cstring>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc {

namespace {

using h5::Handle;

constexpr long long kMostSites = 1LL << 24;

char letter(std::size_t role) { return "lrud"[role]; }

// Which index of tensor j is which leg (kLegL … kLegD): the links are shared with a neighbour,
// an MPS has one site index, an MPO s (plev 0, what it takes) and s' (plev 1, what it gives).
// `basis` receives the site index's basis states where its tags name them.
std::vector<int> leg_roles(const std::vector<itensor::TensorInfo>& tensors, std::size_t j, TrainKind kind,
                           const std::string& tw, std::vector<std::string>& basis) {
  const std::size_t sites = tensors.size();
  const auto& t = tensors[j];
  std::vector<int> role(t.inds.size(), -1);
  auto shared = [&](std::size_t other, const itensor::Index& ix) {
    for (const auto& o : tensors[other].inds)
      if (o.same_as(ix)) return true;
    return false;
  };
  for (std::size_t k = 0; k < t.inds.size(); ++k) {
    const bool left = j > 0 && shared(j - 1, t.inds[k]), right = j + 1 < sites && shared(j + 1, t.inds[k]);
    if (left && right)
      throw InputError(tw + ": index " + t.inds[k].describe() + " is shared with both neighbours");
    if (left) role[k] = static_cast<int>(kLegL);
    if (right) role[k] = static_cast<int>(kLegR);
  }
  std::vector<std::size_t> site_indices;
  for (std::size_t k = 0; k < t.inds.size(); ++k)
    if (role[k] < 0) site_indices.push_back(k);
  auto count = [&](std::size_t r) { return std::count(role.begin(), role.end(), static_cast<int>(r)); };
  if (count(kLegL) > 1 || count(kLegR) > 1)
    throw InputError(tw + ": several links to one neighbour");
  if ((j > 0 && count(kLegL) == 0) || (j + 1 < sites && count(kLegR) == 0))
    throw InputError(tw + ": no index is shared with the " + std::string(j > 0 && count(kLegL) == 0 ? "left" : "right") +
                     " neighbour (the links' ids, tags or prime levels do not match)");
  if (kind == TrainKind::kMps) {
    if (site_indices.size() != 1) {
      std::string list;
      for (auto k : site_indices) list += " " + t.inds[k].describe();
      throw InputError(tw + ": " + std::to_string(site_indices.size()) +
                       " indices are neither link (an MPS tensor has one site index):" + list);
    }
    role[site_indices[0]] = static_cast<int>(kLegU);
    basis = itensor_site_basis(t.inds[site_indices[0]]);
  } else {
    // s (plev 0) is what the operator takes, s' (plev 1) what it gives.
    if (site_indices.size() != 2 || t.inds[site_indices[0]].id != t.inds[site_indices[1]].id ||
        t.inds[site_indices[0]].plev == t.inds[site_indices[1]].plev)
      throw InputError(tw + ": an MPO tensor needs one site index twice, s and s' (one id, prime "
                            "levels 0 and 1), besides its links");
    for (auto k : site_indices) role[k] = static_cast<int>(t.inds[k].plev == 0 ? kLegD : kLegU);
    basis = itensor_site_basis(t.inds[site_indices[0]]);
  }
  return role;
}

}  // namespace

std::vector<std::string> itensor_site_basis(const itensor::Index& site) {
  if (site.has_tag("S=1/2") && site.dim == 2) return {"up", "down"};
  if (site.has_tag("Electron") && site.dim == 4) return {"empty", "up", "down", "full"};
  if (site.has_tag("Fermion") && site.dim == 2) return {"empty", "full"};
  return {};
}

ItensorTrain::ItensorTrain(hid_t file, const std::string& file_name, const std::string& group) : file_(file) {
  TrainInfo& info = info_;
  info.file = file_name;
  info.group = group;
  info.format = TrainFormat::kItensor;
  const std::string where = info.where();
  Handle g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw InputError(where + ": not a group");
  const std::string type = h5::read_string_attr(g.get(), "type", where);
  info.kind = type == "MPS" ? TrainKind::kMps : TrainKind::kMpo;
  info.layout = std::string(default_layout(info.kind));
  const long long n = h5::read_int_dataset(g.get(), "length", where);
  if (n < 1 || n > kMostSites) throw InputError(where + ": length " + std::to_string(n));
  for (long long k = 1; k <= n; ++k) {
    const std::string path = group + "/" + type + "[" + std::to_string(k) + "]";
    tensors_.push_back(itensor::read_tensor_info(file, path, file_name + ":" + path));
    info.site_paths.push_back(path);
  }
  // Which index of each tensor is which leg: the links are shared with a neighbour.
  const std::size_t sites = tensors_.size();
  for (std::size_t j = 0; j < sites; ++j) {
    const auto& t = tensors_[j];
    const std::string tw = info.where(j);
    std::vector<std::string> basis;
    const std::vector<int> role = leg_roles(tensors_, j, info.kind, tw, basis);
    roles_.emplace_back(role.begin(), role.end());
    // C order reverses ITensor's column-major index order.
    std::string letters;
    std::vector<std::size_t> shape;
    SiteDims dims{1, 1, 1, 1};
    for (std::size_t k = t.inds.size(); k-- > 0;) {
      const auto r = static_cast<std::size_t>(role[k]);
      letters += info.kind == TrainKind::kMps && r == kLegU ? 'p' : letter(r);
      shape.push_back(static_cast<std::size_t>(t.inds[k].dim));
      dims[r] = static_cast<std::size_t>(t.inds[k].dim);
    }
    info.dataset_letters.push_back(letters);
    info.dataset_shapes.push_back(shape);
    info.dims.push_back(dims);
    info.dtypes.push_back(t.dtype);
    info.raw_offsets.push_back(-1);
    info.basis.push_back(std::move(basis));
  }
}

AnyTensor ItensorTrain::read_site(std::size_t j, TransferLog& log) const {
  const auto start = std::chrono::steady_clock::now();
  const auto& shape = info_.dataset_shapes[j];
  const DType dt = info_.dtypes[j];
  AnyTensor out = visit_dtype(dt, [&](auto zero) -> AnyTensor {
    using T = decltype(zero);
    Tensor<T> t(shape);
    std::fill(t.data.begin(), t.data.end(), T(0));
    itensor::read_tensor_values(file_, tensors_[j], t.data.data(), info_.where(j));
    h5::check_finite(t, shape, info_.where(j));
    return t;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  h5::log_site_read(log, info_.kind, j, info_.where(j), dt, shape_size(shape) * dtype_size(dt), seconds);
  return out;
}

std::optional<AnyBoxes> ItensorTrain::read_site_boxes(std::size_t j, TransferLog& log) const {
  const auto& t = tensors_[j];
  if (t.storage != itensor::Storage::kBlockSparse) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  const DType dt = info_.dtypes[j];
  const std::size_t rank = t.inds.size();
  std::size_t stored = 0;
  AnyBoxes out = visit_dtype(dt, [&](auto zero) -> AnyBoxes {
    using T = decltype(zero);
    SiteBoxes<T> w;
    w.dims = {info_.dims[j][kLegL], info_.dims[j][kLegR], info_.dims[j][kLegU], info_.dims[j][kLegD]};
    itensor::for_each_block(file_, t, info_.where(j), [&](const std::vector<std::size_t>& first,
                                                          const std::vector<std::size_t>& size,
                                                          const unsigned char* values) {
      typename SiteBoxes<T>::Box box;
      std::array<std::size_t, kSiteRank> extent{1, 1, 1, 1};
      for (auto& ix : box.index) ix = {0};  // legs the tensor lacks (an outer link, an MPS's d)
      for (std::size_t k = 0; k < rank; ++k) {
        const std::size_t r = roles_[j][k];
        box.index[r].clear();
        for (std::size_t i = 0; i < size[k]; ++i) box.index[r].push_back(first[k] + i);
        extent[r] = size[k];
      }
      // The block is column-major over ITensor's indices; the box row-major over (l, r, u, d).
      std::array<std::size_t, kSiteRank> stride{extent[1] * extent[2] * extent[3], extent[2] * extent[3], extent[3], 1};
      std::size_t n = 1;
      for (auto e : size) n *= e;
      box.data.resize(n);
      std::vector<std::size_t> idx(rank, 0);
      for (std::size_t e = 0; e < n; ++e) {
        std::size_t at = 0;
        for (std::size_t k = 0; k < rank; ++k) at += idx[k] * stride[roles_[j][k]];
        T v;
        std::memcpy(&v, values + e * sizeof(T), sizeof(T));
        if (!std::isfinite(std::abs(v)))
          throw InputError(info_.where(j) + ": non-finite value (NaN or Inf) in a stored block");
        box.data[at] = v;
        for (std::size_t k = 0; k < rank; ++k) {
          if (++idx[k] < size[k]) break;
          idx[k] = 0;
        }
      }
      stored += n;
      w.boxes.push_back(std::move(box));
    });
    return w;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  h5::log_site_read(log, info_.kind, j, info_.where(j), dt, stored * dtype_size(dt), seconds);
  return out;
}

bool is_itensor_train(hid_t g, const std::string& type, const std::string&) {
  if (type != "MPS" && type != "MPO") return false;
  const std::string first = type + "[1]";
  return H5Lexists(g, first.c_str(), H5P_DEFAULT) > 0 && H5Lexists(g, "0", H5P_DEFAULT) <= 0;
}

}  // namespace srcc

#include "srcc/io/tenpy/tenpy_train.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc {

namespace {

using h5::Handle;
using tenpy::ArrayInfo;

constexpr std::size_t kMostSites = std::size_t{1} << 24;

Handle open_group(hid_t parent, const std::string& path, const std::string& where) {
  if (!h5::exists(parent, path)) throw InputError(where + ": missing");
  Handle g(H5Gopen2(parent, path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw InputError(where + ": not a group");
  return g;
}

DType numpy_dtype(const std::string& name, const std::string& where) {
  if (name == "float64") return DType::kFloat64;
  if (name == "complex128") return DType::kComplex128;
  if (name == "float32") return DType::kFloat32;
  if (name == "complex64") return DType::kComplex64;
  throw InputError(where + ": element type '" + name + "' is not read (float32, float64, complex64, complex128)");
}

// Which internal leg each TeNPy axis is, from the labels (never from positions).
std::vector<std::size_t> roles(const ArrayInfo& a, TrainKind kind, const std::string& where) {
  const std::map<std::string, std::size_t> mps = {{"vL", kLegL}, {"vR", kLegR}, {"p", kLegU}};
  const std::map<std::string, std::size_t> mpo = {{"wL", kLegL}, {"wR", kLegR}, {"p", kLegU}, {"p*", kLegD}};
  const auto& want = kind == TrainKind::kMps ? mps : mpo;
  std::vector<std::size_t> out;
  for (const auto& l : a.labels) {
    const auto it = want.find(l);
    if (it == want.end())
      throw InputError(where + ": leg '" + l + "' (legs " + [&] {
        std::string s;
        for (const auto& x : a.labels) s += (s.empty() ? "" : ", ") + x;
        return s;
      }() + "): src-compress reads MPS tensors with legs vL, p, vR and MPO tensors with wL, wR, p, p*" +
                       (l == "q" ? " (a purification's q leg is not supported)" : ""));
    out.push_back(it->second);
  }
  if (out.size() != want.size()) throw InputError(where + ": " + std::to_string(out.size()) + " legs");
  return out;
}

std::size_t leg_of(const TenpyTrain::Site& s, std::size_t role) {
  for (std::size_t k = 0; k < s.role.size(); ++k)
    if (s.role[k] == role) return k;
  return s.role.size();
}

std::size_t ind_len(const TenpyTrain::Site& s, std::size_t role) {
  const std::size_t k = leg_of(s, role);
  return k < s.role.size() ? s.array.legs[k].ind_len() : 1;
}

// The physical basis of site j (Site.perm and state_labels), in the site's own order.
void read_site_basis(hid_t g, const std::string& where, std::size_t j, std::size_t d,
                     TenpyTrain::Site& s, std::vector<std::string>& basis) {
  const std::string site = "sites/" + std::to_string(j);
  if (!h5::exists(g, site)) return;
  Handle sg = open_group(g, site, where + "/" + site);
  const std::string swhere = where + "/" + site;
  if (h5::exists(sg.get(), "perm") && !tenpy::is_none(sg.get(), "perm", swhere + "/perm")) {
    const auto perm = h5::read_int_array(sg.get(), "perm", swhere + "/perm", 1 << 20);
    std::vector<bool> hit(d, false);
    for (auto p : perm) {
      if (p < 0 || static_cast<std::size_t>(p) >= d || hit[static_cast<std::size_t>(p)])
        throw InputError(swhere + "/perm: not a permutation of the " + std::to_string(d) + " states");
      hit[static_cast<std::size_t>(p)] = true;
    }
    if (perm.size() != d) throw InputError(swhere + "/perm: " + std::to_string(perm.size()) + " entries for " + std::to_string(d) + " states");
    bool identity = true;
    for (std::size_t k = 0; k < d; ++k) identity = identity && perm[k] == static_cast<long long>(k);
    if (!identity) s.perm.assign(perm.begin(), perm.end());
  }
  if (!h5::exists(sg.get(), "state_labels")) return;
  Handle labels = open_group(sg.get(), "state_labels", swhere + "/state_labels");
  std::vector<std::string> stored(d);
  H5G_info_t ginfo;
  H5Gget_info(labels.get(), &ginfo);
  for (hsize_t i = 0; i < ginfo.nlinks && i < 4096; ++i) {
    char name[256] = {0};
    H5Lget_name_by_idx(labels.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    const std::string canon = canonical_state_name(name);
    if (canon.empty()) continue;
    const long long k = h5::read_int_dataset(labels.get(), name, swhere + "/state_labels");
    if (k >= 0 && static_cast<std::size_t>(k) < d) stored[static_cast<std::size_t>(k)] = canon;
  }
  if (std::find(stored.begin(), stored.end(), "") != stored.end()) return;  // not every state named
  basis.assign(d, "");
  for (std::size_t k = 0; k < d; ++k) basis[s.perm.empty() ? k : s.perm[k]] = stored[k];
}

// (νL, νR) of every site, or nothing when a form is None (the tensors are then taken as they are).
std::optional<std::vector<std::pair<double, double>>> read_forms(hid_t g, const std::string& where, std::size_t n) {
  const std::string cw = where + "/canonical_form";
  if (tenpy::is_none(g, "canonical_form", cw)) return std::nullopt;
  Handle cf = open_group(g, "canonical_form", cw);
  if (tenpy::list_length(cf.get(), cw, kMostSites) != n) throw InputError(cw + ": not one form per site");
  std::vector<std::pair<double, double>> forms;
  for (std::size_t j = 0; j < n; ++j) {
    const std::string e = std::to_string(j), ew = cw + "/" + e;
    if (tenpy::is_none(cf.get(), e, ew)) return std::nullopt;
    Handle t = open_group(cf.get(), e, ew);
    if (tenpy::list_length(t.get(), ew, 2) != 2) throw InputError(ew + ": a form is two numbers");
    forms.emplace_back(h5::read_double_dataset(t.get(), "0", ew), h5::read_double_dataset(t.get(), "1", ew));
  }
  return forms;
}

// S_i^e for bond i (e = 0: nothing).
std::vector<double> singular_power(hid_t sv, std::size_t i, double e, std::size_t bond, const std::string& where) {
  if (e == 0) return {};
  const std::string name = std::to_string(i), w = where + "/" + name;
  const std::string type = tenpy::type_of(sv, name, w);
  if (type == "None")
    throw InputError(w + ": the singular values this bond's canonical form needs are missing");
  if (type != "array")
    throw InputError(w + ": singular values stored as '" + type +
                     "' (a 2-D Array, as DMRG with a mixer leaves them) are not read; call "
                     "psi.canonical_form() in TeNPy before saving");
  const auto s = h5::read_real_array(sv, name, w, kMostSites);
  if (s.size() != bond)
    throw InputError(w + ": " + std::to_string(s.size()) + " singular values for a bond of " + std::to_string(bond));
  std::vector<double> out;
  for (double v : s) {
    if (!(v >= 0) || (v == 0 && e < 0))
      throw InputError(w + ": singular value " + std::to_string(v) + " cannot be raised to the power " + std::to_string(e));
    out.push_back(std::pow(v, e));
  }
  return out;
}

}  // namespace

TenpyTrain::TenpyTrain(hid_t file, const std::string& file_name, const std::string& group) : file_(file) {
  TrainInfo& info = info_;
  info.file = file_name;
  info.group = group;
  info.format = TrainFormat::kTenpy;
  const std::string where = info.where();
  Handle g = open_group(file, group, where);
  const std::string cls = h5::read_string_attr(g.get(), "class", where);
  if (cls != "MPS" && cls != "MPO")
    throw InputError(where + ": a TeNPy " + cls + ", which src-compress does not read (it reads TeNPy's " +
                     "finite MPS and MPO" + (cls.find("Purification") != std::string::npos
                                                 ? "; a purification has an extra q leg per site)"
                                                 : ")"));
  info.kind = cls == "MPS" ? TrainKind::kMps : TrainKind::kMpo;
  info.layout = std::string(default_layout(info.kind));
  if (h5::has_attr(g.get(), "grouped") && h5::read_int_attr(g.get(), "grouped", where) > 1)
    throw InputError(where + ": grouped sites (grouped = " +
                     std::to_string(h5::read_int_attr(g.get(), "grouped", where)) +
                     ") are not read; ungroup them in TeNPy first");
  const std::string bc = h5::read_string_dataset(g.get(), "boundary_condition", where);
  if (bc != "finite")
    throw InputError(where + ": boundary condition '" + bc + "' (" +
                     (bc == "infinite" ? "an infinite state's unit cell" : "a segment with open outer bonds") +
                     "): src-compress reads finite TeNPy MPS and MPO only");
  Handle tensors = open_group(g.get(), "tensors", where + "/tensors");
  const std::size_t n = tenpy::list_length(tensors.get(), where + "/tensors", kMostSites);
  if (n == 0) throw InputError(where + ": no tensors");
  if (h5::has_attr(g.get(), "L") && h5::read_int_attr(g.get(), "L", where) != static_cast<long long>(n))
    throw InputError(where + ": attribute L is " + std::to_string(h5::read_int_attr(g.get(), "L", where)) +
                     " but there are " + std::to_string(n) + " tensors");
  for (std::size_t j = 0; j < n; ++j) {
    const std::string path = group + "/tensors/" + std::to_string(j);
    Site s;
    s.array = tenpy::read_array_info(file, path, file_name + ":" + path);
    s.role = roles(s.array, info.kind, file_name + ":" + path);
    sites_.push_back(std::move(s));
    info.site_paths.push_back(path);
  }
  if (info.kind == TrainKind::kMps)
    read_mps_members(g.get(), where, n);
  else
    read_mpo_members(g.get(), where, n);
  describe_sites(g.get(), where, n);
}

void TenpyTrain::read_mps_members(hid_t g, const std::string& where, std::size_t n) {
  const auto forms = read_forms(g, where, n);
  if (forms) {
    // S_i^e on bond i with e = 1 − νR(i−1) − νL(i) (outer bonds 1 − νL(0), 1 − νR(L−1)).
    const std::string sw = where + "/singular_values";
    Handle sv = open_group(g, "singular_values", sw);
    if (tenpy::list_length(sv.get(), sw, kMostSites) != n + 1) throw InputError(sw + ": not L + 1 entries");
    for (std::size_t i = 0; i <= n; ++i) {
      const double e = 1 - (i > 0 ? (*forms)[i - 1].second : 0.0) - (i < n ? (*forms)[i].first : 0.0);
      if (i < n) sites_[i].left = singular_power(sv.get(), i, e, ind_len(sites_[i], kLegL), sw);
      else sites_[n - 1].right = singular_power(sv.get(), i, e, ind_len(sites_[n - 1], kLegR), sw);
    }
  }
  if (h5::has_attr(g, "norm")) sites_[0].factor = h5::read_double_attr(g, "norm", where);
}

void TenpyTrain::read_mpo_members(hid_t g, const std::string& where, std::size_t n) {
  // The operator is ⟨IdL[0]| W_0 … W_{L−1} |IdR[L]⟩: its outer bonds keep one index each.
  auto end_index = [&](const char* name, std::size_t entry, std::size_t bond) -> long long {
    const std::string w = where + "/" + name;
    std::optional<long long> v;
    if (h5::exists(g, name) && !tenpy::is_none(g, name, w)) {
      Handle list = open_group(g, name, w);
      if (tenpy::list_length(list.get(), w, kMostSites) != n + 1) throw InputError(w + ": not L + 1 entries");
      v = tenpy::int_or_none(list.get(), std::to_string(entry), w + "/" + std::to_string(entry));
    }
    if (!v && bond == 1) return 0;
    if (!v) throw InputError(w + ": entry " + std::to_string(entry) + " is None, so the MPO's outer bond of " +
                             std::to_string(bond) + " cannot be closed");
    if (*v < 0 || static_cast<std::size_t>(*v) >= bond)
      throw InputError(w + ": entry " + std::to_string(entry) + " is " + std::to_string(*v) +
                       ", outside the bond of " + std::to_string(bond));
    return *v;
  };
  sites_.front().keep_left = end_index("index_identity_left", 0, ind_len(sites_.front(), kLegL));
  sites_.back().keep_right = end_index("index_identity_right", n, ind_len(sites_.back(), kLegR));
  plus_hc_ = h5::has_attr(g, "explicit_plus_hc") && h5::read_int_attr(g, "explicit_plus_hc", where) != 0;
}

void TenpyTrain::describe_sites(hid_t g, const std::string& where, std::size_t n) {
  TrainInfo& info = info_;
  // A site's record says how its physical basis is ordered (TeNPy stores it sorted by charge):
  // without it the site would be read in another order than its neighbours, silently wrong.
  std::size_t recorded = 0;
  for (std::size_t j = 0; j < n; ++j) recorded += h5::exists(g, "sites/" + std::to_string(j)) ? 1 : 0;
  if (recorded > 0 && recorded < n)
    for (std::size_t j = 0; j < n; ++j)
      if (!h5::exists(g, "sites/" + std::to_string(j)))
        throw InputError(where + "/sites/" + std::to_string(j) + ": missing while " + std::to_string(recorded) + " of " +
                         std::to_string(n) + " sites have theirs: the order and names of site " + std::to_string(j) +
                         "'s physical states are unknown (a damaged file?)");
  for (std::size_t j = 0; j < n; ++j) {
    Site& s = sites_[j];
    std::vector<std::string> basis;
    read_site_basis(g, where, j, ind_len(s, kLegU), s, basis);
    info.basis.push_back(std::move(basis));
    if (info.kind == TrainKind::kMpo && ind_len(s, kLegU) != ind_len(s, kLegD))
      throw InputError(info.where(j) + ": p and p* differ in size");
    SiteDims d{s.keep_left >= 0 ? 1 : ind_len(s, kLegL), s.keep_right >= 0 ? 1 : ind_len(s, kLegR),
               ind_len(s, kLegU), info.kind == TrainKind::kMpo ? ind_len(s, kLegD) : 1};
    if (plus_hc_) {
      if (j > 0) d[kLegL] *= 2;
      if (j + 1 < n) d[kLegR] *= 2;
    }
    info.dims.push_back(d);
    info.dtypes.push_back(numpy_dtype(s.array.dtype, info.where(j)));
    info.raw_offsets.push_back(-1);
    info.dataset_letters.push_back(info.kind == TrainKind::kMps ? "lrp" : "lrud");
    info.dataset_shapes.push_back(info.kind == TrainKind::kMps
                                      ? std::vector<std::size_t>{d[kLegL], d[kLegR], d[kLegU]}
                                      : std::vector<std::size_t>{d[kLegL], d[kLegR], d[kLegU], d[kLegD]});
  }
}

template <class T, class F> void TenpyTrain::for_each_block(const Site& s, F&& f) const {
  const ArrayInfo& a = s.array;
  const std::size_t rank = a.rank();
  // The Array's blocks, opened by name from their own group (not each from the file's root).
  const std::string bw0 = info_.file + ":" + a.path + "/blocks";
  Handle blocks = a.nblocks > 0 ? open_group(file_, a.path + "/blocks", bw0) : Handle();
  for (std::size_t b = 0; b < a.nblocks; ++b) {
    // Per axis of the block: where each of its indices lands on its internal leg (or nowhere:
    // an outer index the projection drops) and the factor it takes.
    BlockPlaces p;
    p.at.resize(rank);
    p.scale.resize(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      const auto& leg = a.legs[k];
      const auto q = static_cast<std::size_t>(a.block_inds[b * rank + k]);
      const auto first = static_cast<std::size_t>(leg.slices[q]), size = static_cast<std::size_t>(leg.slices[q + 1]) - first;
      p.shape.push_back(size);
      for (std::size_t i = 0; i < size; ++i) {
        const std::size_t g = first + i;
        const std::size_t role = s.role[k];
        long long at = static_cast<long long>(g);
        double factor = 1;
        if (role == kLegL) {
          if (s.keep_left >= 0) at = g == static_cast<std::size_t>(s.keep_left) ? 0 : -1;
          if (!s.left.empty()) factor = s.left[g];
        } else if (role == kLegR) {
          if (s.keep_right >= 0) at = g == static_cast<std::size_t>(s.keep_right) ? 0 : -1;
          if (!s.right.empty()) factor = s.right[g];
        } else if (!s.perm.empty()) {
          at = static_cast<long long>(s.perm[g]);
        }
        p.at[k].push_back(at);
        p.scale[k].push_back(factor);
      }
    }
    const std::string name = std::to_string(b), bw = bw0 + "/" + name;
    const AnyTensor stored = h5::read_any(blocks.get(), name, bw, shape_size(p.shape));
    if (any_shape(stored) != p.shape)
      throw InputError(bw + ": shape " + shape_string(any_shape(stored)) + ", but its legs' blocks make " +
                       shape_string(p.shape) + " (damaged or truncated Array)");
    std::visit([&](const auto& x) {
      using S = typename std::decay_t<decltype(x.data)>::value_type;
      if constexpr (is_complex_v<S> && !is_complex_v<T>) {
        throw InputError(bw + ": complex block in a tensor of real dtype " + a.dtype);
      } else {
        f(x, p);
      }
    }, stored);
  }
}

template <class T> Tensor<T> TenpyTrain::assemble(const Site& s) const {
  const std::size_t rank = s.array.rank();
  const std::size_t dl = s.keep_left >= 0 ? 1 : ind_len(s, kLegL), dr = s.keep_right >= 0 ? 1 : ind_len(s, kLegR);
  const std::size_t du = ind_len(s, kLegU), dd = info_.kind == TrainKind::kMpo ? ind_len(s, kLegD) : 1;
  Tensor<T> out({dl, dr, du, dd});
  std::fill(out.data.begin(), out.data.end(), T(0));
  std::size_t stride[kSiteRank];
  stride[kLegD] = 1;
  stride[kLegU] = dd;
  stride[kLegR] = du * dd;
  stride[kLegL] = dr * du * dd;
  for_each_block<T>(s, [&](const auto& x, const BlockPlaces& p) {
    std::vector<std::size_t> idx(rank, 0);
    for (std::size_t e = 0; e < x.size(); ++e) {
      long long at = 0;
      double f = s.factor;
      for (std::size_t k = 0; k < rank; ++k) {
        const long long d = p.at[k][idx[k]];
        if (d < 0) {
          at = -1;
          break;
        }
        at += d * static_cast<long long>(stride[s.role[k]]);
        f *= p.scale[k][idx[k]];
      }
      if (at >= 0) out.data[static_cast<std::size_t>(at)] = static_cast<T>(x.data[e]) * static_cast<real_t<T>>(f);
      for (std::size_t k = rank; k-- > 0;) {
        if (++idx[k] < p.shape[k]) break;
        idx[k] = 0;
      }
    }
  });
  return out;
}

template <class T> SiteBoxes<T> TenpyTrain::boxes(const Site& s) const {
  const std::size_t rank = s.array.rank();
  SiteBoxes<T> out;
  out.dims = {s.keep_left >= 0 ? 1 : ind_len(s, kLegL), s.keep_right >= 0 ? 1 : ind_len(s, kLegR), ind_len(s, kLegU),
              info_.kind == TrainKind::kMpo ? ind_len(s, kLegD) : 1};
  // Per internal leg, the TeNPy axis it is (rank: none, an MPS's d).
  std::array<std::size_t, kSiteRank> axis_of;
  for (std::size_t r = 0; r < kSiteRank; ++r) axis_of[r] = leg_of(s, r);
  for_each_block<T>(s, [&](const auto& x, const BlockPlaces& p) {
    // The block's strides per TeNPy axis, and per internal leg the block positions it keeps.
    std::vector<std::size_t> stride(rank, 1);
    for (std::size_t k = rank; k-- > 1;) stride[k - 1] = stride[k] * p.shape[k];
    typename SiteBoxes<T>::Box box;
    std::array<std::vector<std::size_t>, kSiteRank> from;  // block positions, per internal leg
    for (std::size_t r = 0; r < kSiteRank; ++r) {
      const std::size_t k = axis_of[r];
      if (k == rank) {
        box.index[r] = {0};
        from[r] = {0};
        continue;
      }
      for (std::size_t i = 0; i < p.shape[k]; ++i)
        if (p.at[k][i] >= 0) {
          box.index[r].push_back(static_cast<std::size_t>(p.at[k][i]));
          from[r].push_back(i);
        }
      if (box.index[r].empty()) return;  // every index dropped by a projection
    }
    auto step = [&](std::size_t r) { return axis_of[r] == rank ? 0 : stride[axis_of[r]]; };
    box.data.reserve(box.index[0].size() * box.index[1].size() * box.index[2].size() * box.index[3].size());
    std::array<std::size_t, kSiteRank> at{};  // the block position on each internal leg
    for (std::size_t a : from[kLegL])
      for (std::size_t b : from[kLegR])
        for (std::size_t u : from[kLegU])
          for (std::size_t d : from[kLegD]) {
            at = {a, b, u, d};
            // The factors in the order of TeNPy's axes, as the dense site takes them: the same
            // rounding, the same numbers.
            double f = s.factor;
            for (std::size_t k = 0; k < rank; ++k) f *= p.scale[k][at[s.role[k]]];
            const std::size_t e = a * step(kLegL) + b * step(kLegR) + u * step(kLegU) + d * step(kLegD);
            box.data.push_back(static_cast<T>(x.data[e]) * static_cast<real_t<T>>(f));
          }
    out.boxes.push_back(std::move(box));
  });
  return out;
}

AnyTensor TenpyTrain::read_site(std::size_t j, TransferLog& log) const {
  const auto start = std::chrono::steady_clock::now();
  const DType dt = info_.dtypes[j];
  const std::size_t n = info_.length();
  AnyTensor out = visit_dtype(dt, [&](auto zero) -> AnyTensor {
    using T = decltype(zero);
    Tensor<T> w = assemble<T>(sites_[j]);
    if (plus_hc_) {
      // W + W† as one train: W† has the conjugated site tensors with u and d swapped; the sum
      // is block-diagonal in the bonds, its first site a row [W, W†] and its last a column.
      const std::size_t l = w.shape[kLegL], r = w.shape[kLegR], u = w.shape[kLegU], d = w.shape[kLegD];
      const std::size_t l2 = j > 0 ? 2 * l : l, r2 = j + 1 < n ? 2 * r : r;
      Tensor<T> sum({l2, r2, u, d});
      std::fill(sum.data.begin(), sum.data.end(), T(0));
      const std::size_t l0 = j > 0 ? l : 0, r0 = j + 1 < n ? r : 0;
      for (std::size_t a = 0; a < l; ++a)
        for (std::size_t b = 0; b < r; ++b)
          for (std::size_t x = 0; x < u; ++x)
            for (std::size_t y = 0; y < d; ++y) {
              const T v = w.data[((a * r + b) * u + x) * d + y];
              sum.data[((a * r2 + b) * u + x) * d + y] += v;
              T h = w.data[((a * r + b) * u + y) * d + x];
              if constexpr (is_complex_v<T>) h = std::conj(h);
              sum.data[(((l0 + a) * r2 + r0 + b) * u + x) * d + y] += h;
            }
      w = std::move(sum);
    }
    w.shape = info_.dataset_shapes[j];
    h5::check_finite(w, w.shape, info_.where(j));
    return w;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  h5::log_site_read(log, info_.kind, j, info_.where(j), dt, shape_size(info_.dataset_shapes[j]) * dtype_size(dt), seconds);
  return out;
}

std::optional<AnyBoxes> TenpyTrain::read_site_boxes(std::size_t j, TransferLog& log) const {
  const std::size_t n = info_.length();
  // W + W† of one site would overlap itself: that one reads dense.
  if (plus_hc_ && n == 1) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  const DType dt = info_.dtypes[j];
  std::size_t stored = 0;
  AnyBoxes out = visit_dtype(dt, [&](auto zero) -> AnyBoxes {
    using T = decltype(zero);
    SiteBoxes<T> w = boxes<T>(sites_[j]);
    for (const auto& b : w.boxes) stored += b.data.size();
    if (plus_hc_) {
      // W† beside W (as read_site makes it): its boxes shifted to the second half of each bond
      // that has two, u and d swapped, transposed and conjugated.
      const std::size_t l0 = j > 0 ? w.dims[kLegL] : 0, r0 = j + 1 < n ? w.dims[kLegR] : 0;
      const std::size_t count = w.boxes.size();
      for (std::size_t i = 0; i < count; ++i) {
        const auto& b = w.boxes[i];
        typename SiteBoxes<T>::Box h;
        for (std::size_t a : b.index[kLegL]) h.index[kLegL].push_back(l0 + a);
        for (std::size_t c : b.index[kLegR]) h.index[kLegR].push_back(r0 + c);
        h.index[kLegU] = b.index[kLegD];
        h.index[kLegD] = b.index[kLegU];
        const std::size_t lr = b.index[kLegL].size() * b.index[kLegR].size(), u = b.index[kLegU].size(),
                          d = b.index[kLegD].size();
        h.data.resize(b.data.size());
        for (std::size_t p = 0; p < lr; ++p)
          for (std::size_t x = 0; x < d; ++x)
            for (std::size_t y = 0; y < u; ++y) {
              T v = b.data[(p * u + y) * d + x];
              if constexpr (is_complex_v<T>) v = std::conj(v);
              h.data[(p * d + x) * u + y] = v;
            }
        w.boxes.push_back(std::move(h));
      }
      if (j > 0) w.dims[kLegL] *= 2;
      if (j + 1 < n) w.dims[kLegR] *= 2;
    }
    for (const auto& b : w.boxes)
      for (const T& v : b.data)
        if (!std::isfinite(std::abs(v)))
          throw InputError(info_.where(j) + ": a value leaves the range of " + std::string(dtype_name(dt)) +
                           " once the canonical form's singular values are applied");
    return w;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  h5::log_site_read(log, info_.kind, j, info_.where(j), dt, stored * dtype_size(dt), seconds);
  return out;
}

bool is_tenpy_train(hid_t g, const std::string& type, const std::string& where) {
  if (type != "instance" || !h5::has_attr(g, "class") || !h5::has_attr(g, "module")) return false;
  const std::string cls = h5::read_string_attr(g, "class", where);
  const std::string module = h5::read_string_attr(g, "module", where);
  const auto ends_with = [&](const char* s) {
    const std::string e(s);
    return cls.size() >= e.size() && cls.compare(cls.size() - e.size(), e.size(), e) == 0;
  };
  return module.rfind("tenpy.", 0) == 0 && (ends_with("MPS") || ends_with("MPO"));
}

}  // namespace srcc

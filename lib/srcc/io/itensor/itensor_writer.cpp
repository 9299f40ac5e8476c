#include "srcc/io/itensor/itensor_writer.hpp"

#include <algorithm>
#include <map>
#include <functional>
#include <random>
#include <set>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/itensor/itensor_encoding.hpp"
#include "srcc/io/itensor/itensor_train.hpp"

namespace srcc {

namespace {

using h5::Handle;
using itensor::Index;
using namespace julia_h5;

// --- charges: ITensor's QN slots as the components of a charge ---------------------------------

struct QnNames {
  std::vector<std::string> names;  // in order: charge c is names[c]
  std::vector<long long> mods;     // as stored (negative: fermionic)
};

QnNames qn_names(const std::vector<const Index*>& sites) {
  std::map<std::string, long long> seen;
  for (const Index* ix : sites)
    for (const auto& q : ix->qns)
      for (std::size_t s = 0; s < q.names.size(); ++s)
        if (q.mods[s] != 0 && !q.names[s].empty()) seen.emplace(q.names[s], q.mods[s]);
  QnNames out;
  for (const auto& [name, mod] : seen) {
    out.names.push_back(name);
    out.mods.push_back(mod);
  }
  return out;
}

Charge qn_charge(const itensor::QN& q, const QnNames& names) {
  Charge c(names.names.size(), 0);
  for (std::size_t s = 0; s < q.names.size(); ++s)
    for (std::size_t k = 0; k < names.names.size(); ++k)
      if (q.mods[s] != 0 && q.names[s] == names.names[k]) c[k] = q.vals[s];
  return c;
}

// Each index's charge, block by block, times `sign`.
std::vector<Charge> index_charges(const Index& ix, const QnNames& names, long long sign) {
  std::vector<Charge> out;
  for (std::size_t b = 0; b < ix.qns.size(); ++b) {
    Charge c = qn_charge(ix.qns[b], names);
    for (auto& v : c) v *= sign;
    for (long long i = 0; i < ix.block_dims[b]; ++i) out.push_back(c);
  }
  return out;
}

// Σ dir·qn over the indices of one of the tensor's nonzero elements: its flux.
Charge flux(hid_t file, const itensor::TensorInfo& t, const QnNames& names, const std::string& where) {
  const std::size_t nq = names.names.size();
  std::vector<std::vector<Charge>> per;
  for (const auto& ix : t.inds) per.push_back(index_charges(ix, names, ix.dir));
  std::vector<unsigned char> buf(t.elements() * dtype_size(t.dtype), 0);
  itensor::read_tensor_values(file, t, buf.data(), where);
  const std::size_t es = dtype_size(t.dtype);
  for (std::size_t e = 0; e < t.elements(); ++e) {
    bool zero = true;
    for (std::size_t b = 0; b < es; ++b) zero = zero && buf[e * es + b] == 0;
    if (zero) continue;
    Charge sum(nq, 0);
    std::size_t rest = e;
    for (std::size_t k = 0; k < t.inds.size(); ++k) {
      const auto d = static_cast<std::size_t>(t.inds[k].dim);
      const std::size_t i = rest % d;  // column-major: the first index fastest
      rest /= d;
      for (std::size_t c = 0; c < nq; ++c) sum[c] += per[k][i][c];
    }
    return sum;
  }
  return Charge(nq, 0);
}

bool has_qns(const Index& ix) { return !ix.qns.empty(); }

}  // namespace

SectorTemplate itensor_sector_template(const std::string& file, const std::string& grp, TrainKind kind) {
  Handle f = h5::open_for_reading(file);
  const ItensorTrain train(f.get(), file, grp);
  const auto& tensors = train.tensors();
  std::vector<const Index*> sites;
  std::vector<std::pair<const Index*, const Index*>> ud;  // per site: u and d (MPS: d null)
  for (std::size_t j = 0; j < tensors.size(); ++j) {
    const Index* u = nullptr;
    const Index* d = nullptr;
    for (std::size_t k = 0; k < tensors[j].inds.size(); ++k) {
      if (train.role(j, k) == kLegU) u = &tensors[j].inds[k];
      if (train.role(j, k) == kLegD) d = &tensors[j].inds[k];
    }
    ud.emplace_back(u, d);
    sites.push_back(u);
  }
  SectorTemplate t;
  const bool charged = std::all_of(sites.begin(), sites.end(), [](const Index* ix) { return has_qns(*ix); });
  const QnNames names = charged ? qn_names(sites) : QnNames{};
  for (long long m : names.mods) t.rule.moduli.push_back(std::abs(m));
  const std::size_t nq = names.names.size();
  Charge total(nq, 0);
  for (std::size_t j = 0; j < tensors.size(); ++j) {
    const auto [u, d] = ud[j];
    if (charged) {
      t.up.push_back(index_charges(*u, names, u->dir == 0 ? 1 : u->dir));
      t.down.push_back(kind == TrainKind::kMpo && d ? index_charges(*d, names, d->dir == 0 ? 1 : -d->dir)
                                                    : std::vector<Charge>{Charge(nq, 0)});
      const Charge fl = flux(f.get(), tensors[j], names, file + ":" + tensors[j].path);
      for (std::size_t c = 0; c < nq; ++c) total[c] += fl[c];
    } else {
      t.up.push_back(std::vector<Charge>(static_cast<std::size_t>(u->dim), Charge{}));
      t.down.push_back(std::vector<Charge>(d ? static_cast<std::size_t>(d->dim) : 1, Charge{}));
    }
    t.site_total.push_back(Charge(nq, 0));
  }
  t.left = Charge(nq, 0);
  t.right = t.rule.reduce(total);
  return t;
}

namespace {

// Fresh links between the sites, with random 64-bit ids as ITensor draws them; with charges, each
// link's QN blocks from the bond's sectors.
template <class T>
std::vector<Index> fresh_links(const std::vector<std::size_t>& dims, const SectorForm<T>* form, const QnNames& names) {
  const std::size_t n = dims.size() + 1;
  const bool qn = form != nullptr;
  std::mt19937_64 rng(std::random_device{}());
  std::vector<Index> links(n > 0 ? n - 1 : 0);
  for (std::size_t j = 0; j + 1 < n; ++j) {
    Index& l = links[j];
    l.id = rng();
    l.dim = static_cast<long long>(dims[j]);
    l.dir = qn ? -1 : 0;  // QN: In on the tensor to its left, Out on the one to its right
    l.tags = "Link,l=" + std::to_string(j + 1);
    if (!qn) continue;
    const auto& bond = form->bonds[j + 1];
    for (std::size_t i = 0; i < bond.size(); ++i) {
      if (i == 0 || bond[i] != bond[i - 1]) {
        l.block_dims.push_back(0);
        itensor::QN q;
        for (std::size_t s = 0; s < 4; ++s) {
          q.names.push_back(s < names.names.size() ? names.names[s] : "");
          q.vals.push_back(s < names.names.size() ? bond[i][s] : 0);
          q.mods.push_back(s < names.names.size() ? names.mods[s] : 0);
        }
        l.qns.push_back(q);
      }
      ++l.block_dims.back();
    }
  }
  return links;
}

void write_index(hid_t parent, const std::string& name, const Index& ix) {
  Handle h = typed_group(parent, name, "Index");
  uint_dataset(h.get(), "id", ix.id);
  int_dataset(h.get(), "dim", ix.dim);
  int_dataset(h.get(), "dir", ix.dir);
  Handle tags = typed_group(h.get(), "tags", "TagSet");
  string_dataset(tags.get(), "tags", ix.tags);
  int_dataset(h.get(), "plev", ix.plev);
  if (ix.qns.empty()) {
    string_attr(h.get(), "space_type", "Int");
    return;
  }
  string_attr(h.get(), "space_type", "QNBlocks");
  Handle sp = typed_group(h.get(), "space", "QNBlocks");
  int_dataset(sp.get(), "length", static_cast<long long>(ix.qns.size()));
  int_vector(sp.get(), "dims", ix.block_dims);
  for (std::size_t b = 0; b < ix.qns.size(); ++b) {
    Handle q = typed_group(sp.get(), "QN[" + std::to_string(b + 1) + "]", "QN");
    string_vector(q.get(), "names", ix.qns[b].names);
    int_vector(q.get(), "vals", ix.qns[b].vals);
    int_vector(q.get(), "mods", ix.qns[b].mods);
  }
}

// Site j's indices and the internal leg each stands for: the left link (Out here), the
// template's site index (MPO: s', s), the right link.
struct SiteIndices {
  std::vector<Index> inds;
  std::vector<std::size_t> roles;
};
SiteIndices site_indices(const ItensorTrain& tpl, std::size_t j, std::size_t n, TrainKind kind, bool qn,
                         const std::vector<Index>& links) {
  SiteIndices out;
  if (j > 0) {
    Index l = links[j - 1];
    if (qn) l.dir = 1;
    out.inds.push_back(l);
    out.roles.push_back(kLegL);
  }
  for (std::size_t want : {kLegU, kLegD})
    for (std::size_t k = 0; k < tpl.tensors()[j].inds.size(); ++k)
      if (tpl.role(j, k) == want && !(kind == TrainKind::kMps && want == kLegD)) {
        Index s = tpl.tensors()[j].inds[k];
        if (!qn) s.qns.clear(), s.block_dims.clear();
        out.inds.push_back(s);
        out.roles.push_back(want);
      }
  if (j + 1 < n) {
    out.inds.push_back(links[j]);
    out.roles.push_back(kLegR);
  }
  return out;
}

using ElementAt = std::function<cdouble(const std::vector<std::size_t>&)>;

// Every element, column-major over the indices (the first fastest).
std::vector<cdouble> dense_data(const std::vector<std::size_t>& dims, const ElementAt& value) {
  std::size_t total = 1;
  for (auto d : dims) total *= d;
  std::vector<cdouble> data;
  std::vector<std::size_t> i(dims.size(), 0);
  for (std::size_t e = 0; e < total; ++e) {
    data.push_back(value(i));
    for (std::size_t k = 0; k < dims.size(); ++k) {
      if (++i[k] < dims[k]) break;
      i[k] = 0;
    }
  }
  return data;
}

// Every block (one QN block per index) that the flux rule allows (`want`) and that holds
// something, in column-major order: what the rule forbids holds rounding only (an SVD mixes
// columns). `offsets` gets each block's numbers (1-based) and its start in the data.
std::vector<cdouble> block_data(const std::vector<Index>& inds, const QnNames& names, const ChargeRule& rule,
                                const Charge& want, const ElementAt& value, std::vector<long long>& offsets) {
  std::vector<cdouble> data;
  std::vector<std::vector<std::size_t>> starts;
  for (const auto& ix : inds) {
    std::vector<std::size_t> s{0};
    for (auto d : ix.block_dims) s.push_back(s.back() + static_cast<std::size_t>(d));
    starts.push_back(s);
  }
  std::vector<std::size_t> b(inds.size(), 0);
  for (;;) {
    std::vector<std::size_t> size, first;
    std::size_t count = 1;
    for (std::size_t k = 0; k < inds.size(); ++k) {
      first.push_back(starts[k][b[k]]);
      size.push_back(starts[k][b[k] + 1] - first.back());
      count *= size.back();
    }
    std::vector<cdouble> block = dense_data(size, [&](const std::vector<std::size_t>& w) {
      std::vector<std::size_t> at(inds.size());
      for (std::size_t k = 0; k < inds.size(); ++k) at[k] = first[k] + w[k];
      return value(at);
    });
    const bool any = std::any_of(block.begin(), block.end(), [](const cdouble& v) { return v != cdouble(0); });
    Charge flux(names.names.size(), 0);
    for (std::size_t k = 0; k < inds.size(); ++k) {
      const Charge q = qn_charge(inds[k].qns[b[k]], names);
      for (std::size_t c = 0; c < q.size(); ++c) flux[c] += (inds[k].dir == 0 ? 1 : inds[k].dir) * q[c];
    }
    if (any && rule.reduce(flux) == want) {
      for (auto x : b) offsets.push_back(static_cast<long long>(x + 1));
      offsets.push_back(static_cast<long long>(data.size()));
      data.insert(data.end(), block.begin(), block.end());
    }
    std::size_t k = 0;
    for (; k < inds.size(); ++k) {
      if (++b[k] < starts[k].size() - 1) break;
      b[k] = 0;
    }
    if (k == inds.size()) return data;
  }
}

// The storage's `data` dataset: complex128 or float64 as the train's type is.
void write_storage_data(hid_t st, const std::vector<cdouble>& data, bool complex, const std::string& what) {
  const hsize_t len = data.size();
  Handle space(H5Screate_simple(1, &len, nullptr), H5Sclose);
  Handle ft = h5::file_type(complex ? DType::kComplex128 : DType::kFloat64);
  Handle d(H5Dcreate2(st, "data", ft.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  herr_t ok;
  if (complex) {
    Handle mt = h5::memory_type(DType::kComplex128, "r", "i");
    ok = H5Dwrite(d.get(), mt.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  } else {
    std::vector<double> re;
    for (const auto& v : data) re.push_back(v.real());
    ok = H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, re.data());
  }
  if (!d.valid() || (len > 0 && ok < 0)) throw OutputError(what + " failed");
}

}  // namespace

template <class T>
void write_itensor_train(hid_t out, const std::string& out_group, TrainKind kind,
                         const std::vector<Tensor<T>>& cores, const SectorForm<T>* form,
                         const std::string& file, const std::string& grp, const std::string& label) {
  Handle f = h5::open_for_reading(file);
  const ItensorTrain tpl(f.get(), file, grp);
  const bool qn = form != nullptr;
  const std::size_t n = qn ? form->sites() : cores.size();
  // With charges each core is the form's, made as it is written (SectorForm::core).
  std::vector<std::size_t> link_dims;
  for (std::size_t j = 0; j + 1 < n; ++j) link_dims.push_back(qn ? form->bonds[j + 1].size() : cores[j].shape[kLegR]);
  const QnNames names = [&] {
    std::vector<const Index*> sites;
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = 0; k < tpl.tensors()[j].inds.size(); ++k)
        if (tpl.role(j, k) == kLegU) sites.push_back(&tpl.tensors()[j].inds[k]);
    return qn ? qn_names(sites) : QnNames{};
  }();
  const std::vector<Index> links = fresh_links(link_dims, form, names);
  const std::string type(train_kind_name(kind));
  Handle g = typed_group(out, out_group, type);
  int_dataset(g.get(), "length", static_cast<long long>(n));
  // Site 1 carries the norm, sites 2 … N are right-orthogonal.
  int_dataset(g.get(), "rlim", 2);
  int_dataset(g.get(), "llim", 0);
  for (std::size_t j = 0; j < n; ++j) {
    const SiteIndices si = site_indices(tpl, j, n, kind, qn, links);
    Tensor<T> made;
    const Tensor<T>& core = qn ? form->core(j, made) : cores[j];
    const auto scale = static_cast<real_t<T>>(qn && j == 0 ? form->norm : 1.0);
    std::vector<std::size_t> dims;
    for (const auto& ix : si.inds) dims.push_back(static_cast<std::size_t>(ix.dim));
    const ElementAt value = [&](const std::vector<std::size_t>& i) {
      std::size_t idx[kSiteRank] = {0, 0, 0, 0};
      for (std::size_t k = 0; k < si.inds.size(); ++k) idx[si.roles[k]] = i[k];
      const Shape& s = core.shape;
      return cdouble(scale * core.data[((idx[kLegL] * s[kLegR] + idx[kLegR]) * s[kLegU] + idx[kLegU]) * s[kLegD] + idx[kLegD]]);
    };
    Handle t = typed_group(g.get(), type + "[" + std::to_string(j + 1) + "]", "ITensor");
    Handle is = typed_group(t.get(), "inds", "IndexSet");
    int_dataset(is.get(), "length", static_cast<long long>(si.inds.size()));
    for (std::size_t k = 0; k < si.inds.size(); ++k) write_index(is.get(), "index_" + std::to_string(k + 1), si.inds[k]);
    const std::string el = is_complex_v<T> ? "ComplexF64" : "Float64";
    Handle st = typed_group(t.get(), "storage", (qn ? "BlockSparse{" : "Dense{") + el + "}");
    std::vector<long long> offsets;
    std::vector<cdouble> data;
    if (!qn) {
      data = dense_data(dims, value);
    } else {
      // Links carry their bond's charge (Out on the left, In on the right), so a tensor's flux
      // is 0 but the last one's, which is the train's total charge.
      std::vector<long long> mods;
      for (long long x : names.mods) mods.push_back(std::abs(x));
      const ChargeRule rule{mods};
      const Charge want = j + 1 == n ? rule.reduce(form->bonds[n].front()) : rule.reduce(Charge(names.names.size(), 0));
      data = block_data(si.inds, names, rule, want, value, offsets);
      int_dataset(st.get(), "ndims", static_cast<long long>(si.inds.size()));
    }
    write_storage_data(st.get(), data, is_complex_v<T>, label + ": writing " + out_group);
    if (qn) int_vector(st.get(), "offsets", offsets);
  }
}

#define SRCC_INSTANTIATE(T)                                                                        \
  template void write_itensor_train(hid_t, const std::string&, TrainKind, const std::vector<Tensor<T>>&, \
                                    const SectorForm<T>*, const std::string&, const std::string&,   \
                                    const std::string&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

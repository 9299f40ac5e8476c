#include "srcc/io/tenpy/tenpy_writer.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/tenpy/tenpy_encoding.hpp"
#include "srcc/io/tenpy/tenpy_objects.hpp"
#include "srcc/io/tenpy/tenpy_template_copy.hpp"

namespace srcc {

namespace {

using h5::Handle;
using namespace tenpy_h5;

const char* label_of(std::size_t role, TrainKind kind) {
  if (kind == TrainKind::kMps) return role == kLegL ? "vL" : role == kLegR ? "vR" : "p";
  return role == kLegL ? "wL" : role == kLegR ? "wR" : role == kLegU ? "p" : "p*";
}

std::size_t axis_of(const tenpy::ArrayInfo& a, const char* label, const std::string& where) {
  for (std::size_t k = 0; k < a.labels.size(); ++k)
    if (a.labels[k] == label) return k;
  throw InputError(where + ": no leg '" + label + "'");
}

// Each index's charge (num_charges values) of a leg, in its stored order, as the standard
// direction of its label would carry it (a leg of the other direction has its charges negated).
std::vector<Charge> index_charges(const tenpy::LegCharge& leg, int standard) {
  std::vector<Charge> out;
  for (std::size_t b = 0; b < leg.blocks(); ++b)
    for (long long i = leg.slices[b]; i < leg.slices[b + 1]; ++i) {
      Charge q(leg.charges.begin() + static_cast<std::ptrdiff_t>(b * leg.num_charges),
               leg.charges.begin() + static_cast<std::ptrdiff_t>((b + 1) * leg.num_charges));
      if (leg.qconj != standard)
        for (auto& v : q) v = -v;
      out.push_back(std::move(q));
    }
  return out;
}

// stored index k of site j is its state perm[k] (empty: the identity).
std::vector<std::size_t> site_perm(hid_t g, std::size_t j, const std::string& where) {
  const std::string p = "sites/" + std::to_string(j) + "/perm";
  if (!h5::exists(g, p) || tenpy::is_none(g, p, where)) return {};
  const auto v = h5::read_int_array(g, p, where + "/" + p, 1 << 20);
  return {v.begin(), v.end()};
}

std::vector<Charge> in_site_order(const std::vector<Charge>& stored, const std::vector<std::size_t>& perm) {
  if (perm.empty()) return stored;
  std::vector<Charge> out(stored.size());
  for (std::size_t k = 0; k < stored.size() && k < perm.size(); ++k) out[perm[k]] = stored[k];
  return out;
}

long long end_index(hid_t g, const char* list, std::size_t entry, const std::string& where) {
  if (!h5::exists(g, list) || tenpy::is_none(g, list, where)) return 0;
  const auto v = tenpy::int_or_none(g, std::string(list) + "/" + std::to_string(entry), where);
  return v.value_or(0);
}

}  // namespace

SectorTemplate tenpy_sector_template(const std::string& file, const std::string& grp, TrainKind kind) {
  Handle f = h5::open_for_reading(file);
  const std::string where = file + ":" + grp;
  Handle g(H5Gopen2(f.get(), grp.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) throw InputError(where + ": the template is gone");
  SectorTemplate t;
  t.rule.moduli = tenpy::read_charge_moduli(g.get(), "chinfo", where + "/chinfo");
  const std::size_t n = tenpy::list_length(Handle(H5Gopen2(g.get(), "tensors", H5P_DEFAULT), H5Gclose).get(),
                                           where + "/tensors", std::size_t{1} << 24);
  for (std::size_t j = 0; j < n; ++j) {
    const std::string path = grp + "/tensors/" + std::to_string(j), tw = file + ":" + path;
    const tenpy::ArrayInfo a = tenpy::read_array_info(f.get(), path, tw);
    const auto perm = site_perm(g.get(), j, where);
    t.up.push_back(in_site_order(index_charges(a.legs[axis_of(a, "p", tw)], +1), perm));
    t.down.push_back(kind == TrainKind::kMpo
                         ? in_site_order(index_charges(a.legs[axis_of(a, "p*", tw)], -1), perm)
                         : std::vector<Charge>{Charge(t.rule.count(), 0)});
    t.site_total.push_back(a.total_charge);
    if (j == 0) {
      const auto left = index_charges(a.legs[axis_of(a, label_of(kLegL, kind), tw)], +1);
      const long long i = kind == TrainKind::kMpo ? end_index(g.get(), "index_identity_left", 0, where) : 0;
      t.left = left.at(static_cast<std::size_t>(i));
    }
    if (j + 1 == n) {
      const auto right = index_charges(a.legs[axis_of(a, label_of(kLegR, kind), tw)], -1);
      const long long i = kind == TrainKind::kMpo ? end_index(g.get(), "index_identity_right", n, where) : 0;
      t.right = right.at(static_cast<std::size_t>(i));
    }
  }
  return t;
}

namespace {

// Objects every tensor of the train holds alike, written once and linked from the others, as
// TeNPy shares them: immutable ones only (a label's string, the dtype, a bond's slices and
// charges, which the two tensors beside it hold alike), never a list a tensor may change.
// Each maps a key to the absolute path of its first copy.
struct SharedObjects {
  std::map<std::string, std::string> labels, dtype;
  std::map<std::size_t, std::string> bonds;  // bond index → a leg holding its arrays

  // Links `name` under `parent` to the first object of `key`, or records `path` as its first and
  // returns false (the caller writes it).
  template <class K>
  static bool link(std::map<K, std::string>& seen, const K& key, hid_t parent, const std::string& name,
                   const std::string& path) {
    const auto [it, first] = seen.emplace(key, path);
    if (!first) hard_link(parent, it->second, parent, name);
    return !first;
  }
};

// A bond's leg: one block per charge (bonds come from sector_form grouped by charge). Returns the
// leg's slices and its blocks' charges (nq numbers a block). `path` is the leg's own; the arrays
// are linked where the tensor on the bond's other side wrote them.
std::pair<std::vector<long long>, std::vector<long long>> bond_leg(hid_t train, hid_t parent, const std::string& name,
                                                                   const std::string& path, std::size_t bond_index,
                                                                   const std::vector<Charge>& bond, int qconj,
                                                                   std::size_t nq, SharedObjects& shared) {
  Handle leg = instance(parent, name, "LegCharge", "tenpy.linalg.charges");
  std::vector<long long> slices{0}, charges;
  for (std::size_t i = 0; i < bond.size(); ++i) {
    if (i == 0 || bond[i] != bond[i - 1]) {
      if (i > 0) slices.push_back(static_cast<long long>(i));
      charges.insert(charges.end(), bond[i].begin(), bond[i].end());
    }
  }
  slices.push_back(static_cast<long long>(bond.size()));
  str_attr(leg.get(), "format", "blocks");
  int_attr(leg.get(), "ind_len", static_cast<long long>(bond.size()));
  int_attr(leg.get(), "qconj", qconj);
  int_attr(leg.get(), "block_number", static_cast<long long>(slices.size() - 1));
  bool_attr(leg.get(), "sorted", true);
  bool_attr(leg.get(), "bunched", true);
  hard_link(train, "chinfo", leg.get(), "chinfo");
  const auto [it, first] = shared.bonds.emplace(bond_index, path);
  if (first) {
    int_array(leg.get(), "slices", slices, {slices.size()});
    int_array(leg.get(), "charges", charges, {slices.size() - 1, nq});
  } else {
    hard_link(leg.get(), it->second + "/slices", leg.get(), "slices");
    hard_link(leg.get(), it->second + "/charges", leg.get(), "charges");
  }
  return {slices, charges};
}

// A site's legs in TeNPy's order (`roles`), each with its block slices and blocks' charges.
struct SiteLegs {
  std::vector<std::size_t> roles;
  std::vector<std::vector<long long>> slices;
  std::vector<std::vector<Charge>> block_charge;
};

// Writes site j's legs under `legs` (the output's `legs_path`): the physical ones are the
// template's own objects (their charges sorted as TeNPy keeps them), copied or linked by `copy`
// from the template's tensor at `tensor_path`; the bonds new.
template <class T>
SiteLegs write_site_legs(hid_t train, TemplateCopy& copy, SharedObjects& shared, const std::string& tensor_path,
                         hid_t legs, const std::string& legs_path, const tenpy::ArrayInfo& tpl,
                         const std::string& tw, TrainKind kind, const SectorForm<T>& form, std::size_t j,
                         std::size_t nq) {
  SiteLegs out;
  out.roles = kind == TrainKind::kMps ? std::vector<std::size_t>{kLegL, kLegU, kLegR}
                                      : std::vector<std::size_t>{kLegL, kLegR, kLegU, kLegD};
  out.slices.resize(out.roles.size());
  out.block_charge.resize(out.roles.size());
  for (std::size_t k = 0; k < out.roles.size(); ++k) {
    const std::size_t role = out.roles[k];
    if (role == kLegU || role == kLegD) {
      const std::size_t tk = axis_of(tpl, label_of(role, kind), tw);
      copy.copy(tensor_path + "/legs/" + std::to_string(tk), legs_path + "/" + std::to_string(k));
      const auto& leg = tpl.legs[tk];
      out.slices[k] = leg.slices;
      for (std::size_t b = 0; b < leg.blocks(); ++b) {
        Charge q(leg.charges.begin() + static_cast<std::ptrdiff_t>(b * nq), leg.charges.begin() + static_cast<std::ptrdiff_t>((b + 1) * nq));
        if (leg.qconj != (role == kLegU ? 1 : -1))
          for (auto& v : q) v = -v;
        out.block_charge[k].push_back(q);
      }
    } else {
      const std::size_t b = role == kLegL ? j : j + 1;
      const auto leg = bond_leg(train, legs, std::to_string(k), legs_path + "/" + std::to_string(k), b, form.bonds[b],
                                role == kLegL ? 1 : -1, nq, shared);
      out.slices[k] = leg.first;
      for (std::size_t b = 0; b + 1 < leg.first.size(); ++b)
        out.block_charge[k].push_back(Charge(leg.second.begin() + static_cast<std::ptrdiff_t>(b * nq),
                                             leg.second.begin() + static_cast<std::ptrdiff_t>((b + 1) * nq)));
    }
  }
  return out;
}

// Where site j's elements come from: its core made dense, or the form's blocks read where they
// lie (SectorForm::element, a result kept in its charge blocks), times `scale`.
template <class T> struct CoreElements {
  const Tensor<T>* dense = nullptr;
  const SectorForm<T>* form = nullptr;
  std::size_t site = 0;
  real_t<T> scale = 1;

  // The elements at idx with its axis `axis` running over `along`, into out; whether any is
  // non-zero.
  bool fill(std::size_t (&idx)[kSiteRank], std::size_t axis, const std::vector<std::size_t>& along, T* out) const {
    bool any = false;
    for (std::size_t e = 0; e < along.size();) {
      idx[axis] = along[e];
      if (dense) {
        const Shape& sh = dense->shape;
        out[e] = scale * dense->data[((idx[kLegL] * sh[kLegR] + idx[kLegR]) * sh[kLegU] + idx[kLegU]) * sh[kLegD] + idx[kLegD]];
        any = any || out[e] != T(0);
        ++e;
        continue;
      }
      std::size_t stride = 0, run = 1;
      const T* p = form->element(site, idx, stride, run);
      // Along the right bond a sector's elements lie one stride apart: as many at once as follow.
      std::size_t m = 1;
      if (axis == kLegR)
        while (m < run && e + m < along.size() && along[e + m] == along[e] + m) ++m;
      for (std::size_t q = 0; q < m; ++q, ++e) {
        out[e] = p ? scale * p[q * stride] : T(0);
        any = any || out[e] != T(0);
      }
    }
    return any;
  }
};

// Every block of the core that the charge rule allows and that holds something, with its
// dimensions and block indices, the first leg's block fastest: block_inds then come sorted as
// TeNPy sorts them (numpy.lexsort: the last column decides first).
template <class T> struct SiteBlocks {
  std::vector<std::vector<T>> blocks;
  std::vector<std::vector<hsize_t>> dims;
  std::vector<long long> inds;
};
template <class T>
SiteBlocks<T> site_blocks(const SiteLegs& legs, const CoreElements<T>& core, const std::vector<std::size_t>& perm,
                          const tenpy::ArrayInfo& tpl, std::size_t nq) {
  SiteBlocks<T> out;
  const auto& roles = legs.roles;
  const std::size_t last = roles.size() - 1;
  const ChargeRule rule{tpl.moduli};
  std::vector<std::size_t> b(roles.size(), 0);
  for (;;) {
    Charge sum(nq, 0);
    for (std::size_t k = 0; k < roles.size(); ++k) {
      const int sign = roles[k] == kLegL || roles[k] == kLegU ? 1 : -1;
      for (std::size_t q = 0; q < nq; ++q) sum[q] += sign * legs.block_charge[k][b[k]][q];
    }
    if (rule.reduce(sum) == rule.reduce(tpl.total_charge)) {
      // Each leg's dense indices in this block (a physical leg's through the template's perm).
      std::vector<std::vector<std::size_t>> along(roles.size());
      std::vector<hsize_t> dims;
      std::size_t count = 1;
      for (std::size_t k = 0; k < roles.size(); ++k) {
        for (long long g = legs.slices[k][b[k]]; g < legs.slices[k][b[k] + 1]; ++g) {
          const bool physical = roles[k] == kLegU || roles[k] == kLegD;
          along[k].push_back(physical && !perm.empty() ? perm[static_cast<std::size_t>(g)] : static_cast<std::size_t>(g));
        }
        dims.push_back(static_cast<hsize_t>(along[k].size()));
        count *= along[k].size();
      }
      std::vector<T> data(count);
      bool any = false;
      std::vector<std::size_t> i(roles.size(), 0);
      // The last leg runs fastest: a run of it per index of the others.
      for (std::size_t e = 0; e < count; e += along[last].size()) {
        std::size_t idx[kSiteRank] = {0, 0, 0, 0};
        for (std::size_t k = 0; k < last; ++k) idx[roles[k]] = along[k][i[k]];
        any = core.fill(idx, roles[last], along[last], data.data() + e) || any;
        for (std::size_t k = last; k-- > 0;) {
          if (++i[k] < dims[k]) break;
          i[k] = 0;
        }
      }
      if (any) {
        out.blocks.push_back(std::move(data));
        out.dims.push_back(dims);
        for (auto x : b) out.inds.push_back(static_cast<long long>(x));
      }
    }
    std::size_t k = 0;
    for (; k < roles.size(); ++k) {
      if (++b[k] < legs.slices[k].size() - 1) break;
      b[k] = 0;
    }
    if (k == roles.size()) return out;
  }
}

// The template's members the writer writes anew (the tensors, and those below), not copied.
const std::set<std::string> kRewritten{"tensors", "singular_values", "canonical_form", "index_identity_left",
                                       "index_identity_right"};

// The train's own members beside its tensors: an MPS's singular values, canonical form (B
// everywhere) and norm; an MPO's identity indices at its ends.
template <class T> void write_train_members(hid_t g, TrainKind kind, const SectorForm<T>& form, std::size_t n) {
  if (kind == TrainKind::kMps) {
    Handle sv = list_group(g, "singular_values", n + 1);
    for (std::size_t i = 0; i <= n; ++i) real_array(sv.get(), std::to_string(i), form.schmidt[i]);
    // B = Γ S at every site: (νL, νR) = (0, 1), one tuple linked from each entry.
    Handle cf = list_group(g, "canonical_form", n);
    for (std::size_t j = 0; j < n; ++j) {
      if (j > 0) {
        hard_link(cf.get(), "0", cf.get(), std::to_string(j));
        continue;
      }
      Handle form_j = list_group(cf.get(), "0", 2, "tuple");
      float_dataset(form_j.get(), "0", 0.0);
      float_dataset(form_j.get(), "1", 1.0);
    }
    double_attr(g, "norm", form.norm);
    return;
  }
  // The result's outer bonds have one index each: that is IdL[0] and IdR[L].
  for (const char* name : {"index_identity_left", "index_identity_right"}) {
    Handle ids = list_group(g, name, n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
      const bool end = std::string(name) == "index_identity_left" ? i == 0 : i == n;
      if (end) int_dataset(ids.get(), std::to_string(i), 0);
      else none(ids.get(), std::to_string(i));
    }
  }
  bool_attr(g, "explicit_plus_hc", false);
}

}  // namespace

template <class T>
void write_tenpy_train(hid_t out, const std::string& out_group, TrainKind kind, const SectorForm<T>& form,
                       const std::string& file, const std::string& grp, const std::string& label) {
  Handle tf = h5::open_for_reading(file);
  // Everything TeNPy keeps beside the tensors comes from the template, shared objects shared.
  const std::string to = out_group.front() == '/' ? out_group : "/" + out_group;
  TemplateCopy copy(tf.get(), file, out);
  try {
    copy.copy(grp, to, kRewritten);
  } catch (const OutputError& e) {
    throw OutputError(label + ": " + e.what());
  }
  Handle g(H5Gopen2(out, to.c_str(), H5P_DEFAULT), H5Gclose);
  const std::size_t n = form.sites();
  const std::size_t nq = form.bonds.front().front().size();
  Handle tensors = list_group(g.get(), "tensors", n);
  SharedObjects shared;
  long long max_bond = 1;
  for (std::size_t j = 0; j < n; ++j) {
    const std::string name = std::to_string(j), tensor = grp + "/tensors/" + name, tw = file + ":" + tensor;
    const tenpy::ArrayInfo tpl = tenpy::read_array_info(tf.get(), tensor, tw);
    const auto perm = site_perm(Handle(H5Gopen2(tf.get(), grp.c_str(), H5P_DEFAULT), H5Gclose).get(), j, file);
    Handle a = instance(tensors.get(), name, "Array", "tenpy.linalg.np_conserved");
    hard_link(g.get(), "chinfo", a.get(), "chinfo");
    // The core's elements: from the form's blocks where it keeps them, else the core made dense.
    Tensor<T> made;
    CoreElements<T> core;
    if (form.element) {
      core.form = &form;
      core.site = j;
      core.scale = static_cast<real_t<T>>(j == 0 ? form.first_scale : 1.0);
    } else {
      core.dense = &form.core(j, made);
    }
    const std::size_t rank = kind == TrainKind::kMps ? 3 : 4;
    Handle legs_group = list_group(a.get(), "legs", rank);
    const std::string at = to + "/tensors/" + name;
    const SiteLegs legs = write_site_legs(g.get(), copy, shared, tensor, legs_group.get(), at + "/legs", tpl, tw, kind,
                                          form, j, nq);
    max_bond = std::max<long long>(max_bond, static_cast<long long>(form.bonds[j + 1].size()));
    const char* dtype = dtype_is_complex(dtype_of<T>) ? (sizeof(T) == 8 ? "complex64" : "complex128")
                                                      : (sizeof(T) == 4 ? "float32" : "float64");
    if (!SharedObjects::link(shared.dtype, std::string(dtype), a.get(), "dtype", at + "/dtype")) {
      Handle dt = group(a.get(), "dtype", "dtype");
      str_attr(dt.get(), "name", dtype);
    }
    int_array(a.get(), "total_charge", tpl.total_charge, {tpl.total_charge.size()});
    Handle labels = list_group(a.get(), "labels", rank);
    for (std::size_t k = 0; k < rank; ++k) {
      const std::string label = label_of(legs.roles[k], kind), entry = std::to_string(k);
      if (!SharedObjects::link(shared.labels, label, labels.get(), entry, at + "/labels/" + entry))
        str_dataset(labels.get(), entry, label);
    }
    // An MPS keeps its norm apart (attribute norm); an MPO's is in its first tensor.
    if (kind == TrainKind::kMpo && j == 0) core.scale *= static_cast<real_t<T>>(form.norm);
    const SiteBlocks<T> blocks = site_blocks(legs, core, perm, tpl, nq);
    Handle bl = list_group(a.get(), "blocks", blocks.blocks.size());
    for (std::size_t m = 0; m < blocks.blocks.size(); ++m) tensor_array(bl.get(), std::to_string(m), blocks.blocks[m], blocks.dims[m]);
    int_array(a.get(), "block_inds", blocks.inds, {blocks.blocks.size(), rank});
    bool_attr(a.get(), "block_inds_sorted", true);
    int_attr(a.get(), "rank", static_cast<long long>(rank));
    std::vector<long long> shape;
    for (std::size_t k = 0; k < rank; ++k) shape.push_back(legs.slices[k].back());
    int_array_attr(a.get(), "shape", shape);
  }
  int_attr(g.get(), "L", static_cast<long long>(n));
  int_attr(g.get(), "max_bond_dimension", max_bond);
  write_train_members(g.get(), kind, form, n);
  // hdf5_io.load(file) returns the root's members when the root says it is a dict.
  Handle root(H5Gopen2(out, "/", H5P_DEFAULT), H5Gclose);
  str_attr(root.get(), "type", "simple_dict");
}

void mark_ignored_by_tenpy(hid_t out, const std::string& path, const std::string& label) {
  Handle o(H5Oopen(out, path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!o.valid()) fail(label, path);
  str_attr(o.get(), "type", "ignore");
}

#define SRCC_INSTANTIATE(T)                                                                          \
  template void write_tenpy_train(hid_t, const std::string&, TrainKind, const SectorForm<T>&,      \
                                  const std::string&, const std::string&, const std::string&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

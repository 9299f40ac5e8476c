#include "srcc/symmetric/charged_stack.hpp"

#include <array>
#include <variant>

#include "srcc/core/error.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

namespace {

std::string charge_text(const Charge& q) {
  std::string s = "(";
  for (std::size_t c = 0; c < q.size(); ++c) s += (c ? ", " : "") + std::to_string(q[c]);
  return s + ")";
}

// One layer's charges as its sites come, left to right: the charges and liveness of the next
// site's left bond indices.
struct LayerState {
  const PhysicalCharges* pc = nullptr;
  std::size_t layer = 0, site = 0;
  std::string where;
  std::vector<Charge> ql;
  std::vector<bool> live_l;
  Leg left;
};

// The charges of a site's right bond indices as its non-zero elements fix them, one element
// at a time: each (a, b, x, y) gives q_r[b] = q_l[a] + q_u[x] − q_d[y], and all must agree.
struct RightCharges {
  const LayerState& st;
  std::size_t site;
  std::vector<Charge> q;
  std::vector<bool> live;
  void element(std::size_t a, std::size_t b, std::size_t x, std::size_t y, const Charge& qe) {
    if (!live[b]) {
      q[b] = qe;
      live[b] = true;
    } else if (qe != q[b]) {
      throw InputError(st.where + ", site " + std::to_string(site) + ": element (l " + std::to_string(a) + ", r " +
                       std::to_string(b) + ", u " + std::to_string(x) + ", d " + std::to_string(y) +
                       ") breaks the charges: its right bond index has charge " + charge_text(q[b]) +
                       " from other elements, this one gives " + charge_text(qe) +
                       " (a block outside the tensor's charge rule)");
    }
  }
};

// The site's right charges from its dense form. The charge depends on (a, x, y) alone, so it is
// formed once for them and compared along b.
template <class T>
void observe(RightCharges& rc, const LayerState& st, const std::vector<Charge>& up, const std::vector<Charge>& down,
             const Tensor<T>& w) {
  const ChargeRule& rule = st.pc->rule;
  const std::size_t dl = w.shape[kLegL], dr = w.shape[kLegR], du = w.shape[kLegU], dd = w.shape[kLegD];
  std::vector<Charge> q_axy(du * dd);
  for (std::size_t a = 0; a < dl; ++a) {
    if (!st.live_l[a]) continue;
    for (std::size_t x = 0; x < du; ++x)
      for (std::size_t y = 0; y < dd; ++y) q_axy[x * dd + y] = add_charge(rule, add_charge(rule, st.ql[a], up[x]), down[y], -1);
    for (std::size_t b = 0; b < dr; ++b)
      for (std::size_t x = 0; x < du; ++x)
        for (std::size_t y = 0; y < dd; ++y)
          if (w.data[((a * dr + b) * du + x) * dd + y] != T(0)) rc.element(a, b, x, y, q_axy[x * dd + y]);
  }
}

// The same from the boxes of its stored blocks: only their elements are looked at.
template <class T>
void observe(RightCharges& rc, const LayerState& st, const std::vector<Charge>& up, const std::vector<Charge>& down,
             const SiteBoxes<T>& w) {
  const ChargeRule& rule = st.pc->rule;
  for (const auto& box : w.boxes) {
    const auto& [ls, rs, us, ds] = box.index;
    std::vector<Charge> q_xy(us.size() * ds.size());
    for (std::size_t ia = 0; ia < ls.size(); ++ia) {
      const std::size_t a = ls[ia];
      if (!st.live_l[a]) continue;
      for (std::size_t ix = 0; ix < us.size(); ++ix)
        for (std::size_t iy = 0; iy < ds.size(); ++iy)
          q_xy[ix * ds.size() + iy] = add_charge(rule, add_charge(rule, st.ql[a], up[us[ix]]), down[ds[iy]], -1);
      for (std::size_t ib = 0; ib < rs.size(); ++ib)
        for (std::size_t ix = 0; ix < us.size(); ++ix)
          for (std::size_t iy = 0; iy < ds.size(); ++iy)
            if (box.data[((ia * rs.size() + ib) * us.size() + ix) * ds.size() + iy] != T(0))
              rc.element(a, rs[ib], us[ix], ds[iy], q_xy[ix * ds.size() + iy]);
    }
  }
}

template <class T> std::array<std::size_t, kSiteRank> dims_of(const Tensor<T>& w) {
  return {w.shape[kLegL], w.shape[kLegR], w.shape[kLegU], w.shape[kLegD]};
}
template <class T> std::array<std::size_t, kSiteRank> dims_of(const SiteBoxes<T>& w) { return w.dims; }

template <class T> BlockTensor<T> to_blocks(Kernels<T>& K, const Tensor<T>& w, std::vector<Leg> legs, std::vector<int> labels,
                                            const std::function<bool(const BlockKey&)>& keep) {
  return blocks_of_dense(K, w, std::move(legs), std::move(labels), keep);
}
template <class T> BlockTensor<T> to_blocks(Kernels<T>& K, const SiteBoxes<T>& w, std::vector<Leg> legs,
                                            std::vector<int> labels, const std::function<bool(const BlockKey&)>& keep) {
  return blocks_of_boxes(K, w, std::move(legs), std::move(labels), keep);
}

// The next site of a layer, dense or as boxes (W).
template <class T, class W> BlockTensor<T> next_site(Kernels<T>& K, LayerState& st, const W& w) {
  const ChargeRule& rule = st.pc->rule;
  const std::size_t j = st.site++, nq = rule.count();
  const auto [dl, dr, du, dd] = dims_of(w);
  if (j == 0) {
    st.ql.assign(dl, Charge(nq, 0));
    st.live_l.assign(dl, true);
    st.left = leg_of_charges(st.ql, &st.live_l);
  }
  if (j >= st.pc->up.size() || st.pc->up[j].size() != du || st.pc->down[j].size() != dd)
    throw InputError(st.where + ", site " + std::to_string(j) + ": the stored charges do not fit its physical legs of " +
                     std::to_string(du) + " and " + std::to_string(dd) + " indices");
  std::vector<Charge> up, down;
  for (const auto& q : st.pc->up[j]) up.push_back(rule.reduce(q));
  for (const auto& q : st.pc->down[j]) down.push_back(rule.reduce(q));
  RightCharges rc{st, j, std::vector<Charge>(dr, Charge(nq, 0)), std::vector<bool>(dr, false)};
  observe(rc, st, up, down, w);
  bool any = false;
  for (bool v : rc.live) any = any || v;
  if (!any) throw InputError(st.where + ", site " + std::to_string(j) + ": every element is zero (the train is zero)");
  Leg right = leg_of_charges(rc.q, &rc.live);
  std::vector<Leg> legs{st.left, right, leg_of_charges(up), leg_of_charges(down)};
  const std::vector<int> labels{axis::L(st.layer), axis::R(st.layer), axis::X(st.layer), axis::X(st.layer + 1)};
  auto keep = [&](const BlockKey& k) {
    Charge q = add_charge(rule, legs[0].charges[k[0]], legs[2].charges[k[2]]);
    q = add_charge(rule, q, legs[3].charges[k[3]], -1);
    return q == legs[1].charges[k[1]];
  };
  BlockTensor<T> out = to_blocks(K, w, legs, labels, keep);
  st.ql = std::move(rc.q);
  st.live_l = std::move(rc.live);
  st.left = std::move(right);
  return out;
}

}  // namespace

template <class T>
std::vector<BlockTensor<T>> charged_layer(Kernels<T>& K, const std::vector<Tensor<T>>& dense,
                                          const PhysicalCharges& pc, std::size_t layer, const std::string& where) {
  if (pc.up.size() != dense.size() || pc.down.size() != dense.size())
    throw InputError(where + ": charges for " + std::to_string(pc.up.size()) + " sites, the train has " +
                     std::to_string(dense.size()));
  LayerState st{&pc, layer, 0, where, {}, {}, {}};
  std::vector<BlockTensor<T>> out;
  for (const auto& w : dense) out.push_back(next_site(K, st, w));
  return out;
}

template <class T>
ChargedStack<T> charged_stack(Kernels<T>& K, SiteSource<T>& source, std::size_t sites,
                              const std::vector<PhysicalCharges>& layers, const std::vector<std::string>& where) {
  const std::string why = charges_compatible(layers);
  if (!why.empty()) throw InputError(why);
  ChargedStack<T> out;
  out.rule = layers.front().rule;
  std::vector<LayerState> states;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].up.size() != sites)
      throw InputError(where[i] + ": charges for " + std::to_string(layers[i].up.size()) + " sites, the train has " +
                       std::to_string(sites));
    states.push_back({&layers[i], i, 0, where[i], {}, {}, {}});
  }
  out.sites.resize(layers.size());
  // A site the source reads ahead is done before an error here leaves for code that may open files.
  struct Settle {
    SiteSource<T>& source;
    ~Settle() { source.settle(); }
  } settle{source};
  for (std::size_t j = 0; j < sites; ++j) {
    const std::vector<StoredSite<T>> site = source.stored_site(j);
    for (std::size_t i = 0; i < layers.size(); ++i)
      out.sites[i].push_back(std::visit([&](const auto& w) { return next_site(K, states[i], w); }, site[i]));
  }
  return out;
}

std::string charges_compatible(const std::vector<PhysicalCharges>& layers) {
  for (std::size_t i = 0; i + 1 < layers.size(); ++i) {
    if (layers[i].rule.moduli != layers[i + 1].rule.moduli) return "layers " + std::to_string(i) + " and " + std::to_string(i + 1) + " conserve different charges";
    const auto& below = layers[i].down;
    const auto& above = layers[i + 1].up;
    for (std::size_t j = 0; j < below.size() && j < above.size(); ++j) {
      if (!layers[i].rule.same(below[j], above[j]))
        return "the physical charges of layers " + std::to_string(i) + " and " + std::to_string(i + 1) +
               " differ at site " + std::to_string(j);
    }
  }
  return "";
}

bool same_state_charges(const PhysicalCharges& a, const PhysicalCharges& b) {
  return a.rule.moduli == b.rule.moduli && a.up == b.up;
}

#define SRCC_INSTANTIATE(T)                                                                                      \
  template std::vector<BlockTensor<T>> charged_layer(Kernels<T>&, const std::vector<Tensor<T>>&,                \
                                                     const PhysicalCharges&, std::size_t, const std::string&);   \
  template ChargedStack<T> charged_stack(Kernels<T>&, SiteSource<T>&, std::size_t,                               \
                                         const std::vector<PhysicalCharges>&, const std::vector<std::string>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

#include "srcc/symmetric/charged_stack.hpp"

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

template <class T> BlockTensor<T> next_site(Kernels<T>& K, LayerState& st, const Tensor<T>& w) {
  const ChargeRule& rule = st.pc->rule;
  const std::size_t j = st.site++, nq = rule.count();
  const std::size_t dl = w.shape[kLegL], dr = w.shape[kLegR], du = w.shape[kLegU], dd = w.shape[kLegD];
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
  std::vector<Charge> qr(dr, Charge(nq, 0));
  std::vector<bool> live_r(dr, false);
  // Every element (a, b, x, y) fixes q_r[b] = q_l[a] + q_u[x] − q_d[y]: the charge depends on
  // (a, x, y) alone, so it is formed once for them and compared along b.
  std::vector<Charge> q_axy(du * dd);
  for (std::size_t a = 0; a < dl; ++a) {
    if (!st.live_l[a]) continue;
    for (std::size_t x = 0; x < du; ++x)
      for (std::size_t y = 0; y < dd; ++y) q_axy[x * dd + y] = add_charge(rule, add_charge(rule, st.ql[a], up[x]), down[y], -1);
    for (std::size_t b = 0; b < dr; ++b)
      for (std::size_t x = 0; x < du; ++x)
        for (std::size_t y = 0; y < dd; ++y) {
          if (w.data[((a * dr + b) * du + x) * dd + y] == T(0)) continue;
          const Charge& q = q_axy[x * dd + y];
          if (!live_r[b]) {
            qr[b] = q;
            live_r[b] = true;
          } else if (q != qr[b]) {
            throw InputError(st.where + ", site " + std::to_string(j) + ": element (l " + std::to_string(a) + ", r " +
                             std::to_string(b) + ", u " + std::to_string(x) + ", d " + std::to_string(y) +
                             ") breaks the charges: its right bond index has charge " + charge_text(qr[b]) +
                             " from other elements, this one gives " + charge_text(q) +
                             " (a block outside the tensor's charge rule)");
          }
        }
  }
  bool any = false;
  for (bool v : live_r) any = any || v;
  if (!any) throw InputError(st.where + ", site " + std::to_string(j) + ": every element is zero (the train is zero)");
  Leg right = leg_of_charges(qr, &live_r);
  std::vector<Leg> legs{st.left, right, leg_of_charges(up), leg_of_charges(down)};
  const std::vector<int> labels{axis::L(st.layer), axis::R(st.layer), axis::X(st.layer), axis::X(st.layer + 1)};
  auto keep = [&](const BlockKey& k) {
    Charge q = add_charge(rule, legs[0].charges[k[0]], legs[2].charges[k[2]]);
    q = add_charge(rule, q, legs[3].charges[k[3]], -1);
    return q == legs[1].charges[k[1]];
  };
  BlockTensor<T> out = blocks_of_dense(K, w, legs, labels, keep);
  st.ql = std::move(qr);
  st.live_l = std::move(live_r);
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
  for (std::size_t j = 0; j < sites; ++j) {
    const std::vector<Tensor<T>> site = source.site(j);
    for (std::size_t i = 0; i < layers.size(); ++i) out.sites[i].push_back(next_site(K, states[i], site[i]));
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

#define SRCC_INSTANTIATE(T)                                                                                      \
  template std::vector<BlockTensor<T>> charged_layer(Kernels<T>&, const std::vector<Tensor<T>>&,                \
                                                     const PhysicalCharges&, std::size_t, const std::string&);   \
  template ChargedStack<T> charged_stack(Kernels<T>&, SiteSource<T>&, std::size_t,                               \
                                         const std::vector<PhysicalCharges>&, const std::vector<std::string>&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

// Local observables of a charged state in its blocks: the loops of observable_loops.hpp over
// transfers whose environments are kept per pair of bond sectors. A right-canonical charged
// state's environment with the identity is block diagonal (one matrix per sector of the bond);
// an operator that moves charge (S+, c†) pairs each sector with another, and sites in between
// carry that pairing along. Which pairs arise follows from the blocks present, so operators of
// no definite charge (Sx) need no splitting, and a value only sums the pairs that close — the
// charge selection rules hold by construction. Each product is one sector's matrix by another's:
// about the sectors' share of the dense transfers' work.
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/core/weight.hpp"
#include "srcc/measure/local_observables.hpp"
#include "srcc/measure/observable_loops.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_stack.hpp"
#include "srcc/symmetric/charged_truncation.hpp"

namespace srcc {

namespace {

using cd = std::complex<double>;
using Pair = std::pair<std::size_t, std::size_t>;
using Triple = std::array<std::size_t, 3>;

// The dense index of each place of a leg, its sectors one after another: where the leg knows its
// dense indices (Leg::dense_order), else in that order itself (dense_of_blocks' layout).
std::vector<std::size_t> dense_places(const Leg& leg) {
  if (!leg.sector_of.empty()) return leg.dense_order();
  std::vector<std::size_t> out(leg.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = i;
  return out;
}

// A core (l, r, u, d = 1) as the matrices P[u] restricted to a left and a right sector: `pieces`
// (ldim[a] × rdim[b], row-major), found by (u, a), (u, b) or all three.
template <class T> struct SectorSite {
  struct Piece {
    std::size_t u = 0, a = 0, b = 0;
    std::vector<T> m;
  };
  std::size_t d = 0;
  std::vector<std::size_t> ldim, rdim;
  std::vector<Piece> pieces;
  std::map<std::size_t, std::vector<std::size_t>> by_a;
  std::map<Pair, std::vector<std::size_t>> by_ua, by_ub;
  std::map<Triple, std::size_t> by_uab;
};

template <class T> SectorSite<T> sector_site(Kernels<T>& K, const BlockTensor<T>& core) {
  using namespace axis;
  const std::size_t al = core.axis(kCoreL), ar = core.axis(kCoreR), au = core.axis(kCoreU);
  SectorSite<T> s;
  s.ldim = core.legs[al].dims;
  s.rdim = core.legs[ar].dims;
  const Leg& up = core.legs[au];
  s.d = up.sector_of.empty() ? up.size() : up.sector_of.size();
  const auto dense_u = dense_places(up);
  std::vector<std::size_t> first_u(up.sectors(), 0);  // where each sector's places start
  for (std::size_t q = 1; q < up.sectors(); ++q) first_u[q] = first_u[q - 1] + up.dims[q - 1];
  const std::vector<T> host = K.download(core.data, core.elements);  // a device's blocks, once
  for (const auto& b : core.blocks) {
    const Shape shape = core.block_shape(b.key);
    std::vector<std::size_t> stride(shape.size(), 1);
    for (std::size_t k = shape.size(); k-- > 1;) stride[k - 1] = stride[k] * shape[k];
    const std::size_t l = shape[al], r = shape[ar];
    const T* data = host.data() + b.offset;
    for (std::size_t k = 0; k < shape[au]; ++k) {
      typename SectorSite<T>::Piece p{dense_u[first_u[b.key[au]] + k], b.key[al], b.key[ar], std::vector<T>(l * r)};
      for (std::size_t x = 0; x < l; ++x)
        for (std::size_t y = 0; y < r; ++y) p.m[x * r + y] = data[x * stride[al] + y * stride[ar] + k * stride[au]];
      const std::size_t i = s.pieces.size();
      s.by_a[p.a].push_back(i);
      s.by_ua[{p.u, p.a}].push_back(i);
      s.by_ub[{p.u, p.b}].push_back(i);
      s.by_uab[{p.u, p.a, p.b}] = i;
      s.pieces.push_back(std::move(p));
    }
  }
  return s;
}

// The transfers of observable_loops.hpp on sector pieces: an environment holds a matrix per pair
// (bra sector, ket sector) of its bond, a half-transfer Y one per (u, bra's left sector, ket's
// right sector).
template <class T> class BlockTransfers {
 public:
  using Env = std::map<Pair, std::vector<T>>;
  using Y = std::map<Triple, std::vector<T>>;
  using Close = Env;

  // `K` holds the cores; the pieces are host vectors, multiplied on the host.
  BlockTransfers(Kernels<T>& K, const std::vector<BlockTensor<T>>& cores) : gemm_(host_kernels(K, host_)) {
    for (const auto& c : cores) s_.push_back(sector_site(K, c));
    for (std::size_t j = 0; j + 1 < s_.size(); ++j)
      if (s_[j].rdim != s_[j + 1].ldim) throw std::logic_error("charged cores whose bonds do not meet at cut " + std::to_string(j + 1));
    if (s_.empty() || s_[0].ldim != std::vector<std::size_t>{1})
      throw std::logic_error("a charged state whose left boundary is not one index");
  }
  std::size_t size() const { return s_.size(); }
  std::size_t dim(std::size_t j) const { return s_[j].d; }
  Env unit() const {
    Env e;
    e.emplace(Pair{0, 0}, std::vector<T>{T(1)});
    return e;
  }

  Y half(const Env& e, std::size_t j) {
    const SectorSite<T>& s = s_[j];
    Y x;  // per (v, bra sector, right sector)
    for (const auto& [key, m] : e) {
      const auto [bra, ket] = key;
      const auto it = s.by_a.find(ket);
      if (it == s.by_a.end()) continue;
      for (const std::size_t i : it->second) {
        const auto& p = s.pieces[i];
        auto& out = x.try_emplace({p.u, bra, p.b}, s.ldim[bra] * s.rdim[p.b], T(0)).first->second;
        gemm_(Op::kNone, Op::kNone, s.ldim[bra], s.rdim[p.b], s.ldim[ket], T(1), m.data(), s.ldim[ket], p.m.data(), s.rdim[p.b],
              T(1), out.data(), s.rdim[p.b]);
      }
    }
    return x;
  }
  void apply(const Y& x, std::size_t j, const SiteOperator& op, Y& y) const {
    y.clear();
    for (const auto& [key, m] : x) {
      const std::size_t v = key[0];
      for (std::size_t u = 0; u < s_[j].d; ++u) {
        const cd w = op.at(u, v);
        if (w == cd(0)) continue;
        const T f = scalar_weight<T>(w);
        auto& out = y.try_emplace({u, key[1], key[2]}, m.size(), T(0)).first->second;
        for (std::size_t k = 0; k < m.size(); ++k) out[k] += f * m[k];
      }
    }
  }
  // E'(b', b) = Σ P[u](a', b')ᴴ Y_u(a', b).
  void next(std::size_t j, const Y& y, Env& out) {
    const SectorSite<T>& s = s_[j];
    out.clear();
    for (const auto& [key, m] : y) {
      const auto it = s.by_ua.find({key[0], key[1]});
      if (it == s.by_ua.end()) continue;
      const std::size_t rows = s.ldim[key[1]], b = key[2];
      for (const std::size_t i : it->second) {
        const auto& p = s.pieces[i];
        auto& o = out.try_emplace({p.b, b}, s.rdim[p.b] * s.rdim[b], T(0)).first->second;
        gemm_(Op::kConjTrans, Op::kNone, s.rdim[p.b], s.rdim[b], rows, T(1), p.m.data(), s.rdim[p.b], m.data(), s.rdim[b], T(1),
              o.data(), s.rdim[b]);
      }
    }
  }
  cd closed(std::size_t j, const Y& y) const {
    cd sum = 0;
    for (const auto& [key, m] : y) {
      const auto it = s_[j].by_uab.find(key);
      if (it != s_[j].by_uab.end()) sum += observable_loops::conj_dot(s_[j].pieces[it->second].m.data(), m.data(), m.size());
    }
    return sum;
  }
  // C(a', a) = Σ_u Σ_b P[u](a', b)·Y_u(a, b)ᴴ with Y from the identity on the left bond.
  Close closing(std::size_t j, const SiteOperator& op) {
    const SectorSite<T>& s = s_[j];
    Env unit;
    for (std::size_t a = 0; a < s.ldim.size(); ++a) {
      std::vector<T> id(s.ldim[a] * s.ldim[a], T(0));
      for (std::size_t k = 0; k < s.ldim[a]; ++k) id[k * s.ldim[a] + k] = T(1);
      unit.emplace(Pair{a, a}, std::move(id));
    }
    Y y;
    apply(half(unit, j), j, op, y);
    Close c;
    for (const auto& [key, m] : y) {
      const auto it = s.by_ub.find({key[0], key[2]});
      if (it == s.by_ub.end()) continue;
      const std::size_t a = key[1], cols = s.rdim[key[2]];
      for (const std::size_t i : it->second) {
        const auto& p = s.pieces[i];
        auto& out = c.try_emplace({p.a, a}, s.ldim[p.a] * s.ldim[a], T(0)).first->second;
        gemm_(Op::kNone, Op::kConjTrans, s.ldim[p.a], s.ldim[a], cols, T(1), p.m.data(), cols, m.data(), cols, T(1), out.data(),
              s.ldim[a]);
      }
    }
    return c;
  }
  cd value(const Close& c, const Env& g) const {
    cd sum = 0;
    for (const auto& [key, m] : g) {
      const auto it = c.find(key);
      if (it != c.end()) sum += observable_loops::conj_dot(it->second.data(), m.data(), m.size());
    }
    return sum;
  }

 private:
  std::unique_lock<std::recursive_mutex> host_;  // the host-side backend held, where K's memory is a device's
  CountingGemm<T> gemm_;
  std::vector<SectorSite<T>> s_;
};

}  // namespace

template <class T>
std::vector<BlockTensor<T>> right_canonical_blocks(Kernels<T>& K, std::vector<BlockTensor<T>> cores, const ChargeRule& rule) {
  // Each core at unit norm first: the values are ratios to ⟨ψ|ψ⟩, and the norm carried into
  // core 0 then stays within range however long the train.
  for (auto& c : cores) {
    const double norm = norm_of(K, c);
    if (norm > 0 && std::isfinite(norm)) scale_by(K, c, 1.0 / norm);
  }
  right_orthonormalize(K, cores, rule);
  return cores;
}

template <class T>
std::vector<cd> site_expectations(Kernels<T>& K, const std::vector<BlockTensor<T>>& cores, const SiteOperator& o) {
  BlockTransfers<T> tr(K, cores);
  return observable_loops::site_values(tr, o);
}

template <class T>
std::vector<cd> correlation_matrix(Kernels<T>& K, const std::vector<BlockTensor<T>>& cores, const SiteOperator& a,
                                   const SiteOperator& b, const SiteOperator& parity, std::size_t first, std::size_t last) {
  BlockTransfers<T> tr(K, cores);
  return observable_loops::correlations(tr, a, b, parity, first, last);
}

#define SRCC_INSTANTIATE(T)                                                                                            \
  template std::vector<BlockTensor<T>> right_canonical_blocks(Kernels<T>&, std::vector<BlockTensor<T>>,                \
                                                              const ChargeRule&);                                       \
  template std::vector<cd> site_expectations(Kernels<T>&, const std::vector<BlockTensor<T>>&, const SiteOperator&); \
  template std::vector<cd> correlation_matrix(Kernels<T>&, const std::vector<BlockTensor<T>>&, const SiteOperator&,    \
                                              const SiteOperator&, const SiteOperator&, std::size_t, std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

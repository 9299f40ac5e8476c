#pragma once
// Charged trains for the symmetric tests: XXZ MPOs and random charged MPSs, their stacks under the
// U(1), Z2 or U(1)×Z2 reading of the spins' charges, the dense product as reference, one-thread
// CPU kernels.
#include <memory>
#include <string>
#include <vector>

#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/log/reporter.hpp"
#include "srcc/symmetric/symmetric_sweep.hpp"
#include "srcc/train/charged_examples.hpp"
#include "../support/dense.hpp"

namespace srcc::test::charged {

template <class T> std::vector<Tensor<T>> xxz(std::size_t n, double delta = 0.7, double h = 0.3) {
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < n; ++j) out.push_back(xxz_site<T>(j, n, 1.0, delta, h));
  return out;
}

template <class T> std::vector<Tensor<T>> random_charged(std::size_t n, std::size_t bond, long long total, std::uint64_t seed) {
  ChargedRandomShape s{n, bond, 1.5, total};
  Rng rng(seed);
  std::vector<Tensor<T>> out;
  for (std::size_t j = 0; j < n; ++j) out.push_back(charged_random_site<T>(s, j, rng));
  return out;
}

// The spins' charges as U(1) (2S^z), Z2 (the number of down spins mod 2) or both.
enum class Rule { kU1, kZ2, kU1Z2 };
inline PhysicalCharges charges(std::size_t n, TrainKind kind, Rule r) {
  PhysicalCharges u1 = spin_half_charges(n, kind);
  if (r == Rule::kU1) return u1;
  PhysicalCharges out;
  out.rule.moduli = r == Rule::kZ2 ? std::vector<long long>{2} : std::vector<long long>{1, 2};
  auto map = [&](const std::vector<std::vector<Charge>>& in) {
    std::vector<std::vector<Charge>> o;
    for (const auto& site : in) {
      std::vector<Charge> s;
      for (const auto& q : site) {
        const long long parity = q[0] < 0 ? 1 : 0;
        s.push_back(r == Rule::kZ2 ? Charge{parity} : Charge{q[0], parity});
      }
      o.push_back(s);
    }
    return o;
  };
  out.up = map(u1.up);
  out.down = map(u1.down);
  return out;
}

template <class T>
ChargedStack<T> stack_of(Kernels<T>& K, const std::vector<std::vector<Tensor<T>>>& layers, const std::vector<TrainKind>& kinds,
                         Rule r) {
  ChargedStack<T> st;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const PhysicalCharges pc = charges(layers[i].size(), kinds[i], r);
    st.rule = pc.rule;
    st.sites.push_back(charged_layer(K, layers[i], pc, i, "layer " + std::to_string(i)));
  }
  return st;
}

template <class T>
test::DenseTrain dense_reference(const std::vector<std::vector<Tensor<T>>>& layers) {
  std::vector<DenseTrain> d;
  for (const auto& l : layers) d.push_back(test::dense_train(l));
  return test::dense_product(d);
}

inline SweepOptions src(std::size_t chi, std::uint64_t seed, double oversample = 0) {
  SweepOptions o;
  o.chi = chi;
  o.seed = seed;
  o.oversample = oversample;
  return o;
}

// The CPU kernels of one thread and a reporter that says nothing, for each test.
template <class T> struct OneThread {
  std::unique_ptr<Backend> backend = make_cpu_backend(1);
  SilentReporter reporter;
  Kernels<T>& K() { return backend->kernels<T>(); }
};

// H·ψ on n sites: the XXZ MPO on a random charged state of bond `bond` (total 2S^z 0, its sectors
// drawn from `seed`), its U(1) stack on one CPU thread and the dense product as reference.
template <class T> struct XxzProduct {
  OneThread<T> cpu;
  std::vector<std::vector<Tensor<T>>> layers;
  ChargedStack<T> st;
  test::DenseTrain ref;
  XxzProduct(std::size_t n, std::size_t bond, std::uint64_t seed)
      : layers{xxz<T>(n), random_charged<T>(n, bond, 0, seed)},
        st(stack_of(cpu.K(), layers, {TrainKind::kMpo, TrainKind::kMps}, Rule::kU1)),
        ref(dense_reference(layers)) {}
  ChargedResult<T> sweep(const SweepOptions& o) { return symmetric_sweep(st, TrainKind::kMps, o, cpu.K(), cpu.reporter, [] {}); }
  double error(const ChargedResult<T>& r) const { return test::relative_error(test::dense_train(r.sweep.cores).v, ref.v); }
};

// (1 − iτH)ψ + c·H²ψ on n sites: terms of depths 1, 2 and 3 over a random charged ψ of bond 10,
// their charged stacks and the dense sum as reference.
template <class T> struct ChargedSum {
  std::vector<ChargedStack<T>> stacks;
  std::vector<ChargedTerm<T>> terms;
  std::vector<test::cd> reference;
  ChargedSum(Kernels<T>& K, std::size_t n) {
    const auto h = xxz<T>(n);
    const auto psi = random_charged<T>(n, 10, 0, 3);
    const std::vector<std::vector<std::vector<Tensor<T>>>> layers{{psi}, {h, psi}, {h, h, psi}};
    const std::vector<std::vector<TrainKind>> kinds{
        {TrainKind::kMps}, {TrainKind::kMpo, TrainKind::kMps}, {TrainKind::kMpo, TrainKind::kMpo, TrainKind::kMps}};
    T w1 = T(-0.3);
    if constexpr (is_complex_v<T>) w1 = T(0, -0.3);
    const std::vector<T> weights{T(1), w1, T(0.02)};
    for (std::size_t k = 0; k < layers.size(); ++k) stacks.push_back(stack_of(K, layers[k], kinds[k], Rule::kU1));
    for (std::size_t k = 0; k < layers.size(); ++k) terms.push_back({&stacks[k], weights[k]});
    for (std::size_t k = 0; k < layers.size(); ++k) {
      const auto v = dense_reference(layers[k]).v;
      if (reference.empty()) reference.assign(v.size(), 0);
      for (std::size_t i = 0; i < v.size(); ++i) reference[i] += test::cd(weights[k]) * v[i];
    }
  }
  ChargedSum(const ChargedSum&) = delete;  // terms point into stacks
};

}  // namespace srcc::test::charged

#pragma once
// Inner products of trains with equal legs: ⟨a|b⟩ = Σ conj(a) b, contracted site by site
// through the transfer matrix E[α, β] (α: bond of a, β: bond of b) with GEMMs.
#include <cmath>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// A number a double may not hold: value · e^log_scale (long trains have norms like 1e-800).
struct Scaled {
  cdouble value = 0;
  double log_scale = 0;
  double log_abs() const;  // log |value · e^log_scale|; −∞ for 0
  cdouble plain() const;   // value · e^log_scale as a double: 0 or ∞ outside its range
};

// ⟨a|b⟩ = Σ conj(a) b, one pair of sites at a time from the left: what a reader that holds only
// two sites needs. Cores in (l, r, u, d) order; every site's (u, d) sizes must agree (checked by
// the caller). The transfer matrix is kept at unit norm, its scale aside.
template <class T> class InnerProduct {
 public:
  explicit InnerProduct(Kernels<T>& kernels);
  void add(const Tensor<T>& a, const Tensor<T>& b);  // sites 0, 1, … in order
  Scaled value() const;                              // after the last site

 private:
  Kernels<T>& K_;
  Buffer<T> e_;  // E[β, α]: bond of b, bond of a
  double log_scale_ = 0;
};

// log ‖a − b‖_F, one pair of sites at a time from the right (n − 1 first), accurate to rounding
// relative to ‖a‖ + ‖b‖ (not to its square root, as ‖a‖² + ‖b‖² − 2 Re⟨a|b⟩ would be): the
// difference as one train of summed bonds, brought to canonical form by QR site by site, so that
// its norm ends up in the first core. Holds two sites of that train at a time.
// Each site of a and b is taken at unit scale, and the ratio of the two trains' scales
// (`log_site_norm_ratio`: site_norm_log_ratio summed over the sites) spread evenly over a's sites, so that
// trains whose size sits in different sites (a result's norm in core 0, an input's in any site:
// 1e300 and 1e-300) meet at one scale at every site instead of one vanishing beside the other.
template <class T> class DistanceFromRight {
 public:
  DistanceFromRight(Mover<T>& mover, CountingGemm<T>& gemm, std::size_t sites,
                    double log_site_norm_ratio);
  void add(const Tensor<T>& a, const Tensor<T>& b);  // sites n − 1, n − 2, … 0 in order
  double log_value() const;                          // −∞ when a = b; after site 0

 private:
  Mover<T>& mover_;
  CountingGemm<T>& gemm_;
  std::size_t n_, next_;  // sites; the site add() takes next, counting down
  double log_ratio_per_site_;
  Tensor<T> carry_;       // the difference's leftmost core so far, the rest folded into it
  double log_scale_ = 0;
};

// The elements DistanceFromRight holds at once for sites of these shapes (a and b at one site).
std::size_t distance_step_elements(const SiteDims& a, const SiteDims& b);

template <class T>
Scaled inner_product_scaled(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                            Kernels<T>& kernels) {
  InnerProduct<T> ip(kernels);
  for (std::size_t j = 0; j < a.size(); ++j) ip.add(a[j], b[j]);
  return ip.value();
}
template <class T>
cdouble inner_product(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                      Kernels<T>& kernels) {
  return inner_product_scaled(a, b, kernels).plain();
}

// The binary exponent e of a site's norm (norm = m · 2^e, m in [1/2, 1)); 0 for a site of norm
// 0 or not finite. The sites are taken at unit scale by exactly that power of two.
template <class T> int site_exponent(const Tensor<T>& t) {
  const double v = frobenius_norm(t);
  int e = 0;
  if (v > 0 && std::isfinite(v)) std::frexp(v, &e);
  return e;
}

// log(scale of a_j) − log(scale of b_j), summed over the sites for DistanceFromRight.
template <class T> double site_norm_log_ratio(const Tensor<T>& a, const Tensor<T>& b) {
  return (site_exponent(a) - site_exponent(b)) * std::log(2.0);
}

template <class T>
double log_distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                    Mover<T>& mover, CountingGemm<T>& gemm) {
  double ratio = 0;
  for (std::size_t j = 0; j < a.size(); ++j) ratio += site_norm_log_ratio(a[j], b[j]);
  DistanceFromRight<T> d(mover, gemm, a.size(), ratio);
  for (std::size_t j = a.size(); j-- > 0;) d.add(a[j], b[j]);
  return d.log_value();
}
// ‖a − b‖_F as a double.
template <class T>
double distance(const std::vector<Tensor<T>>& a, const std::vector<Tensor<T>>& b,
                Mover<T>& mover, CountingGemm<T>& gemm) {
  return std::exp(log_distance(a, b, mover, gemm));
}

}  // namespace srcc

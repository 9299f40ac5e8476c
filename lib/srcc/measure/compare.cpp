#include "srcc/measure/compare.hpp"

#include <cmath>
#include <cstdio>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/core/error.hpp"
#include "srcc/core/interrupt.hpp"
#include "srcc/core/json.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/measure/overlap.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/train/site_loader.hpp"

namespace srcc {

std::string format_log10(double log10_value) {
  if (!std::isfinite(log10_value)) return log10_value < 0 ? "0" : "inf";
  double exponent = std::floor(log10_value);
  double mantissa = std::pow(10.0, log10_value - exponent);
  if (mantissa >= 9.9999995) {  // would print as 10.000000e…
    mantissa /= 10;
    exponent += 1;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6fe%+03lld", mantissa, static_cast<long long>(exponent));
  return buf;
}

std::string Comparison::to_json() const {
  JsonObject o;
  o.add("norm_a", norm_a)
      .add("norm_b", norm_b)
      .add("log10_norm_a", log10_norm_a)
      .add("log10_norm_b", log10_norm_b)
      .add("overlap_re", overlap.real())
      .add("overlap_im", overlap.imag())
      .add("cosine_re", cosine.real())
      .add("cosine_im", cosine.imag())
      .add("relative_distance", relative_distance);
  return o.str();
}

Comparison compare(const TrainRef& a_ref, const TrainRef& b_ref) {
  auto readers = open_trains({a_ref, b_ref});
  TrainReader &ra = readers[0], &rb = readers[1];
  const auto &ia = ra.info(), &ib = rb.info();
  if (ia.length() != ib.length())
    throw InputError(ia.where() + " has " + std::to_string(ia.length()) + " sites but " +
                     ib.where() + " has " + std::to_string(ib.length()));
  for (std::size_t j = 0; j < ia.length(); ++j)
    if (ia.dims[j][kLegU] != ib.dims[j][kLegU] || ia.dims[j][kLegD] != ib.dims[j][kLegD])
      throw InputError(ia.where(j) + ": physical legs differ from " + ib.where(j));
  TransferLog log;
  auto backend = make_cpu_backend(0);
  return visit_dtype(promote(ia.dtype(), ib.dtype()), [&](auto zero) {
    using T = decltype(zero);
    std::vector<Tensor<T>> a, b;
    for (std::size_t j = 0; j < ia.length(); ++j) {
      poll_interrupt();
      a.push_back(to_internal<T>(ra.read_site(j, log), ia, j, log));
      b.push_back(to_internal<T>(rb.read_site(j, log), ib, j, log));
    }
    auto& K = backend->kernels<T>();
    CountingGemm<T> gemm(K);
    Mover<T> mover(K, &log, backend->name());
    const Scaled aa = inner_product_scaled(a, a, K), bb = inner_product_scaled(b, b, K);
    const Scaled ab = inner_product_scaled(a, b, K);
    const double log_na = 0.5 * aa.log_abs(), log_nb = 0.5 * bb.log_abs();
    Comparison c;
    c.norm_a = std::exp(log_na);
    c.norm_b = std::exp(log_nb);
    c.log10_norm_a = log_na / std::log(10.0);
    c.log10_norm_b = log_nb / std::log(10.0);
    c.overlap = ab.plain();
    c.cosine = ab.value * std::exp(ab.log_scale - log_na - log_nb);
    c.relative_distance = std::exp(log_distance(a, b, mover, gemm) - log_nb);
    return c;
  });
}

}  // namespace srcc

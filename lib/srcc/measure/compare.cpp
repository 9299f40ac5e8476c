#include "srcc/measure/compare.hpp"

#include <cmath>

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

std::string Comparison::to_json() const {
  JsonObject o;
  o.add("norm_a", norm_a)
      .add("norm_b", norm_b)
      .add("overlap_re", overlap.real())
      .add("overlap_im", overlap.imag())
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
    Comparison c;
    c.norm_a = std::sqrt(std::max(0.0, inner_product(a, a, K).real()));
    c.norm_b = std::sqrt(std::max(0.0, inner_product(b, b, K).real()));
    c.overlap = inner_product(a, b, K);
    CountingGemm<T> gemm(K);
    Mover<T> mover(K, &log, backend->name());
    c.relative_distance = distance(a, b, mover, gemm) / c.norm_b;
    return c;
  });
}

}  // namespace srcc

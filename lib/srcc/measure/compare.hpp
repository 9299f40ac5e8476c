#pragma once
// The `distance` command: how far apart two trains stored in files are.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "srcc/backend/backend.hpp"
#include "srcc/core/dtype.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

// ⟨a|b⟩, the norms and ‖a − b‖ / ‖b‖ of two trains with equal legs. The ratios are computed
// with the scales apart, so they are right for long trains whose norms a double cannot hold
// (norm_a is then 0 or ∞, and log10_norm_a the number to read).
struct Comparison {
  double norm_a = 0, norm_b = 0;
  double log10_norm_a = 0, log10_norm_b = 0;
  cdouble overlap = 0;
  cdouble cosine = 0;            // ⟨a|b⟩ / (‖a‖ ‖b‖); NaN when ‖a‖ = 0 (undefined, shown so)
  double relative_distance = 0;  // ‖a − b‖ / ‖b‖ (inf beyond a double's range)
  double log10_relative_distance = 0;  // always finite: ‖b‖ = 0 is a NumericalError
  std::string to_json() const;
};

// The backend a measurement runs on, made once its inputs are open: their read check forks a
// child process, which must happen before a backend starts its threads.
using BackendMaker = std::function<std::unique_ptr<Backend>()>;

// Compares two trains on the backend `make` gives, in the promoted type of the two. With
// `charges` and trains that carry the same physical charges, on the host, where both trains fit
// the host budget whole: in their charge blocks (charged_compare.hpp). Else reading two sites of
// each at a time (twice: once from each end). Throws InputError when their lengths or physical
// legs differ, ResourceError when a step would need more than the host budget (`host_memory`
// bytes, 0 = detected).
Comparison compare(const TrainRef& a, const TrainRef& b, std::uint64_t host_memory, const BackendMaker& make,
                   bool charges = true);

// Trains described by `a` and `b`, site j of each from site_a(j) and site_b(j) in (l, r, u, d)
// order, compared dense on K, two sites of each at a time (each site asked for twice). Throws
// InputError when their lengths or physical legs differ.
template <class T>
Comparison compare_sites(Kernels<T>& K, TransferLog& log, const std::string& device, const TrainInfo& a, const TrainInfo& b,
                         const std::function<Tensor<T>(std::size_t)>& site_a,
                         const std::function<Tensor<T>(std::size_t)>& site_b);

}  // namespace srcc

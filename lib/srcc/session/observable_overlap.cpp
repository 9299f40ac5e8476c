#include "srcc/session/observable_overlap.hpp"

#include <cmath>
#include <complex>
#include <cstdio>
#include <optional>

#include "srcc/io/train_reader.hpp"
#include "srcc/measure/charged_sandwich.hpp"
#include "srcc/measure/sandwich.hpp"
#include "srcc/symmetric/block_ops.hpp"
#include "srcc/symmetric/charged_stack.hpp"

namespace srcc {

namespace {

template <class T> class Overlap final : public Observable<T> {
 public:
  Overlap(std::vector<Tensor<T>> reference, const TrainInfo& info)
      : ref_(std::move(reference)), where_(info.where()), fingerprint_{"overlap", fingerprint_of(info, ref_)},
        charges_(train_charges(info)) {}

  std::vector<TrajectoryColumn> columns() const override {
    return {{"overlap_re", "1", "Re ⟨ref|ψ⟩ with ref " + where_}, {"overlap_im", "1", "Im ⟨ref|ψ⟩"}};
  }
  std::pair<std::string, std::string> fingerprint() const override { return fingerprint_; }

  // The state's scale applies: the overlap is of the state itself, not of its direction.
  std::vector<double> measure(const std::vector<Tensor<T>>& cores, double scale, Kernels<T>& K) override {
    Sandwich<T> s(K, 0);
    for (std::size_t j = 0; j < cores.size(); ++j) s.add(ref_[j], {}, cores[j]);
    this->flops_ += s.flops();
    return scaled(s.value(), scale);
  }

  // On charges, where the reference's charges are the state's: in their blocks (the reference's
  // made once).
  std::vector<double> measure_charged(const ChargedState<T>& state, double scale, Kernels<T>& K) override {
    if (!charges_ || !same_state_charges(*charges_, state.charges)) return measure(state.dense(), scale, K);
    if (ref_blocks_.empty()) ref_blocks_ = charged_layer(K, ref_, *charges_, 0, where_);
    ChargedSandwich<T> s(K, 0);
    for (std::size_t j = 0; j < state.cores.size(); ++j) s.add(ref_blocks_[j], {}, state.cores[j]);
    return scaled(s.value(), scale);
  }

  std::string shown(const std::vector<double>& values) const override {
    char m[64];
    std::snprintf(m, sizeof m, "  |overlap| %.10g", std::abs(cdouble(values[0], values[1])));
    return m;
  }

 private:
  static std::vector<double> scaled(const Scaled& v, double scale) {
    const cdouble value = v.value * std::exp(v.log_scale + scale);
    return {value.real(), value.imag()};
  }
  std::vector<Tensor<T>> ref_;
  std::string where_;
  std::pair<std::string, std::string> fingerprint_;
  std::optional<PhysicalCharges> charges_;  // the reference's, where its file gives them
  std::vector<BlockTensor<T>> ref_blocks_;  // … and its sites in their blocks, once measured on charges
};

}  // namespace

template <class T> std::unique_ptr<Observable<T>> overlap_with(std::vector<Tensor<T>> reference, const TrainInfo& info) {
  return std::make_unique<Overlap<T>>(std::move(reference), info);
}

#define SRCC_INSTANTIATE(T) \
  template std::unique_ptr<Observable<T>> overlap_with(std::vector<Tensor<T>>, const TrainInfo&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

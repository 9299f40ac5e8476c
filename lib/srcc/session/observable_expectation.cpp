#include "srcc/session/observable_expectation.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

#include "srcc/io/train_reader.hpp"
#include "srcc/measure/charged_sandwich.hpp"
#include "srcc/measure/sandwich.hpp"
#include "srcc/symmetric/charged_stack.hpp"

namespace srcc {

namespace {

template <class T> class ExpectationValue final : public Observable<T> {
 public:
  ExpectationValue(std::vector<Tensor<T>> op, const TrainInfo& info, std::string label, std::size_t index)
      : op_(std::move(op)), where_(info.where()), label_(std::move(label)),
        fingerprint_{"measure " + std::to_string(index), fingerprint_of(info, op_)}, charges_(train_charges(info)) {}

  std::vector<TrajectoryColumn> columns() const override {
    return {{label_ + "_re", "as the operator", "Re ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ of " + where_},
            {label_ + "_im", "as the operator", "Im ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩"}};
  }
  std::pair<std::string, std::string> fingerprint() const override { return fingerprint_; }

  // Normalised by ⟨ψ|ψ⟩ in logarithms (the scale cancels); 0 for a state of norm 0.
  std::vector<double> measure(const std::vector<Tensor<T>>& cores, double, Kernels<T>& K) override {
    const double log_norm2 = 2 * std::log(frobenius_norm(cores.front()));
    Sandwich<T> s(K, 1);
    for (std::size_t j = 0; j < cores.size(); ++j) s.add(cores[j], {&op_[j]}, cores[j]);
    this->flops_ += s.flops();
    return ratio(s.value(), Scaled{1, log_norm2});
  }

  // On charges, where the operator carries charges that meet the state's: in their blocks (the
  // operator's made once), else dense.
  std::vector<double> measure_charged(const ChargedState<T>& state, double scale, Kernels<T>& K) override {
    if (!charges_ || !charges_compatible({*charges_, state.charges}).empty()) return measure(state.dense(), scale, K);
    if (op_blocks_.empty()) op_blocks_ = charged_layer(K, op_, *charges_, 0, where_);
    ChargedSandwich<T> s(K, 1), norm(K, 0);
    for (std::size_t j = 0; j < state.cores.size(); ++j) {
      s.add(state.cores[j], {&op_blocks_[j]}, state.cores[j]);
      norm.add(state.cores[j], {}, state.cores[j]);
    }
    return ratio(s.value(), norm.value());
  }

  std::string shown(const std::vector<double>& values) const override {
    char m[96];
    std::snprintf(m, sizeof m, "  %s %.10g", label_.c_str(), values[0]);
    return m;
  }

 private:
  // ⟨ψ|O|ψ⟩ / ⟨ψ|ψ⟩ with the scales apart; 0 for a state of norm 0.
  static std::vector<double> ratio(const Scaled& v, const Scaled& norm2) {
    const double log_norm2 = std::log(std::abs(norm2.value)) + norm2.log_scale;
    const cdouble value = std::isfinite(log_norm2) ? v.value * std::exp(v.log_scale - log_norm2) : cdouble(0);
    return {value.real(), value.imag()};
  }
  std::vector<Tensor<T>> op_;
  std::string where_, label_;
  std::pair<std::string, std::string> fingerprint_;
  std::optional<PhysicalCharges> charges_;  // the operator's, where its file gives them
  std::vector<BlockTensor<T>> op_blocks_;   // … and its sites in their blocks, once measured on charges
};

}  // namespace

template <class T>
std::unique_ptr<Observable<T>> expectation_value(std::vector<Tensor<T>> op, const TrainInfo& info, std::string label,
                                                 std::size_t index) {
  return std::make_unique<ExpectationValue<T>>(std::move(op), info, std::move(label), index);
}

#define SRCC_INSTANTIATE(T)                                                                                  \
  template std::unique_ptr<Observable<T>> expectation_value(std::vector<Tensor<T>>, const TrainInfo&, std::string, \
                                                            std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

#include "srcc/session/observable_expectation.hpp"

#include <cmath>
#include <cstdio>

#include "srcc/measure/sandwich.hpp"

namespace srcc {

namespace {

template <class T> class ExpectationValue final : public Observable<T> {
 public:
  ExpectationValue(std::vector<Tensor<T>> op, const TrainInfo& info, std::string label, std::size_t index)
      : op_(std::move(op)), where_(info.where()), label_(std::move(label)),
        fingerprint_{"measure " + std::to_string(index), fingerprint_of(info, op_)} {}

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
    const Scaled v = s.value();
    this->flops_ += s.flops();
    const cdouble value = std::isfinite(log_norm2) ? v.value * std::exp(v.log_scale - log_norm2) : cdouble(0);
    return {value.real(), value.imag()};
  }

  std::string shown(const std::vector<double>& values) const override {
    char m[96];
    std::snprintf(m, sizeof m, "  %s %.10g", label_.c_str(), values[0]);
    return m;
  }

 private:
  std::vector<Tensor<T>> op_;
  std::string where_, label_;
  std::pair<std::string, std::string> fingerprint_;
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

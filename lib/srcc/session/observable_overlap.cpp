#include "srcc/session/observable_overlap.hpp"

#include <cmath>
#include <complex>
#include <cstdio>

#include "srcc/measure/sandwich.hpp"

namespace srcc {

namespace {

template <class T> class Overlap final : public Observable<T> {
 public:
  Overlap(std::vector<Tensor<T>> reference, const TrainInfo& info)
      : ref_(std::move(reference)), where_(info.where()), fingerprint_{"overlap", fingerprint_of(info, ref_)} {}

  std::vector<TrajectoryColumn> columns() const override {
    return {{"overlap_re", "1", "Re ⟨ref|ψ⟩ with ref " + where_}, {"overlap_im", "1", "Im ⟨ref|ψ⟩"}};
  }
  std::pair<std::string, std::string> fingerprint() const override { return fingerprint_; }

  // The state's scale applies: the overlap is of the state itself, not of its direction.
  std::vector<double> measure(const std::vector<Tensor<T>>& cores, double scale, Kernels<T>& K) override {
    Sandwich<T> s(K, 0);
    for (std::size_t j = 0; j < cores.size(); ++j) s.add(ref_[j], {}, cores[j]);
    const Scaled v = s.value();
    this->flops_ += s.flops();
    const cdouble value = v.value * std::exp(v.log_scale + scale);
    return {value.real(), value.imag()};
  }

  std::string shown(const std::vector<double>& values) const override {
    char m[64];
    std::snprintf(m, sizeof m, "  |overlap| %.10g", std::abs(cdouble(values[0], values[1])));
    return m;
  }

 private:
  std::vector<Tensor<T>> ref_;
  std::string where_;
  std::pair<std::string, std::string> fingerprint_;
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

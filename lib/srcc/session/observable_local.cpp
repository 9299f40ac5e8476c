#include "srcc/session/observable_local.hpp"

#include <cmath>
#include <cstdio>

#include "srcc/backend/counting_gemm.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/measure/entanglement.hpp"
#include "srcc/measure/local_observables.hpp"
#include "srcc/movement/mover.hpp"
#include "srcc/symmetric/charged_truncation.hpp"
#include "srcc/sweep/truncation_sweep.hpp"

namespace srcc {

namespace {

bool hermitian(const SiteOperator& o) {
  for (std::size_t i = 0; i < o.dim; ++i)
    for (std::size_t j = 0; j < o.dim; ++j)
      if (std::abs(o.at(i, j) - std::conj(o.at(j, i))) > 1e-14) return false;
  return true;
}

template <class T> class SiteOp final : public Observable<T> {
 public:
  SiteOp(SiteOperator op, std::string name, std::size_t sites)
      : op_(std::move(op)), name_(std::move(name)), n_(sites), real_(hermitian(op_)) {}

  std::vector<TrajectoryColumn> columns() const override {
    std::vector<TrajectoryColumn> c;
    for (std::size_t i = 0; i < n_; ++i) {
      const std::string col = name_ + "_" + std::to_string(i);
      c.push_back({col, "1", "⟨" + name_ + "⟩ at site " + std::to_string(i) + (real_ ? "" : " (real part)")});
      if (!real_) c.push_back({col + "_im", "1", "its imaginary part"});
    }
    return c;
  }
  std::pair<std::string, std::string> fingerprint() const override {
    std::string m;
    for (const auto& v : op_.m) {
      char b[64];
      std::snprintf(b, sizeof b, "%.17g,%.17g;", v.real(), v.imag());
      m += b;
    }
    return {"site_op_" + name_, m};
  }
  std::vector<double> measure(const std::vector<Tensor<T>>& cores, double /*scale*/, Kernels<T>& K) override {
    // On the host: a device's kernels would need the cores uploaded for a few small products.
    std::unique_lock<std::recursive_mutex> host;
    return columns_of(site_expectations(host_kernels(K, host), cores, op_));
  }
  std::vector<double> measure_charged(const ChargedState<T>& state, double /*scale*/, Kernels<T>& K) override {
    return columns_of(site_expectations(K, state.cores, op_));
  }
  std::string shown(const std::vector<double>& values) const override {
    double sum = 0;
    for (std::size_t i = 0; i < n_; ++i) sum += values[real_ ? i : 2 * i];
    char m[96];
    std::snprintf(m, sizeof m, "  Σ%s %.10g", name_.c_str(), sum);
    return m;
  }

 private:
  // The values as columns: the real parts, and the imaginary ones beside them where O is not
  // Hermitian.
  std::vector<double> columns_of(const std::vector<std::complex<double>>& values) const {
    std::vector<double> out;
    for (const auto& v : values) {
      out.push_back(v.real());
      if (!real_) out.push_back(v.imag());
    }
    return out;
  }
  SiteOperator op_;
  std::string name_;
  std::size_t n_;
  bool real_;
};

template <class T> class Entropy final : public Observable<T> {
 public:
  explicit Entropy(std::size_t sites) : n_(sites) {}
  std::vector<TrajectoryColumn> columns() const override {
    std::vector<TrajectoryColumn> c;
    for (std::size_t b = 1; b < n_; ++b)
      c.push_back({"S_" + std::to_string(b), "1", "von Neumann entropy at bond " + std::to_string(b) + " (natural log)"});
    return c;
  }
  std::pair<std::string, std::string> fingerprint() const override { return {"entropy", "von Neumann"}; }
  std::vector<double> measure(const std::vector<Tensor<T>>& cores, double /*scale*/, Kernels<T>& K) override {
    std::vector<Tensor<T>> copy = cores;
    CountingGemm<T> gemm(K);
    Mover<T> mover(K, nullptr, "");
    std::vector<std::vector<double>> sigma;
    truncate_train(copy, 0, 0.0, 0.0, mover, gemm, false, &sigma);
    this->flops_ += gemm.flops();
    std::vector<std::vector<SectorValues>> spectra;
    for (auto& v : sigma) spectra.push_back({SectorValues{Charge{}, std::move(v)}});
    return entropies(spectra);
  }
  // On charges: the Schmidt values by an SVD per sector, from the step's B form.
  std::vector<double> measure_charged(const ChargedState<T>& state, double /*scale*/, Kernels<T>& K) override {
    return entropies(schmidt_spectra(K, state.cores, state.charges.rule, true));
  }
  std::string shown(const std::vector<double>& values) const override {
    double most = 0;
    for (double v : values) most = std::max(most, v);
    char m[64];
    std::snprintf(m, sizeof m, "  S_max %.6g", most);
    return m;
  }

 private:
  static std::vector<double> entropies(const std::vector<std::vector<SectorValues>>& spectra) {
    std::vector<double> out;
    for (const auto& b : entanglement_of(spectra, std::nullopt)) out.push_back(b.von_neumann);
    return out;
  }
  std::size_t n_;
};

}  // namespace

template <class T>
std::unique_ptr<Observable<T>> site_operator(SiteOperator op, std::string name, std::size_t sites) {
  return std::make_unique<SiteOp<T>>(std::move(op), std::move(name), sites);
}
template <class T> std::unique_ptr<Observable<T>> bond_entropy(std::size_t sites) { return std::make_unique<Entropy<T>>(sites); }

#define SRCC_INSTANTIATE(T)                                                                                      \
  template std::unique_ptr<Observable<T>> site_operator<T>(SiteOperator, std::string, std::size_t); \
  template std::unique_ptr<Observable<T>> bond_entropy<T>(std::size_t);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

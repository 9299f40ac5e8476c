// Successive Randomized Compression: C. Camaño, E. N. Epperly, J. A. Tropp, "Successive
// randomized compression: a randomized algorithm for the compressed MPO-MPS product",
// arXiv:2504.06475. ALGORITHM.md summarises the steps implemented here.
//
// Index conventions. A stack has k layers (0 = top, k-1 = bottom) and n sites; at site j layer
// i has legs (l_i, r_i, u_i, d_i), with d_i = u_{i+1}. x_0 = u_0 is the product's up leg and
// x_k = d_{k-1} its down leg (1 for an MPS). Every contraction below is a (strided batched)
// row-major GEMM over contiguous memory; the only permutations are of sites (site_forms) and
// one of the right environment when the product has a down leg.
//
// Left sweep: C_j[a, L_0..L_{k-1}] (a = sketch column, a batch index never summed). From the
// Khatri–Rao product T[a, x_0, L_0..L_{k-1}, x_k] = C_j[a, L] Ω_j[a, x_0, x_k] the layers are
// absorbed top to bottom; before layer i the layout is [a, R_0..R_{i-1}, x_i, L_i, …, x_k], so
// the contracted pair (x_i, L_i) is contiguous and the GEMM is batched over the leading axes.
//
// Right sweep: from S[b, R_0..R_{k-1}] (b = output bond to the right) the layers give
// Z[b, x_0, L_0..L_{k-1}, x_k]; with the down leg moved next to x_0 this is the matrix
// Z'[(b, x_0, x_k), L]. Then Y = C_j Z'ᵀ is stored column-major as (b x_0 x_k) × s, so the Q of
// its QR, read row-major, is directly the core η_j[l, r, u, d], and S ← conj(η_j) Z'.
#include "srcc/sweep/sweep.hpp"

#include <chrono>
#include <cmath>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/sweep/site_forms.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/truncation.hpp"

namespace srcc {

void validate(const SweepOptions& o) {
  if (o.chi < 1) throw UsageError("--chi: must be at least 1 (got " + std::to_string(o.chi) + ")");
  if (!(o.cutoff >= 0.0 && o.cutoff < 1.0))
    throw UsageError("--cutoff: must be in [0, 1) (got " + std::to_string(o.cutoff) + ")");
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

template <class T> class Sweeper {
 public:
  Sweeper(const StackData<T>& data, const SweepOptions& opt, Backend& backend, TransferLog& log,
          Reporter& reporter, const std::function<void()>& check_interrupt)
      : data_(data),
        st_(data.stack),
        opt_(opt),
        K_(backend.kernels<T>()),
        device_(backend.name()),
        log_(log),
        reporter_(reporter),
        check_interrupt_(check_interrupt),
        n_(st_.length()),
        k_(st_.depth()),
        s_(opt.chi) {}

  SweepResult<T> run() {
    SweepResult<T> out;
    out.kind = st_.result_kind();
    out.cores.resize(n_);
    out.sites.resize(n_);
    seconds_.assign(n_, 0.0);
    if (n_ == 2) {
      two_site(out);
    } else {
      draw_sketches();
      left_sweep();
      right_sweep(out);
    }
    for (std::size_t j = 0; j < n_; ++j) {
      auto& s = out.sites[j];
      s.site = static_cast<std::int64_t>(j);
      s.bond_left = static_cast<std::int64_t>(out.cores[j].shape[kLegL]);
      s.bond_right = static_cast<std::int64_t>(out.cores[j].shape[kLegR]);
      s.seconds = seconds_[j];
    }
    out.flops = flops_;
    return out;
  }

 private:
  const Tensor<T>& site(std::size_t layer, std::size_t j) const { return data_.sites[layer][j]; }
  std::size_t dim(std::size_t layer, std::size_t j, std::size_t leg) const {
    return site(layer, j).shape[leg];
  }
  std::string what(std::size_t layer) const {
    return st_.layers[layer].kind == TrainKind::kMps ? "mps site" : "mpo site";
  }

  // Every GEMM of the sweep, counted in real flops (a complex multiply-add is 8).
  void gemm(Op op_a, Op op_b, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
            std::size_t lda, std::size_t stride_a, const T* b, std::size_t ldb,
            std::size_t stride_b, T beta, T* c, std::size_t ldc, std::size_t stride_c,
            std::size_t batch) {
    flops_ += (is_complex_v<T> ? 8.0 : 2.0) * static_cast<double>(m) * static_cast<double>(n) *
              static_cast<double>(k) * static_cast<double>(batch);
    if (batch > 1 && n == 1 && op_a == Op::kTrans && op_b == Op::kNone && stride_a == 0 &&
        stride_b == k && stride_c == m) {
      // A batch of matrix-vector products with one shared matrix is one GEMM:
      // C[batch, m] = B[batch, k] · A[k, m]. (The bottom layer of a right block has no
      // trailing axes, so this is the common case there.)
      K_.gemm(Op::kNone, Op::kNone, batch, m, k, alpha, b, k, 0, a, lda, 0, beta, c, m, 0, 1);
      return;
    }
    K_.gemm(op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
            stride_c, batch);
  }

  // Hands host data to the backend, logging a device move where the backend copies it.
  Buffer<T> adopt(std::vector<T>&& host, const std::string& what, std::size_t j) {
    const auto bytes = static_cast<std::int64_t>(host.size() * sizeof(T));
    const auto t0 = Clock::now();
    Buffer<T> b = K_.adopt(std::move(host));
    if (K_.moves_data()) {
      const std::string dt(dtype_name(dtype_of<T>));
      log_.add({.what = what, .site = static_cast<std::int64_t>(j),
                .mechanism = mechanism::kDeviceMove, .source = "host", .target = device_,
                .dtype_from = dt, .dtype_to = dt, .bytes = bytes, .seconds = since(t0)});
    }
    return b;
  }

  Buffer<T> form(std::size_t layer, std::size_t j, SiteForm f) {
    return adopt(site_in_form(site(layer, j), f, what(layer), j, log_), what(layer), j);
  }

  Tensor<T> fetch_core(const Buffer<T>& b, Shape shape, std::size_t j) {
    const auto t0 = Clock::now();
    Tensor<T> core(std::move(shape));
    core.data = K_.download(b, core.size());
    const std::string dt(dtype_name(dtype_of<T>));
    log_.add({.what = "result site", .site = static_cast<std::int64_t>(j),
              .mechanism = K_.moves_data() ? mechanism::kDeviceMove : mechanism::kHostCopy,
              .source = device_ == "cpu" ? "host" : device_, .target = "host",
              .dtype_from = dt, .dtype_to = dt, .bytes = static_cast<std::int64_t>(core.bytes()),
              .seconds = since(t0)});
    return core;
  }

  void draw_sketches() {
    Rng rng(opt_.seed);
    omega_.clear();
    for (std::size_t j = 0; j + 1 < n_; ++j)
      omega_.push_back(adopt(draw_gaussian<T>(rng, s_ * st_.up_dim(j) * st_.down_dim(j)),
                             "sketch", j));
  }

  // C_{j+1} from C_j (see the file comment for the layouts).
  Buffer<T> advance_left(std::size_t j) {
    const std::size_t nl = st_.fused_left(j), u = st_.up_dim(j), dd = st_.down_dim(j);
    Buffer<T> cur = K_.allocate(s_ * u * nl * dd);
    K_.khatri_rao(s_, nl, u, dd, env_[j].data(), omega_[j].data(), cur.data());
    std::size_t rows = s_;         // product of the leading (batch) axes
    std::size_t trailing = nl * dd;  // product of the axes after the contracted pair
    for (std::size_t i = 0; i < k_; ++i) {
      const std::size_t l = dim(i, j, kLegL), r = dim(i, j, kLegR), up = dim(i, j, kLegU),
                        dn = dim(i, j, kLegD);
      trailing /= l;
      if (i + 1 < k_) {
        Buffer<T> w = form(i, j, SiteForm::kUlRd);
        Buffer<T> next = K_.allocate(rows * r * dn * trailing);
        gemm(Op::kTrans, Op::kNone, r * dn, trailing, up * l, T(1), w.data(), r * dn, 0,
                cur.data(), trailing, up * l * trailing, T(0), next.data(), trailing,
                r * dn * trailing, rows);
        cur = std::move(next);
      } else {
        Buffer<T> w = form(i, j, SiteForm::kRUld);
        Buffer<T> next = K_.allocate(rows * r);
        gemm(Op::kNone, Op::kTrans, rows, r, up * l * dn, T(1), cur.data(), up * l * dn, 0,
                w.data(), up * l * dn, 0, T(0), next.data(), r, 0, 1);
        cur = std::move(next);
      }
      rows *= r;
    }
    // A uniform rescaling leaves the sketched range unchanged and keeps long trains away from
    // overflow and underflow (most of all in float32).
    const auto nrm = K_.norm(rows, cur.data());
    if (nrm > 0 && std::isfinite(static_cast<double>(nrm)))
      K_.scale(rows, static_cast<real_t<T>>(std::sqrt(static_cast<double>(s_)) / nrm),
               cur.data());
    else if (!std::isfinite(static_cast<double>(nrm)))
      throw NumericalError("left sweep, site " + std::to_string(j) +
                           ": sketched environment is not finite");
    return cur;
  }

  void left_sweep() {
    env_.clear();
    std::vector<T> ones(s_, T(1));
    env_.push_back(adopt(std::move(ones), "environment", 0));
    for (std::size_t j = 0; j + 1 < n_; ++j) {
      check_interrupt_();
      const auto t0 = Clock::now();
      env_.push_back(advance_left(j));
      seconds_[j] += since(t0);
      reporter_.progress("left sweep", j + 1, n_ - 1);
    }
  }

  // Z'[(b, x_0, x_k), L] for site j from S[b, R] (see the file comment).
  Buffer<T> right_block(std::size_t j, const Buffer<T>& s_env, std::size_t b) {
    std::size_t lead = b;                       // b · x_0 · L_0 … L_{i-1}
    std::size_t trailing = st_.fused_right(j);  // R_{i+1} … R_{k-1}
    Buffer<T> cur;
    const Buffer<T>* in = &s_env;
    for (std::size_t i = 0; i < k_; ++i) {
      const std::size_t l = dim(i, j, kLegL), r = dim(i, j, kLegR), up = dim(i, j, kLegU),
                        dn = dim(i, j, kLegD);
      trailing /= r;
      Buffer<T> next;
      if (i == 0) {
        Buffer<T> w = form(i, j, SiteForm::kRUld);
        next = K_.allocate(lead * up * l * dn * trailing);
        gemm(Op::kTrans, Op::kNone, up * l * dn, trailing, r, T(1), w.data(), up * l * dn, 0,
                in->data(), trailing, r * trailing, T(0), next.data(), trailing,
                up * l * dn * trailing, lead);
        lead *= up * l;
      } else {
        Buffer<T> w = form(i, j, SiteForm::kUrLd);
        next = K_.allocate(lead * l * dn * trailing);
        gemm(Op::kTrans, Op::kNone, l * dn, trailing, up * r, T(1), w.data(), l * dn, 0,
                in->data(), trailing, up * r * trailing, T(0), next.data(), trailing,
                l * dn * trailing, lead);
        lead *= l;
      }
      cur = std::move(next);
      in = &cur;
    }
    const std::size_t u = st_.up_dim(j), dd = st_.down_dim(j), nl = st_.fused_left(j);
    if (dd == 1 || nl == 1) return cur;  // moving the down leg is a free reshape
    Buffer<T> moved = K_.allocate(cur.size());
    K_.swap_axes(b * u, nl, 1, dd, 1, cur.data(), moved.data());
    return moved;
  }

  void right_sweep(SweepResult<T>& out) {
    std::size_t b = 1;
    Buffer<T> s_env = adopt(std::vector<T>(1, T(1)), "environment", n_ - 1);
    for (std::size_t j = n_; j-- > 0;) {
      check_interrupt_();
      const auto t0 = Clock::now();
      const std::size_t u = st_.up_dim(j), dd = st_.down_dim(j), nl = st_.fused_left(j);
      const std::size_t rows = b * u * dd;
      Buffer<T> z = right_block(j, s_env, b);
      if (j == 0) {
        out.cores[0] = fetch_core(z, {1, b, u, dd}, 0);
        seconds_[0] += since(t0);
        reporter_.progress("right sweep", n_, n_);
        break;
      }
      // Sketch Y = C_j Z'ᵀ, column-major rows × s.
      Buffer<T> y = K_.allocate(s_ * rows);
      gemm(Op::kNone, Op::kTrans, s_, rows, nl, T(1), env_[j].data(), nl, 0, z.data(), nl, 0,
              T(0), y.data(), rows, 0, 1);
      const std::size_t kq = std::min(rows, s_);
      Buffer<T> rfac = K_.allocate(kq * s_);
      K_.qr(rows, s_, y.data(), rfac.data());
      std::size_t rank = std::min(kq, opt_.chi);
      Buffer<T> core;
      if (opt_.cutoff > 0.0 || kq > opt_.chi) {
        // Truncate through the SVD of the small R factor: the core becomes Q · U[:, :rank].
        Buffer<T> uf = K_.allocate(kq * kq), vt = K_.allocate(kq * s_);
        std::vector<real_t<T>> sigma(kq);
        K_.svd(kq, s_, rfac.data(), uf.data(), sigma.data(), vt.data());
        rank = truncation_rank(sigma, opt_.cutoff, opt_.chi);
        core = K_.allocate(rank * rows);
        gemm(Op::kNone, Op::kNone, rank, rows, kq, T(1), uf.data(), kq, 0, y.data(), rows, 0,
                T(0), core.data(), rows, 0, 1);
      } else {
        core = std::move(y);
      }
      // S ← conj(η_j) · Z'.
      Buffer<T> conj_core = K_.allocate(rank * rows);
      K_.conj(rank * rows, core.data(), conj_core.data());
      Buffer<T> next = K_.allocate(rank * nl);
      gemm(Op::kNone, Op::kNone, rank, nl, rows, T(1), conj_core.data(), rows, 0, z.data(), nl,
              0, T(0), next.data(), nl, 0, 1);
      out.cores[j] = fetch_core(core, {rank, b, u, dd}, j);
      out.sites[j].sketch_columns = static_cast<std::int64_t>(s_);
      s_env = std::move(next);
      env_[j].reset();
      b = rank;
      seconds_[j] += since(t0);
      reporter_.progress("right sweep", n_ - j, n_);
    }
  }

  // n = 2: the exact product Θ[(u_0 d_0), (u_1 d_1)] and one truncated SVD.
  void two_site(SweepResult<T>& out) {
    check_interrupt_();
    const auto t0 = Clock::now();
    const std::size_t u1 = st_.up_dim(1), d1 = st_.down_dim(1);
    const std::size_t u0 = st_.up_dim(0), d0 = st_.down_dim(0);
    Buffer<T> one = adopt(std::vector<T>(1, T(1)), "environment", 1);
    // With S = ones the right block of site 1 is Z'[(u_1 d_1), L]: taking the identity as η_1
    // it is the environment for site 0, whose block is then Θᵀ row-major = Θ column-major.
    Buffer<T> z1 = right_block(1, one, 1);
    Buffer<T> theta = right_block(0, z1, u1 * d1);
    const std::size_t m = u0 * d0, n = u1 * d1, kk = std::min(m, n);
    Buffer<T> uf = K_.allocate(m * kk), vt = K_.allocate(kk * n);
    std::vector<real_t<T>> sigma(kk);
    K_.svd(m, n, theta.data(), uf.data(), sigma.data(), vt.data());
    const std::size_t rank = truncation_rank(sigma, opt_.cutoff, opt_.chi);
    Tensor<T> uh = fetch_core(uf, {m, kk}, 0), vh = fetch_core(vt, {n, kk}, 1);
    Tensor<T> c0({1, rank, u0, d0}), c1({rank, 1, u1, d1});
    for (std::size_t i = 0; i < rank; ++i) {
      for (std::size_t q = 0; q < m; ++q) c0.data[i * m + q] = uh.data[i * m + q] * sigma[i];
      for (std::size_t c = 0; c < n; ++c) c1.data[i * n + c] = vh.data[c * kk + i];
    }
    out.cores[0] = std::move(c0);
    out.cores[1] = std::move(c1);
    seconds_[0] = seconds_[1] = since(t0) / 2;
    reporter_.progress("right sweep", 2, 2);
  }

  const StackData<T>& data_;
  const Stack& st_;
  SweepOptions opt_;
  Kernels<T>& K_;
  std::string device_;
  TransferLog& log_;
  Reporter& reporter_;
  const std::function<void()>& check_interrupt_;
  std::size_t n_, k_, s_;
  std::vector<Buffer<T>> omega_;
  std::vector<Buffer<T>> env_;
  std::vector<double> seconds_;
  double flops_ = 0;
};

}  // namespace

template <class T>
SweepResult<T> run_sweep(const StackData<T>& data, const SweepOptions& options, Backend& backend,
                         TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt) {
  validate(options);
  validate_stack(data.stack);
  if (data.stack.length() < 2)
    throw InputError(data.stack.layers.front().where() +
                     ": a train of one site has no bond to compress (need at least 2 sites)");
  return Sweeper<T>(data, options, backend, log, reporter, check_interrupt).run();
}

#define SRCC_INSTANTIATE(T)                                                                   \
  template SweepResult<T> run_sweep(const StackData<T>&, const SweepOptions&, Backend&,      \
                                    TransferLog&, Reporter&, const std::function<void()>&);
SRCC_INSTANTIATE(float)
SRCC_INSTANTIATE(double)
SRCC_INSTANTIATE(cfloat)
SRCC_INSTANTIATE(cdouble)
#undef SRCC_INSTANTIATE

}  // namespace srcc

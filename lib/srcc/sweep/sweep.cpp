// Successive Randomized Compression: C. Camaño, E. N. Epperly, J. A. Tropp, "Successive
// randomized compression: a randomized algorithm for the compressed MPO-MPS product",
// arXiv:2504.06475. docs/ALGORITHM.md describes the steps implemented here.
//
// Index conventions. A stack has k layers (0 = top, k-1 = bottom) and n sites; at site j layer
// i has legs (l_i, r_i, u_i, d_i), with d_i = u_{i+1}. x_0 = u_0 is the product's up leg and
// x_k = d_{k-1} its down leg (1 for an MPS). Every contraction below is a (strided batched)
// row-major GEMM over contiguous memory; the only permutations are of sites (site_forms) and,
// when the product has a down leg, one of each step's intermediate to put x_k beside x_0.
//
// Left sweep: C_j[a, L_0..L_{k-1}] (a = sketch column, a batch index never summed). A single
// train multiplies the Khatri–Rao product C_j[a, L] Ω_j[a, x_0, x_1] by its site in one GEMM. A
// stack of k >= 2 layers never forms that product: the sketch is contracted into the top layer
// (V = Ω·W_0), the environment into the bottom layer (E = C·W_{k-1}, one GEMM over all columns),
// the layers between into E, and each column's C_{j+1} is V_aᵀ E_a (left_stack has the layouts).
//
// Right sweep: from S[b, R_0..R_{k-1}] (b = output bond to the right) the layers, bottom first,
// give Z[b, x_0, L_0..L_{k-1}, x_k]; with the down leg moved next to x_0 this is the matrix
// Z'[(b, x_0, x_k), L]. Then Y = C_j Z'ᵀ is stored column-major as (b x_0 x_k) × s, so the Q of
// its QR, read row-major, is directly the core η_j[l, r, u, d], and S ← conj(η_j) Z'.
//
// Cost per site for an MPO (bond D) times an MPS (bond χ), output bond χ̄, sketch s, physical d:
// left s·(d²D² + dDχ² + dD²χ), right χ̄·(dDχ² + d²D²χ) + s·χ̄·dDχ + χ̄²·dDχ multiply-adds, plus
// the QR of a (χ̄ d) × s matrix: 14 N⁴ + 4 N³ when every size is N and d = 2.
#include "srcc/sweep/sweep.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <utility>

#include "srcc/core/error.hpp"
#include "srcc/core/rng.hpp"
#include "srcc/core/scaled_norm.hpp"
#include "srcc/movement/env_store.hpp"
#include "srcc/movement/site_feed.hpp"
#include "srcc/movement/site_forms.hpp"
#include "srcc/sweep/devices.hpp"
#include "srcc/sweep/range_finder.hpp"
#include "srcc/sweep/sketch.hpp"
#include "srcc/sweep/truncation.hpp"
#include "srcc/sweep/truncation_sweep.hpp"

namespace srcc {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Seeds of the sketch blocks: block 0 uses the run's seed itself, so that a fixed-size sketch
// draws Ω_0, Ω_1, … straight from it; later blocks (tolerance mode) get their own streams.
std::uint64_t block_seed(std::uint64_t seed, std::size_t block) {
  return block == 0 ? seed : Rng::derive_seed(seed, block);
}

template <class T> class Sweeper {
 public:
  Sweeper(const Stack& stack, SiteSource<T>& source, const SweepOptions& opt, Backend& backend,
          TransferLog& log, Reporter& reporter, const std::function<void()>& check_interrupt,
          const Plan* plan, const std::vector<Backend*>& extra)
      : st_(stack),
        opt_(opt),
        plan_(plan),
        devices_(backend, extra, log, tier_rule(plan),
                 plan ? plan->budgets.scratch_dir : std::string()),
        K_(devices_.ctx(0).K),
        gemm_(devices_.ctx(0).gemm),
        mover_(devices_.ctx(0).mover),
        store_(devices_.ctx(0).store),
        log_(log),
        reporter_(reporter),
        check_interrupt_(check_interrupt),
        n_(st_.length()),
        k_(st_.depth()),
        bounds_(st_.bond_bounds()),
        feed_(std::make_unique<SiteFeed<T>>(st_, source, log_, devices_.movers())) {}

  SweepResult<T> run() {
    SweepResult<T> out;
    out.kind = st_.result_kind();
    out.cores.resize(n_);
    out.sites.resize(n_);
    seconds_.assign(n_, 0.0);
    if (n_ == 2) {
      two_site(out);
    } else {
      if (!opt_.tolerance_mode()) new_block(opt_.sketch_columns(), n_ - 1);
      right_sweep(out);
      if (opt_.final_truncation()) final_truncation(out);
    }
    for (std::size_t j = 0; j < n_; ++j) out.sites[j].seconds = seconds_[j];
    out.finish_sites();
    out.capped_cuts = capped_;
    out.flops = devices_.flops();
    log_.settle();  // copies timed on a device: read their clocks while the device is here
    return out;
  }

 private:
  using Ctx = typename Devices<T>::Ctx;
  Ctx ctx(std::size_t d) { return devices_.ctx(d); }
  static typename EnvStore<T>::TierRule tier_rule(const Plan* plan) {
    return [plan](std::size_t j) { return plan ? plan->tier(j) : Tier::kMemory; };
  }

  // Sketch columns drawn together, split in column slices over the devices; the environments
  // of a slice are in its device's store under the block's number.
  struct Slice : Devices<T>::Slice {
    std::vector<Buffer<T>> omega;  // per site 0 … n−2: (columns, u_j, d_j) on the device
  };
  struct Block {
    std::size_t columns = 0;
    std::size_t last = 0;  // environments exist for cuts 0 … last
    std::vector<Slice> slices;
  };

  std::size_t dim(std::size_t layer, std::size_t j, std::size_t leg) const {
    return st_.layers[layer].dims[j][leg];
  }
  // Batches the plan allows (everything at once without a plan).
  std::size_t left_batch(std::size_t j, std::size_t s) const {
    return plan_ ? std::clamp<std::size_t>(plan_->site_plans[j].left_batch, 1, s) : s;
  }
  std::size_t right_batch(std::size_t j, std::size_t s) const {
    return plan_ ? std::clamp<std::size_t>(plan_->site_plans[j].right_batch, 1, s) : s;
  }
  // Hands host data to device d's backend (a logged device move where it copies).
  Buffer<T> adopt(std::vector<T>&& host, const std::string& what, std::size_t j,
                  std::size_t d = 0) {
    return ctx(d).mover.up(std::move(host), what, static_cast<std::int64_t>(j));
  }

  Buffer<T> form(std::size_t layer, std::size_t j, SiteForm f, std::size_t d = 0) {
    return feed_->form(layer, j, f, d);
  }

  Tensor<T> fetch_core(const Buffer<T>& b, Shape shape, std::size_t j) {
    Tensor<T> core(std::move(shape));
    core.data = mover_.fetch(b, core.size(), "result site", static_cast<std::int64_t>(j));
    return core;
  }

  // Withdraws the ranges new_block() asked its devices to warm, however the block ends, before
  // the buffers they lie in may be freed.
  struct WarmingStop {
    std::vector<Kernels<T>*> kernels;
    ~WarmingStop() {
      for (auto* k : kernels) k->warm(nullptr, 0);
    }
  };

  // Draws a block of `columns` sketch columns and sweeps its environments up to cut `last`.
  void new_block(std::size_t columns, std::size_t last) {
    Block b;
    b.columns = columns;
    b.last = last;
    // The draws do not depend on the split: site by site, all columns from one generator,
    // then cut into the slices' rows.
    for (const auto& sl : devices_.split(columns)) b.slices.push_back({sl, {}});
    Rng rng(block_seed(opt_.seed, blocks_.size()));
    for (std::size_t j = 0; j + 1 < n_; ++j) {
      const std::size_t up = st_.up_dim(j), down = st_.down_dim(j), ud = up * down;
      std::vector<T> all = draw_gaussian<T>(rng, columns * ud);
      // Drawn as Ω[a, x_0, x_k]; a stack contracts it into its top layer over x_0 and so takes
      // each column's matrix transposed, Ω[a, x_k, x_0] (the same numbers on every backend).
      if (k_ > 1 && up > 1 && down > 1) {
        std::vector<T> column(ud);
        for (std::size_t a = 0; a < columns; ++a) {
          T* om = all.data() + a * ud;
          for (std::size_t x = 0; x < up; ++x)
            for (std::size_t y = 0; y < down; ++y) column[y * up + x] = om[x * down + y];
          std::copy(column.begin(), column.end(), om);
        }
      }
      for (auto& sl : b.slices)
        sl.omega.push_back(adopt(std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(sl.first * ud),
                                                all.begin() + static_cast<std::ptrdiff_t>((sl.first + sl.columns) * ud)),
                                 "sketch", j, sl.device));
    }
    const std::size_t id = blocks_.size();
    std::vector<Buffer<T>> env;
    for (auto& sl : b.slices)
      env.push_back(adopt(std::vector<T>(sl.columns, T(1)), "environment", 0, sl.device));
    // One uniform rescaling of each C_{j+1} (all slices alike) to norm √columns: it leaves the
    // sketched range and the scale-free leave-one-out estimator unchanged and keeps long trains
    // away from overflow and underflow (most of all in float32). The factor is applied by the
    // next step's threads to the columns they are about to read (one pass less over C).
    real_t<T> pending = 1;
    // Each step's output is allocated one step early and its pages are faulted in by threads
    // that would otherwise wait (Kernels::warm): while memory only grows, that moves the
    // allocation, not the peak, so not while the plan still spills environments.
    std::vector<Buffer<T>> ahead(b.slices.size());
    WarmingStop stop_warming;
    for (const auto& sl : b.slices) stop_warming.kernels.push_back(&ctx(sl.device).K);
    for (std::size_t j = 0; j < last; ++j) {
      check_interrupt_();
      const auto t0 = Clock::now();
      // Every slice on its own device, concurrently; the sites at j are fetched once first
      // (the threads only read them).
      const std::size_t ns = b.slices.size();
      std::vector<Buffer<T>> next(ns);
      std::vector<double> norms(ns, 0.0);
      feed_->site(0, j);
      if (j + 1 < last) feed_->site(0, j + 1);  // read ahead: the threads upload its forms early
      devices_.run_side_by_side(ns, [&](std::size_t i) {
        try {
          const auto& sl = b.slices[i];
          Kernels<T>& k = ctx(sl.device).K;
          Buffer<T> out = std::exchange(ahead[i], Buffer<T>());
          if (out.data() == nullptr) out = k.allocate(sl.columns * st_.fused_right(j));
          // Memory only grows once C_{j+1} stays in memory (the newest environments are the
          // ones kept there).
          const bool kept = plan_ == nullptr || plan_->tier(j + 1) == Tier::kMemory;
          if (j + 1 < last && !k.moves_data() && kept) {
            ahead[i] = k.allocate(sl.columns * st_.fused_right(j + 1));
            k.warm(ahead[i].data(), ahead[i].size());
          } else {
            k.warm(nullptr, 0);
          }
          next[i] = advance_left(j, sl.columns, env[i], pending, sl.omega[j], norms[i],
                                 std::move(out), sl.device);
          if (j + 1 < last)
            feed_->upload_ahead(j + 1, [this](std::size_t layer) { return feed_->left_form(layer); },
                                sl.device);
        } catch (const std::bad_alloc&) {
          throw out_of_memory("left sweep", j);
        }
      });
      const double total = scaled_norm(norms.data(), norms.size());
      if (!std::isfinite(total))
        throw NumericalError("left sweep, site " + std::to_string(j) +
                             ": sketched environment is not finite");
      pending = static_cast<real_t<T>>(total > 0 ? std::sqrt(static_cast<double>(columns)) / total : 1.0);
      for (std::size_t i = 0; i < b.slices.size(); ++i) {
        // C_j is no longer needed by the left sweep: it waits for the right sweep in its tier.
        ctx(b.slices[i].device).store.put(id, j, std::move(env[i]), b.slices[i].columns, st_.fused_left(j));
        env[i] = std::move(next[i]);
      }
      seconds_[j] += since(t0);
      reporter_.progress("left sweep", j + 1, last);
    }
    for (std::size_t i = 0; i < b.slices.size(); ++i) {
      const auto& sl = b.slices[i];
      if (pending != 1) ctx(sl.device).K.scale(sl.columns * st_.fused_left(last), pending, env[i].data());
      ctx(sl.device).store.put(id, last, std::move(env[i]), sl.columns, st_.fused_left(last));
    }
    devices_.settle_stores();
    blocks_.push_back(std::move(b));
  }

  // C_{j+1} from C_j for `s` sketch columns (see the file comment for the order and layouts),
  // written into `out` (s × fused_right(j) elements) and returned. C_j is first multiplied by
  // `env_scale` (in place, piece by piece, just before its columns are read); `norm` returns
  // ‖C_{j+1}‖, summed from the pieces while they are in cache.
  Buffer<T> advance_left(std::size_t j, std::size_t s, Buffer<T>& env, real_t<T> env_scale,
                         const Buffer<T>& omega, double& norm, Buffer<T> out, std::size_t device) {
    Ctx c = ctx(device);
    const std::size_t nl = st_.fused_left(j), nr = st_.fused_right(j);
    std::vector<Buffer<T>> forms;
    for (std::size_t i = 0; i < k_; ++i)
      forms.push_back(form(i, j, feed_->left_form(i), device));
    const std::size_t ud = st_.up_dim(j) * st_.down_dim(j);
    std::vector<double> norms;
    // Sketch columns are independent: the plan may bound the intermediates by batching them,
    // and the host backend takes each batch in pieces, one thread a piece, each small enough
    // that its intermediates stay in the core's cache — on one thread too (n = 100, N = 50 on
    // one thread: 1.186 → 1.071 s against one piece of all columns). A device takes a batch
    // as one piece.
    const std::size_t batch = left_batch(j, s), threads = c.K.concurrency();
    for (std::size_t a0 = 0; a0 < s; a0 += batch) {
      const std::size_t cols = std::min(batch, s - a0);
      std::size_t piece = cols;
      if (!c.K.moves_data()) {
        piece = per_piece(left_step_column_elements(st_, j) * sizeof(T), cols / threads);
      }
      const std::size_t pieces = (cols + piece - 1) / piece, done = norms.size();
      norms.resize(done + pieces);
      c.K.for_each_task(pieces, [&](std::size_t p) {
        const std::size_t first = a0 + p * piece, count = std::min(piece, a0 + cols - first);
        if (env_scale != 1) c.K.scale(count * nl, env_scale, env.data() + first * nl);
        // The piece's norm comes from its last product, taken as it stores its result.
        norms[done + p] = static_cast<double>(
            k_ == 1 ? left_single(c, j, count, env.data() + first * nl,
                                  omega.data() + first * ud, forms[0], out.data() + first * nr)
                    : left_stack(c, j, count, env.data() + first * nl,
                                 omega.data() + first * ud, forms, out.data() + first * nr));
      });
    }
    norm = scaled_norm(norms.data(), norms.size());  // no overflow or underflow in the squares
    return out;
  }

  // A thread's piece of the left step, or chunk of a right block, aims at this many bytes of
  // intermediates: about half of a core's L2 cache on current x86 servers.
  static constexpr std::size_t kPieceBytes = std::size_t{512} << 10;
  // Units (sketch columns, rows of S) of `unit_bytes` each in such a piece: 1 … max(most, 1).
  static std::size_t per_piece(std::size_t unit_bytes, std::size_t most) {
    return std::clamp<std::size_t>(kPieceBytes / std::max<std::size_t>(unit_bytes, 1), 1,
                                   std::max<std::size_t>(most, 1));
  }

  // A single train: the Khatri–Rao block T[a, x_0, L, x_1] = C[a, L] Ω[a, x_0, x_1] and one GEMM
  // with the site (r | x_0 L x_1), so C_{j+1}[a, R] is a single product over all columns.
  // Returns ‖out‖ (here and in left_stack).
  real_t<T> left_single(Ctx& c, std::size_t j, std::size_t cols, const T* env, const T* omega,
                        const Buffer<T>& site, T* out) {
    const std::size_t l = dim(0, j, kLegL), r = dim(0, j, kLegR), up = dim(0, j, kLegU),
                      dn = dim(0, j, kLegD);
    Buffer<T> kr = c.K.allocate(cols * up * l * dn);
    c.K.khatri_rao(cols, l, up, dn, env, omega, kr.data());
    return c.gemm.with_norm(Op::kNone, Op::kTrans, cols, r, up * l * dn, T(1), kr.data(),
                            up * l * dn, 0, site.data(), up * l * dn, 0, T(0), out, r, 0, 1);
  }

  // A stack of k >= 2 layers, in the order with the fewest multiply-adds:
  //   V[a, x_k, L_0, x_1, R_0] = Ω[a, x_k, x_0] · W_0[x_0, (L_0 x_1 R_0)]     one GEMM, k = x_0
  //   E[a, L_0..L_{k-2}, x_{k-1}, x_k, R_{k-1}] = C[(a L_0..), L_{k-1}] · W_{k-1}   one GEMM
  //   layers k-2 … 1 absorbed into E, contracting (L_i, x_{i+1})      batched, one W shared
  //   C_{j+1}[a, R_0, R_1..] = V_a[(x_k L_0 x_1), R_0]ᵀ · E_a[(x_k L_0 x_1), R_1..]   per column
  // For an MPO times an MPS with D = χ = χ̄ = N this is 4 N⁴ + 4 N³ multiply-adds per site, where
  // contracting the Khatri–Rao block C ⊙ Ω through the layers takes 6 N⁴.
  real_t<T> left_stack(Ctx& c, std::size_t j, std::size_t cols, const T* env, const T* omega,
                       const std::vector<Buffer<T>>& forms, T* out) {
    const std::size_t x0 = st_.up_dim(j), xk = st_.down_dim(j), nl = st_.fused_left(j),
                      nr = st_.fused_right(j);
    const std::size_t l0 = dim(0, j, kLegL), r0 = dim(0, j, kLegR), x1 = dim(0, j, kLegD);
    const std::size_t bottom = k_ - 1, lb = dim(bottom, j, kLegL);
    const std::size_t v_cols = l0 * x1 * r0;
    Buffer<T> v = c.K.allocate(cols * xk * v_cols);
    c.gemm(Op::kNone, Op::kNone, cols * xk, v_cols, x0, T(1), omega, x0, forms[0].data(), v_cols,
           T(0), v.data(), v_cols);
    // E: rows (a, L_0 … L_{k-2}), columns (x_{k-1}, x_k, R_{k-1}).
    std::size_t lead = cols * (nl / lb);
    std::size_t trailing = xk * dim(bottom, j, kLegR);
    const std::size_t e_cols = dim(bottom, j, kLegU) * trailing;
    Buffer<T> e = c.K.allocate(lead * e_cols);
    c.gemm(Op::kNone, Op::kNone, lead, e_cols, lb, T(1), env, lb, forms[bottom].data(), e_cols,
           T(0), e.data(), e_cols);
    for (std::size_t i = bottom; i-- > 1;) {
      const std::size_t l = dim(i, j, kLegL), r = dim(i, j, kLegR), up = dim(i, j, kLegU),
                        dn = dim(i, j, kLegD);
      lead /= l;
      Buffer<T> next = c.K.allocate(lead * up * r * trailing);
      c.gemm(Op::kNone, Op::kNone, up * r, trailing, l * dn, T(1), forms[i].data(), l * dn, 0,
             e.data(), trailing, l * dn * trailing, T(0), next.data(), trailing,
             up * r * trailing, lead);
      e = std::move(next);
      trailing *= r;
    }
    // E is [a, L_0, x_1, R_1 … R_{k-2}, x_k, R_{k-1}]: x_k goes in front of L_0, next to the
    // rows of V_a (a move of whole R_{k-1} runs; nothing to move for an MPS at the bottom).
    const std::size_t contracted = xk * l0 * x1, rest = nr / r0;
    if (xk > 1) {
      Buffer<T> moved = c.K.allocate(cols * contracted * rest);
      c.K.swap_axes(cols, l0 * x1 * (trailing / (xk * dim(bottom, j, kLegR))), 1, xk,
                    dim(bottom, j, kLegR), e.data(), moved.data());
      e = std::move(moved);
    }
    return c.gemm.with_norm(Op::kTrans, Op::kNone, r0, rest, contracted, T(1), v.data(), r0,
                            contracted * r0, e.data(), rest, contracted * rest, T(0), out, rest,
                            nr, cols);
  }

  // Z'[(b, x_0, x_k), L] for site j from S[b, R] (see the file comment): the layers are absorbed
  // bottom first, so the largest contraction (the top layer, contracting (R_0, x_1)) meets the
  // smaller operand. Rows b of S give rows b of Z' and nothing else, so the host backend takes
  // them in cache-sized chunks, each thread an equal range of rows chunk by chunk: a chunk's
  // intermediates (the bottom layer's product above all) stay in its cache for the next layer,
  // instead of going out to memory as one array of all rows and coming back. A device takes
  // all rows at once. Given `norm`, it also returns ‖Z'‖, from the chunks' norms (which their
  // last products take as they store the rows).
  Buffer<T> right_block(std::size_t j, const Buffer<T>& s_env, std::size_t b,
                        double* norm = nullptr) {
    std::vector<Buffer<T>> w;
    for (std::size_t i = 0; i < k_; ++i) w.push_back(form(i, j, feed_->right_form(i)));
    const std::size_t row_in = st_.fused_right(j);
    const std::size_t row_out = st_.up_dim(j) * st_.fused_left(j) * st_.down_dim(j);
    Buffer<T> z = K_.allocate(b * row_out);
    if (norm != nullptr) *norm = 0;
    if (b == 0) return z;
    const std::size_t tasks = K_.moves_data() ? 1 : std::clamp<std::size_t>(K_.concurrency(), 1, b);
    std::size_t chunk = b;
    if (!K_.moves_data()) {
      const std::size_t bottom = k_ - 1;
      // A row's bottom-layer product and its rows of Z'.
      const std::size_t row_elements = (row_in / dim(bottom, j, kLegR)) * dim(bottom, j, kLegU) *
                                           dim(bottom, j, kLegL) * dim(bottom, j, kLegD) +
                                       row_out;
      chunk = per_piece(row_elements * sizeof(T), b);
    }
    // Chunk c's norm at norms[c]: task t numbers its chunks from t·per_task (a task has at most
    // ⌈b / tasks⌉ rows); slots a task does not use stay 0.
    const std::size_t per_task = ((b + tasks - 1) / tasks + chunk - 1) / chunk;
    std::vector<double> norms(tasks * per_task, 0.0);
    K_.for_each_task(tasks, [&](std::size_t t) {
      const std::size_t first = b * t / tasks, last = b * (t + 1) / tasks;
      for (std::size_t b0 = first, c = t * per_task; b0 < last; b0 += chunk, ++c) {
        const std::size_t count = std::min(chunk, last - b0);
        norms[c] = static_cast<double>(
            right_rows(j, w, s_env.data() + b0 * row_in, count, z.data() + b0 * row_out));
      }
    });
    if (norm != nullptr) *norm = scaled_norm(norms.data(), norms.size());
    return z;
  }

  // right_block for `count` rows of S (at s), written to `out` (count rows of Z'); returns their
  // norm, taken by the last product as it stores them (moving the down leg keeps it).
  real_t<T> right_rows(std::size_t j, const std::vector<Buffer<T>>& w, const T* s,
                       std::size_t count, T* out) {
    const std::size_t bottom = k_ - 1;
    const std::size_t lb = dim(bottom, j, kLegL), rb = dim(bottom, j, kLegR),
                      ub = dim(bottom, j, kLegU), db = dim(bottom, j, kLegD);
    const std::size_t u = st_.up_dim(j), dd = st_.down_dim(j), nl = st_.fused_left(j);
    // The down leg moves next to x_0 at the end, unless that is a free reshape.
    const bool move_down = dd > 1 && nl > 1;
    // Bottom layer: one GEMM over all the chunk's rows (b, R_0 … R_{k-2}) of S.
    std::size_t lead = count * (st_.fused_right(j) / rb);
    std::size_t trailing = lb * db;  // the axes after the next contracted pair
    Buffer<T> cur;
    T* cur_data = out;  // the last product writes straight into `out`
    if (bottom > 0 || move_down) {
      cur = K_.allocate(lead * ub * trailing);
      cur_data = cur.data();
    }
    // Only the last product, which writes Z', takes the norm.
    real_t<T> norm = gemm_.product(bottom == 0, Op::kNone, Op::kNone, lead, ub * trailing, rb,
                                   T(1), s, rb, 0, w[bottom].data(), ub * trailing, 0, T(0),
                                   cur_data, ub * trailing, 0, 1);
    // Layers above: [lead, R_i, x_{i+1}, trailing] → [lead, x_i, L_i, trailing], W_i shared.
    for (std::size_t i = bottom; i-- > 0;) {
      const std::size_t l = dim(i, j, kLegL), r = dim(i, j, kLegR), up = dim(i, j, kLegU),
                        dn = dim(i, j, kLegD);
      lead /= r;
      Buffer<T> next;
      T* next_data = out;
      if (i > 0 || move_down) {
        next = K_.allocate(lead * up * l * trailing);
        next_data = next.data();
      }
      norm = gemm_.product(i == 0, Op::kNone, Op::kNone, up * l, trailing, r * dn, T(1),
                           w[i].data(), r * dn, 0, cur_data, trailing, r * dn * trailing, T(0),
                           next_data, trailing, up * l * trailing, lead);
      cur = std::move(next);
      cur_data = next_data;
      trailing *= l;
    }
    if (move_down) K_.swap_axes(count * u, nl, 1, dd, 1, cur_data, out);
    return norm;
  }

  // Y = C_j Z'ᵀ for the first `cols` columns of a block: column-major rows × cols. C_j comes
  // from its tier in row batches.
  Buffer<T> sketch(std::size_t block, std::size_t j, std::size_t cols, const Buffer<T>& z,
                   std::size_t rows, std::size_t nl) {
    Buffer<T> y = K_.allocate(cols * rows);
    std::vector<T> z_host;  // Z' for the other devices, fetched once
    for (const auto& sl : blocks_[block].slices) {
      if (sl.first >= cols) break;
      const std::size_t take = std::min(sl.columns, cols - sl.first);
      if (sl.device == 0) {
        store_.for_rows(block, j, take, right_batch(j, take),
                        [&](const T* env, std::size_t a0, std::size_t count) {
                          gemm_(Op::kNone, Op::kTrans, count, rows, nl, T(1), env, nl, z.data(),
                                nl, T(0), y.data() + (sl.first + a0) * rows, rows);
                        });
        continue;
      }
      // Another device: Z' goes there, its rows of Y come back to device 0.
      Ctx c = ctx(sl.device);
      if (z_host.empty()) z_host = download(z, rows * nl, "right block", j);
      Buffer<T> zd = adopt(std::vector<T>(z_host), "right block", j, sl.device);
      Buffer<T> yd = c.K.allocate(take * rows);
      c.store.for_rows(block, j, take, right_batch(j, take),
                       [&](const T* env, std::size_t a0, std::size_t count) {
                         c.gemm(Op::kNone, Op::kTrans, count, rows, nl, T(1), env, nl, zd.data(),
                                nl, T(0), yd.data() + a0 * rows, rows);
                       });
      Buffer<T> back = adopt(download(yd, take * rows, "sketch", j, sl.device), "sketch", j);
      K_.copy(take * rows, back.data(), y.data() + sl.first * rows);
    }
    return y;
  }

  // Device d → host copy (a logged device move where the backend copies).
  std::vector<T> download(const Buffer<T>& b, std::size_t n, const std::string& what,
                          std::size_t j, std::size_t d = 0) {
    return ctx(d).mover.down(b, n, what, static_cast<std::int64_t>(j));
  }

  // Grows the range of cut j's sketch: all of block 0 in fixed mode; blocks until the
  // leave-one-out estimate meets the tolerance (or the cap) in tolerance mode.
  RangeEstimate find_range(RangeFinder<T>& finder, std::size_t j, const Buffer<T>& z,
                           std::size_t rows, std::size_t cap) {
    const std::size_t nl = st_.fused_left(j);
    // With as many columns as rows, or as the largest rank the cut can have (bounds_), the
    // sketch spans the whole range: exact, whatever the leave-one-out formula says.
    const std::size_t exact = std::min(rows, bounds_[j]);
    if (!opt_.tolerance_mode()) {
      const std::size_t take = std::min(blocks_[0].columns, cap);
      finder.add(sketch(0, j, take, z, rows, nl), take);
      RangeEstimate e = finder.estimate();
      if (finder.columns() >= exact) e.error = 0;
      return e;
    }
    // The truncation sweep that follows truncates at tol (paper Appendix C).
    const double target = kSketchTolFraction * opt_.tol;
    RangeEstimate e;
    for (std::size_t b = 0; finder.columns() < cap && !finder.exhausted(); ++b) {
      if (b == blocks_.size()) new_block(b == 0 ? opt_.block_start : opt_.block_step, j);
      const std::size_t take = std::min(blocks_[b].columns, cap - finder.columns());
      finder.add(sketch(b, j, take, z, rows, nl), take);
      e = finder.estimate();
      if (finder.columns() >= exact) e.error = 0;
      if (e.error <= target * e.norm) return e;
    }
    if (e.error > target * e.norm) {
      ++capped_;
      reporter_.warning("cut " + std::to_string(j - 1) + "|" + std::to_string(j) +
                        ": sketch stopped at its cap of " + std::to_string(finder.columns()) +
                        " columns (--chi) with estimated error " + std::to_string(e.error / e.norm) +
                        " > tolerance " + std::to_string(target));
    }
    return e;
  }

  // The error a failed allocation becomes: it names the step and the site.
  static ResourceError out_of_memory(const char* step, std::size_t j) {
    return ResourceError(std::string(step) + ", site " + std::to_string(j) +
                         ": out of memory (give a --host-memory or --gpu-memory the machine "
                         "really has, so that the plan spills environments instead)");
  }

  void right_sweep(SweepResult<T>& out) {
    try {
      right_sweep_sites(out);
    } catch (const std::bad_alloc&) {
      throw out_of_memory("right sweep", right_site_);
    }
  }

  void right_sweep_sites(SweepResult<T>& out) {
    double log_scale = 0;  // log of the factor taken out of S (see below)
    std::size_t b = 1;
    Buffer<T> s_env = adopt(std::vector<T>(1, T(1)), "environment", n_ - 1);
    const bool final_truncation = opt_.final_truncation();
    // The bond kept by the sweep itself: χ̄ unless a final truncation follows (then the whole
    // sketch is kept and the truncation sweep applies χ̄, cutoff and tol).
    const std::size_t rank_cap = final_truncation ? 0 : opt_.chi;
    const double cutoff = final_truncation ? 0.0 : opt_.cutoff;
    for (std::size_t j = n_; j-- > 0;) {
      check_interrupt_();
      right_site_ = j;
      const auto t0 = Clock::now();
      const std::size_t u = st_.up_dim(j), dd = st_.down_dim(j), nl = st_.fused_left(j);
      const std::size_t rows = b * u * dd;
      double z_norm = 0;
      Buffer<T> z = right_block(j, s_env, b, &z_norm);
      if (j == 0) {
        out.cores[0] = fetch_core(z, {1, b, u, dd}, 0);
        apply_log_scale(out.cores[0], log_scale);
        seconds_[0] += since(t0);
        reporter_.progress("right sweep", n_, n_);
        break;
      }
      // Beyond min(rows, the largest rank of the cut) columns the sketch is exact; --chi caps
      // it too.
      std::size_t cap = std::min(rows, bounds_[j]);
      if (opt_.sketch_columns() > 0) cap = std::min(cap, opt_.sketch_columns());
      const std::size_t max_cols = opt_.tolerance_mode() ? cap : std::min(cap, blocks_[0].columns);
      RangeFinder<T> finder(mover_, gemm_, rows, max_cols, static_cast<std::int64_t>(j));
      const RangeEstimate est = find_range(finder, j, z, rows, cap);
      // The next site's forms go up while the device works on this core and S. Not earlier: in
      // tolerance mode find_range may run a left sweep, whose own window they would add to.
      feed_->upload_ahead(j - 1, [this](std::size_t layer) { return feed_->right_form(layer); }, 0);
      std::size_t rank = 0;
      Buffer<T> core = finder.core(rank_cap, cutoff, 0.0, rank, opt_.numerical_zeros && !final_truncation);
      // S ← conj(η_j) · Z' / ‖Z'‖. S carries the norm of everything to its right, which shrinks
      // or grows geometrically along the train: it is kept at norm at most 1 (η_j has
      // orthonormal rows), with the logarithm of the scale on the side, so that float32 runs
      // neither underflow nor overflow midway (Q does not depend on it). ‖Z'‖ came with Z';
      // the factor rides on the product's alpha, with no pass over S of its own.
      T alpha(1);
      if (z_norm > 0 && std::isfinite(z_norm)) {
        alpha = T(static_cast<real_t<T>>(1.0 / z_norm));
        log_scale += std::log(z_norm);
      }
      Buffer<T> conj_core = K_.allocate(rank * rows);
      K_.conj(rank * rows, core.data(), conj_core.data());
      Buffer<T> next = K_.allocate(rank * nl);
      gemm_(Op::kNone, Op::kNone, rank, nl, rows, alpha, conj_core.data(), rows, z.data(), nl,
            T(0), next.data(), nl);
      out.cores[j] = fetch_core(core, {rank, b, u, dd}, j);
      auto& stats = out.sites[j];
      stats.sketch_columns = static_cast<std::int64_t>(finder.columns());
      stats.norm_estimate = est.norm;
      stats.error_estimate = est.norm > 0 ? est.error / est.norm : 0.0;
      s_env = std::move(next);
      for (std::size_t blk = 0; blk < blocks_.size(); ++blk) devices_.release(blk, j);
      b = rank;
      seconds_[j] += since(t0);
      reporter_.progress("right sweep", n_ - j, n_);
    }
  }

  // Oversampled runs: truncate the right-canonical result to χ̄ / cutoff / tol.
  void final_truncation(SweepResult<T>& out) {
    const auto t0 = Clock::now();
    const auto discarded =
        truncate_train(out.cores, opt_.chi, opt_.cutoff, opt_.tol, mover_, gemm_, opt_.numerical_zeros);
    for (std::size_t j = 0; j < discarded.size(); ++j) {
      // The estimate of cut j (stored at site j+1) now also holds what the truncation removed.
      auto& s = out.sites[j + 1];
      s.truncation_error = discarded[j];
      const double e = std::isfinite(s.error_estimate) ? s.error_estimate : 0.0;
      s.error_estimate = std::sqrt(e * e + discarded[j] * discarded[j]);
    }
    seconds_[0] += since(t0);
    reporter_.progress("truncation sweep", 1, 1);
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
    const std::size_t rank = truncation_rank(
        sigma, effective_cutoff<real_t<T>>(opt_.cutoff, opt_.numerical_zeros), opt_.tol, opt_.chi);
    double total = 0;
    for (auto s : sigma) total += static_cast<double>(s) * static_cast<double>(s);
    Tensor<T> uh = fetch_core(uf, {m, kk}, 0), vh = fetch_core(vt, {n, kk}, 1);
    Tensor<T> c0({1, rank, u0, d0}), c1({rank, 1, u1, d1});
    for (std::size_t i = 0; i < rank; ++i) {
      for (std::size_t q = 0; q < m; ++q) c0.data[i * m + q] = uh.data[i * m + q] * sigma[i];
      for (std::size_t c = 0; c < n; ++c) c1.data[i * n + c] = vh.data[c * kk + i];
    }
    out.cores[0] = std::move(c0);
    out.cores[1] = std::move(c1);
    // Exact: the error is what the truncation removed.
    out.sites[1].truncation_error = total > 0 ? discarded_norm(sigma, rank) / std::sqrt(total) : 0;
    out.sites[1].error_estimate = out.sites[1].truncation_error;
    out.sites[1].norm_estimate = std::sqrt(total);
    seconds_[0] = seconds_[1] = since(t0) / 2;
    reporter_.progress("right sweep", 2, 2);
  }

  const Stack& st_;
  SweepOptions opt_;
  const Plan* plan_;
  Devices<T> devices_;
  // Device 0, which does everything but the other devices' slices of the sketch.
  Kernels<T>& K_;
  CountingGemm<T>& gemm_;
  Mover<T>& mover_;
  EnvStore<T>& store_;
  TransferLog& log_;
  Reporter& reporter_;
  const std::function<void()>& check_interrupt_;
  std::size_t n_, k_;
  std::vector<std::size_t> bounds_;  // the largest rank of each cut (Stack::bond_bounds)
  std::unique_ptr<SiteFeed<T>> feed_;  // after the devices: it sends to each of them
  std::vector<Block> blocks_;
  std::vector<double> seconds_;
  std::int64_t capped_ = 0;
  std::size_t right_site_ = 0;  // the right sweep's current site (for error messages)
};

}  // namespace

template <class T>
SweepResult<T> run_sweep(const Stack& stack, SiteSource<T>& source, const SweepOptions& options,
                         Backend& backend, TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt, const Plan* plan,
                         const std::vector<Backend*>& more_devices) {
  validate(options);
  validate_stack(stack);
  if (stack.length() < 2)
    throw InputError(stack.layers.front().where() +
                     ": a train of one site has no bond to compress (need at least 2 sites)");
  return Sweeper<T>(stack, source, options, backend, log, reporter, check_interrupt, plan,
                    more_devices)
      .run();
}

template <class T>
SweepResult<T> run_sweep(const StackData<T>& data, const SweepOptions& options, Backend& backend,
                         TransferLog& log, Reporter& reporter,
                         const std::function<void()>& check_interrupt, const Plan* plan) {
  MemorySiteSource<T> source(data.sites);
  return run_sweep(data.stack, source, options, backend, log, reporter, check_interrupt, plan);
}

#define SRCC_INSTANTIATE(T)                                                                 \
  template SweepResult<T> run_sweep(const Stack&, SiteSource<T>&, const SweepOptions&,      \
                                    Backend&, TransferLog&, Reporter&,                      \
                                    const std::function<void()>&, const Plan*,               \
                                    const std::vector<Backend*>&);                           \
  template SweepResult<T> run_sweep(const StackData<T>&, const SweepOptions&, Backend&,     \
                                    TransferLog&, Reporter&, const std::function<void()>&, \
                                    const Plan*);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

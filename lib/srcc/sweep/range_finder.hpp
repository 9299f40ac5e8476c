#pragma once
// The orthonormal range of one cut's sketch Y, grown block by block (the paper's Appendix C):
// appending columns Y' updates the QR factorisation instead of recomputing it,
//   R' = Q* Y',  Y' − Q R' = Q'' R'',  Q ← [Q Q''],  R ← [[R, R'], [0, R'']],
// and the leave-one-out estimator of the error of the current range is read off R.
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/backend/counting_gemm.hpp"
#include "srcc/movement/mover.hpp"

namespace srcc {

struct RangeEstimate {
  double error = 0;  // leave-one-out estimate of ‖(I − QQ*)A‖_F (0 when the range is exact)
  double norm = 0;   // estimate of ‖A‖_F from ‖R‖_F / √s
};

template <class T> class RangeFinder {
 public:
  // `rows` is the height of Y; at most `max_columns` columns will be added in all. The small
  // factors it reads on the host move through `mover`, logged under `site`.
  RangeFinder(Mover<T>& mover, CountingGemm<T>& gemm, std::size_t rows, std::size_t max_columns,
              std::int64_t site = -1);

  // Appends `b` sketch columns, column-major rows × b (consumed). After the first block, a
  // block must not take the range past `rows` columns.
  void add(Buffer<T> y, std::size_t b);

  std::size_t columns() const { return s_; }  // sketch columns so far
  std::size_t rank() const { return k_; }     // columns of Q
  bool exhausted() const { return k_ == rows_; }  // Q spans every row: exact
  RangeEstimate estimate();

  // The output core as a (rank × rows) row-major block: Q itself, or Q · U[:, :rank] with U
  // from the SVD of R when a truncation rule (cap, cutoff, tol) removes columns. With
  // `numerical_zeros`, directions at rounding level go too (truncation.hpp): R's diagonal says
  // when there may be any (a sketch of a rank-r product has |R_ii| at rounding level from the
  // r-th column on), and only then is the SVD taken.
  Buffer<T> core(std::size_t cap, double cutoff, double tol, std::size_t& rank_out,
                 bool numerical_zeros = false);

 private:
  Buffer<T> up(std::vector<T>&& host) { return mover_.up(std::move(host), "range factor", site_); }
  std::vector<T> down(const Buffer<T>& b, std::size_t n) {
    return mover_.down(b, n, "range factor", site_);
  }

  Mover<T>& mover_;
  Kernels<T>& K_;
  CountingGemm<T>& gemm_;
  std::size_t rows_, max_;
  std::int64_t site_;
  std::size_t s_ = 0, k_ = 0;
  Buffer<T> q_;            // column-major rows × max(k)
  std::vector<T> r_;       // host, column-major, ld = max_columns: k × s upper part used
};

}  // namespace srcc

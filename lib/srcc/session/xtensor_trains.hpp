#pragma once
// Trains as xtensor arrays, for a C++ program that links the library (srcc::srcc, srcc.pc):
// read a train of any format the program reads, apply MPOs or compress in memory with the SRC
// sweep, write a train in our format. Site j is an xt::xarray<T> of shape (l, r, u, d) for an
// MPO and (l, r, u) for an MPS: the order the sweep works in (docs/FORMAT.md), whatever order
// the file stores. The sweep itself works on the library's contiguous row-major buffers
// (core/tensor.hpp), so the arrays are copied in and out once per site; `view_of` looks at a
// library tensor through xtensor without a copy.
#include <string>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>

#include "srcc/core/tensor.hpp"
#include "srcc/plan/sweep_options.hpp"
#include "srcc/session/execution.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

template <class T> using XTrain = std::vector<xt::xarray<T>>;

// An xtensor view of t's elements with t's shape, valid while t lives and keeps its size.
template <class T> auto view_of(Tensor<T>& t) {
  return xt::adapt(t.data.data(), t.size(), xt::no_ownership(), t.shape);
}
template <class T> auto view_of(const Tensor<T>& t) {
  return xt::adapt(t.data.data(), t.size(), xt::no_ownership(), t.shape);
}
// The elements of any xtensor expression, row-major, as a library tensor.
template <class T, class E> Tensor<T> tensor_of(const xt::xexpression<E>& e) {
  const xt::xarray<T, xt::layout_type::row_major> a = e.derived_cast();
  Tensor<T> t(Shape(a.shape().begin(), a.shape().end()));
  std::copy(a.begin(), a.end(), t.data.begin());
  return t;
}

// The train at FILE:GROUP (GROUP "" = the file's only train; any format `apply` reads), in
// type T: every site checked as a run checks it (finite values, bonds that match). Complex
// values are never read into a real T (InputError). `kind`, when given, receives MPS or MPO.
template <class T>
XTrain<T> read_xtrain(const std::string& file, const std::string& group = "",
                      TrainKind* kind = nullptr);

// The compressed product operators[0] · … · operators[k-1] · bottom (operators top first; the
// bottom an MPS of rank-3 sites or an MPO), or `bottom` alone compressed when there are no
// operators, with `options` (method, χ̄, cutoff, oversampling, tolerance, seed), planned and run
// as apply plans and runs it: within `exec`'s budgets (environments spilled to its scratch
// directory where they do not fit), on its threads and device (of several GPUs, the first). The result is right-canonical,
// its norm in site 0. Throws UsageError for options out of range, InputError for trains that do
// not fit together, ResourceError when even the smallest plan does not fit.
template <class T>
XTrain<T> apply_xtrains(const std::vector<XTrain<T>>& operators, const XTrain<T>& bottom,
                        const SweepOptions& options, const Execution& exec = {});

// A new file at `path` holding `train` at `group` ("/result" if empty) in our format (readable
// by every subcommand); an existing file is replaced only with `force` (OutputError).
template <class T>
void write_xtrain(const std::string& path, const XTrain<T>& train, const std::string& group = "",
                  bool force = false);

}  // namespace srcc

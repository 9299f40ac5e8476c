#pragma once
// The plan of a run: what will be computed and what it will need, from the trains' shapes and
// the options alone (no tensor data). Pure: the same inputs give the same plan.
#include <cstddef>
#include <string>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/sweep/sweep_options.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct Plan {
  std::size_t sites = 0;
  std::size_t depth = 0;            // trains in the stack
  TrainKind result_kind = TrainKind::kMps;
  DType dtype = DType::kFloat64;    // working element type
  SweepOptions sweep;
  std::size_t sketch_columns = 0;   // s
  bool exact_two_site = false;      // n = 2: contraction and one SVD, no sketch
  std::string device = "cpu";
  int threads = 0;                  // BLAS threads (0 = library default)
  std::size_t input_bytes = 0;      // all input sites in the working type
  std::size_t environment_bytes = 0;   // all sketched left environments held at once
  std::size_t largest_block_bytes = 0; // largest intermediate of one contraction step
  std::size_t peak_bytes = 0;       // predicted peak of tensor memory

  std::string to_json() const;
  std::string to_text() const;      // human-readable, several lines
};

Plan make_plan(const Stack& stack, const SweepOptions& sweep, DType dtype, int threads);

}  // namespace srcc

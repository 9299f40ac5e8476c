#pragma once
// Per-site statistics of a sweep (/log/sites in the output).
#include <cstdint>
#include <limits>

namespace srcc {

struct SiteStats {
  std::int64_t site = 0;
  std::int64_t bond_left = 1;       // output bond to the left of the site
  std::int64_t bond_right = 1;      // output bond to the right of the site
  // The cut between this site and its left neighbour (site 0 has none):
  std::int64_t sketch_columns = 0;  // sketch size s used (0: exact two-site path, no sketch)
  double error_estimate = std::numeric_limits<double>::quiet_NaN();  // relative, where known
  double norm_estimate = std::numeric_limits<double>::quiet_NaN();
  // Relative Frobenius norm removed by the final SVD truncation at this cut (0 where none).
  double truncation_error = 0.0;
  double seconds = 0.0;             // wall time spent on this site in both sweeps
};

}  // namespace srcc

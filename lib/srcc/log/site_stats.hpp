#pragma once
// Per-site statistics of a sweep (/log/sites in the output).
#include <cstdint>
#include <limits>

namespace srcc {

struct SiteStats {
  std::int64_t site = 0;
  std::int64_t bond_left = 1;       // output bond to the left of the site
  std::int64_t bond_right = 1;      // output bond to the right of the site
  std::int64_t sketch_columns = 0;  // sketch size s used at this site's cut (0: exact, no sketch)
  double error_estimate = std::numeric_limits<double>::quiet_NaN();  // relative, where known
  double norm_estimate = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0.0;             // wall time spent on this site in both sweeps
};

}  // namespace srcc

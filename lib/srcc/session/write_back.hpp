#pragma once
// Writing a result in the layout of the library its state came from (TeNPy, ITensor), the state's
// file as the template: one of run()'s stages, chaining the template's charges (io/), the
// result's sector form (sweep/) and the writer (io/).
#include <string>
#include <vector>

#include "srcc/backend/backend.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/symmetric/charged_sector_form.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

struct WriteBack {
  std::string group;             // where the result went ("/psi": the template's name)
  double dropped_weight = 0;     // relative weight outside the template's total charge (SectorForm)
  double truncated_weight = 0;   // relative weight the truncations per sector discarded (SectorForm)
};

// Writes `cores` (a run's result: site 0 carrying the norm, the rest right-orthonormal) into
// `out` in `format` (kTenpy or kItensor), on the template train `state` (the run's state input,
// of that format). Throws UsageError when the state is of another format.
// Throws UsageError (before any work) when `format` is another library's and `state` is not
// of that library: its sites are the template.
void check_write_back(TrainFormat format, const TrainInfo& state);

// One "file write" row per site goes to `log`. `cores` is taken (moved in by a caller done with
// it), so that the conversion holds the result once. A result computed on charges (`charged`)
// is brought to the layout's block structure from its blocks, where its charges are the
// template's; `cores` may then be empty (made from the blocks where the template wants them).
template <class T>
WriteBack write_back(ResultWriter& out, TrainFormat format, const TrainInfo& state, TrainKind kind,
                     std::vector<Tensor<T>> cores, Kernels<T>& kernels, TransferLog& log,
                     std::optional<ChargedCores<T>> charged = std::nullopt);

}  // namespace srcc

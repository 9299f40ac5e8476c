#pragma once
// Turns a site as stored (any element type, any leg order, boundary bonds dropped or not) into
// the working type and the internal (l, r, u, d) order, recording each step in the log.
#include "srcc/core/tensor.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/site_boxes.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

template <class T>
Tensor<T> to_internal(AnyTensor stored, const TrainInfo& info, std::size_t site,
                      TransferLog& log);

// The same for a site read as the boxes of its stored blocks (already in the internal order).
template <class T> SiteBoxes<T> boxes_to_internal(AnyBoxes stored, const TrainInfo& info, std::size_t site, TransferLog& log);

}  // namespace srcc

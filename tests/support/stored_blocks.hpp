#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli_runner.hpp"
#include "srcc/backend/cpu/cpu_backend.hpp"
#include "srcc/io/file_site_source.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/symmetric/charged_stack.hpp"

namespace srcc::test {

// A charged run reads a block-sparse file's blocks as they are stored, never forming a dense site:
// each site's boxes (train/site_boxes.hpp) hold exactly the dense site's non-zero part, no two
// overlap, and the block tensors made from them equal, leg for leg and bit for bit, those made
// from the dense sites.
// `every_site`: each site is stored as blocks (else at least one is; the others read dense).
template <class T>
void stored_blocks_match_dense(const std::string& file, const std::string& group, bool every_site = true) {
  SCOPED_TRACE(file + ":" + group);
  TransferLog log;
  TrainReader r(TrainRef{test_data(file), group});
  const TrainInfo& info = r.info();
  std::vector<Tensor<T>> dense;
  std::size_t as_blocks = 0;
  for (std::size_t j = 0; j < info.length(); ++j) {
    dense.push_back(to_internal<T>(r.read_site(j, log), info, j, log));
    auto stored = r.read_site_boxes(j, log);
    if (!stored) {
      EXPECT_FALSE(every_site) << "site " << j;
      continue;
    }
    ++as_blocks;
    const SiteBoxes<T> boxes = boxes_to_internal<T>(std::move(*stored), info, j, log);
    Tensor<T> scattered({boxes.dims[0], boxes.dims[1], boxes.dims[2], boxes.dims[3]});
    std::vector<int> hits(scattered.size(), 0);
    for (const auto& b : boxes.boxes) {
      std::size_t e = 0;
      for (std::size_t l : b.index[kLegL])
        for (std::size_t rr : b.index[kLegR])
          for (std::size_t u : b.index[kLegU])
            for (std::size_t d : b.index[kLegD]) {
              const std::size_t at = ((l * boxes.dims[1] + rr) * boxes.dims[2] + u) * boxes.dims[3] + d;
              scattered.data[at] = b.data[e++];
              ++hits[at];
            }
    }
    EXPECT_EQ(scattered.shape, dense.back().shape) << "site " << j;
    EXPECT_EQ(scattered.data, dense.back().data) << "site " << j;
    EXPECT_EQ(*std::max_element(hits.begin(), hits.end()), 1) << "site " << j << ": boxes overlap";
    if (j == info.length() / 2) EXPECT_LT(boxes.elements(), dense.back().size()) << "only the stored blocks";
  }
  EXPECT_GE(as_blocks, 1u);
  auto charges = train_charges(info);
  ASSERT_TRUE(charges.has_value());
  auto backend = make_cpu_backend(1);
  Kernels<T>& K = backend->kernels<T>();
  const auto from_dense = charged_layer(K, dense, *charges, 0, info.where());
  ReaderSiteSource<T> source(r, log);
  const auto from_boxes = charged_stack(K, source, info.length(), {*charges}, {info.where()}).sites.front();
  ASSERT_EQ(from_boxes.size(), from_dense.size());
  for (std::size_t j = 0; j < from_dense.size(); ++j) {
    const auto& a = from_boxes[j];
    const auto& b = from_dense[j];
    ASSERT_EQ(a.legs.size(), b.legs.size());
    for (std::size_t k = 0; k < a.legs.size(); ++k) {
      EXPECT_EQ(a.legs[k].charges, b.legs[k].charges) << "site " << j << " leg " << k;
      EXPECT_EQ(a.legs[k].dims, b.legs[k].dims) << "site " << j << " leg " << k;
      EXPECT_EQ(a.legs[k].sector_of, b.legs[k].sector_of) << "site " << j << " leg " << k;
    }
    ASSERT_EQ(a.blocks.size(), b.blocks.size()) << "site " << j;
    for (std::size_t i = 0; i < a.blocks.size(); ++i) EXPECT_EQ(a.blocks[i].key, b.blocks[i].key);
    EXPECT_EQ(K.download(a.data, a.elements), K.download(b.data, b.elements)) << "site " << j;
  }
}

}  // namespace srcc::test

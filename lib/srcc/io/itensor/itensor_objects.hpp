#pragma once
// The objects of an ITensor file (ITensorMPS.jl / ITensors.jl HDF5 extensions, and C++ ITensor v3,
// which writes the same layout): Index (id, dim, dir, plev, tags and, with quantum numbers, its
// QN blocks) and ITensor (an IndexSet and a storage: Dense, BlockSparse, Diag or EmptyStorage;
// `store` in files of ITensors ≤ 0.1). An index's identity is (id, plev, tags), never its
// position. Data is column-major over the indices. docs/FORMAT.md describes the format; only code
// under io/ includes this header.
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "srcc/core/dtype.hpp"

namespace srcc::itensor {

// A quantum number: up to four named values, each with a modulus (1: U(1); N > 1: Z_N;
// negative: fermionic; 0: an unused slot).
struct QN {
  std::vector<std::string> names;
  std::vector<long long> vals, mods;
};

struct Index {
  std::uint64_t id = 0;
  long long dim = 0, dir = 0, plev = 0;
  std::string tags;                    // "S=1/2,Site,n=3"
  std::vector<long long> block_dims;   // with QNs: the size of each block, in order
  std::vector<QN> qns;                 // with QNs: each block's quantum number
  bool same_as(const Index& o) const { return id == o.id && plev == o.plev && tags == o.tags; }
  bool has_tag(const std::string& tag) const;
  std::string describe() const;        // "(dim 2, tags S=1/2,Site,n=3, plev 1)" for messages
};

enum class Storage { kDense, kBlockSparse, kDiag, kEmpty };

struct TensorInfo {
  std::string path;            // the ITensor group
  std::vector<Index> inds;
  Storage storage = Storage::kDense;
  std::string storage_path;    // PATH/storage or PATH/store
  DType dtype = DType::kFloat64;
  bool complex_pairs = false;  // C++ ITensor: complex data as interleaved real pairs (__complex__)
  std::size_t elements() const;  // product of the index dims
};

// Reads the ITensor group at `path`: its indices and the kind of its storage (the data is read
// when a site is).
TensorInfo read_tensor_info(hid_t file, const std::string& path, const std::string& where);

// The tensor's values, column-major over its indices (Dense as stored; BlockSparse, Diag and
// Empty made dense exactly), in `out` (elements() values of the tensor's dtype, zeroed by the
// caller). Throws InputError for offsets or sizes that do not fit the indices.
void read_tensor_values(hid_t file, const TensorInfo& t, void* out, const std::string& where);

// A BlockSparse tensor's stored blocks, one call each: per index the block's first index and
// size, and its values (column-major, of the tensor's dtype) in the stored data. Throws as
// read_tensor_values.
using BlockVisitor = std::function<void(const std::vector<std::size_t>& first, const std::vector<std::size_t>& size,
                                        const unsigned char* values)>;
void for_each_block(hid_t file, const TensorInfo& t, const std::string& where, const BlockVisitor& f);

}  // namespace srcc::itensor

#pragma once
// A dense site stored with only its non-zero chunks. A charged state's site is zero outside its
// blocks (four fifths of it for an XXZ ground state at χ = 487), so a site is stored chunked —
// 16 × 16 on its bonds, one index on its physical legs — and only the chunks holding a non-zero
// element are written: HDF5 gives every reader the chunks never written as zeros (the fill
// value), so each reader sees the same dense site, and the file holds about the blocks. Only
// code under io/ includes this header.
#include <hdf5.h>

#include <cstddef>
#include <vector>

namespace srcc::h5 {

inline constexpr hsize_t kSparseChunkEdge = 16;          // along a bond
inline constexpr std::size_t kSparseMinElements = 1 << 15;  // smaller sites stay contiguous

struct ChunkGrid {
  std::vector<hsize_t> dims, chunk, counts;  // the array's, a chunk's, chunks per axis
  std::vector<char> live;                    // per chunk, row-major: holds a non-zero element
  std::size_t live_chunks = 0;
  bool complete = true;                      // false: the scan stopped once sparse storage could not pay
  std::size_t chunks() const { return live.size(); }
};

// The chunks of a row-major array of `dims` (at most 4 axes), kSparseChunkEdge along the axes
// `bond_axes` marks and 1 along the others, and which of them hold a non-zero element — each
// looked at until its first non-zero, and none after more than three quarters are found live.
template <class T> ChunkGrid chunk_grid(const T* data, const std::vector<hsize_t>& dims, const std::vector<bool>& bond_axes);

// Whether storing only the live chunks pays: at most three quarters of them live.
inline bool sparse_pays(const ChunkGrid& g) { return g.complete && 4 * g.live_chunks <= 3 * g.chunks(); }

// Writes the live chunks of `data` (row-major over g.dims, in the file's own type) to `dset`,
// created chunked as g.chunk with no filters; returns the bytes written, or a negative HDF5
// status on failure.
template <class T> long long write_live_chunks(hid_t dset, const T* data, const ChunkGrid& g);

}  // namespace srcc::h5

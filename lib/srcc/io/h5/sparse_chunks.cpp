#include "srcc/io/h5/sparse_chunks.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "srcc/core/tensor.hpp"

namespace srcc::h5 {

namespace {

constexpr std::size_t kMaxAxes = 4;

// The array's axes padded in front to kMaxAxes (extent 1), so that every loop below is four deep.
struct Padded {
  std::array<std::size_t, kMaxAxes> dims{1, 1, 1, 1}, chunk{1, 1, 1, 1}, counts{1, 1, 1, 1};
  explicit Padded(const ChunkGrid& g) {
    const std::size_t lead = kMaxAxes - g.dims.size();
    for (std::size_t a = 0; a < g.dims.size(); ++a) {
      dims[lead + a] = g.dims[a];
      chunk[lead + a] = g.chunk[a];
      counts[lead + a] = g.counts[a];
    }
  }
};

}  // namespace

namespace {

// Whether the box of `n` elements from `lo` (padded axes) holds a non-zero, looked at in order
// until one is found: a dense chunk costs one comparison.
template <class T>
bool any_non_zero(const T* data, const std::array<std::size_t, kMaxAxes>& dims, const std::array<std::size_t, kMaxAxes>& lo,
                  const std::array<std::size_t, kMaxAxes>& n) {
  for (std::size_t i0 = 0; i0 < n[0]; ++i0)
    for (std::size_t i1 = 0; i1 < n[1]; ++i1)
      for (std::size_t i2 = 0; i2 < n[2]; ++i2) {
        const T* row = data + (((lo[0] + i0) * dims[1] + lo[1] + i1) * dims[2] + lo[2] + i2) * dims[3] + lo[3];
        for (std::size_t i3 = 0; i3 < n[3]; ++i3)
          if (row[i3] != T(0)) return true;
      }
  return false;
}

}  // namespace

template <class T>
ChunkGrid chunk_grid(const T* data, const std::vector<hsize_t>& dims, const std::vector<bool>& bond_axes) {
  if (dims.empty() || dims.size() > kMaxAxes) throw std::logic_error("chunk_grid: 1 to 4 axes");
  ChunkGrid g;
  g.dims = dims;
  std::size_t chunks = 1;
  for (std::size_t a = 0; a < dims.size(); ++a) {
    g.chunk.push_back(std::max<hsize_t>(1, bond_axes[a] ? std::min(kSparseChunkEdge, dims[a]) : 1));
    g.counts.push_back((dims[a] + g.chunk[a] - 1) / g.chunk[a]);
    chunks *= g.counts[a];
  }
  g.live.assign(chunks, 0);
  const Padded p(g);
  std::array<std::size_t, kMaxAxes> lo{}, n{};
  std::size_t index = 0;
  for (std::size_t c0 = 0; c0 < p.counts[0]; ++c0)
    for (std::size_t c1 = 0; c1 < p.counts[1]; ++c1)
      for (std::size_t c2 = 0; c2 < p.counts[2]; ++c2)
        for (std::size_t c3 = 0; c3 < p.counts[3]; ++c3, ++index) {
          const std::array<std::size_t, kMaxAxes> c{c0, c1, c2, c3};
          for (std::size_t a = 0; a < kMaxAxes; ++a) {
            lo[a] = c[a] * p.chunk[a];
            n[a] = std::min(p.chunk[a], p.dims[a] - lo[a]);
          }
          if (!any_non_zero(data, p.dims, lo, n)) continue;
          g.live[index] = 1;
          // Past three quarters live, storing the site sparse cannot pay: the rest is not looked at.
          if (4 * ++g.live_chunks > 3 * chunks) {
            g.complete = false;
            return g;
          }
        }
  return g;
}

template <class T> long long write_live_chunks(hid_t dset, const T* data, const ChunkGrid& g) {
  const Padded p(g);
  const std::size_t lead = kMaxAxes - g.dims.size();
  const std::size_t chunk_elements = p.chunk[0] * p.chunk[1] * p.chunk[2] * p.chunk[3];
  std::vector<T> buf(chunk_elements);
  long long written = 0;
  std::array<std::size_t, kMaxAxes> c{};
  for (std::size_t index = 0; index < g.chunks(); ++index) {
    // The chunk's coordinates in the grid, row-major.
    std::size_t rest = index;
    for (std::size_t a = kMaxAxes; a-- > 0;) {
      c[a] = rest % p.counts[a];
      rest /= p.counts[a];
    }
    if (!g.live[index]) continue;
    // Its elements, row-major in the chunk; the part past the array's edge stays zero.
    std::fill(buf.begin(), buf.end(), T(0));
    std::array<std::size_t, kMaxAxes> lo{}, n{};
    for (std::size_t a = 0; a < kMaxAxes; ++a) {
      lo[a] = c[a] * p.chunk[a];
      n[a] = std::min(p.chunk[a], p.dims[a] - lo[a]);
    }
    for (std::size_t i0 = 0; i0 < n[0]; ++i0)
      for (std::size_t i1 = 0; i1 < n[1]; ++i1)
        for (std::size_t i2 = 0; i2 < n[2]; ++i2) {
          const T* from = data + (((lo[0] + i0) * p.dims[1] + lo[1] + i1) * p.dims[2] + lo[2] + i2) * p.dims[3] + lo[3];
          T* to = buf.data() + ((i0 * p.chunk[1] + i1) * p.chunk[2] + i2) * p.chunk[3];
          std::copy(from, from + n[3], to);
        }
    std::vector<hsize_t> offset;
    for (std::size_t a = lead; a < kMaxAxes; ++a) offset.push_back(lo[a]);
    const herr_t status = H5Dwrite_chunk(dset, H5P_DEFAULT, 0, offset.data(), chunk_elements * sizeof(T), buf.data());
    if (status < 0) return status;
    written += static_cast<long long>(chunk_elements * sizeof(T));
  }
  return written;
}

#define SRCC_INSTANTIATE(T)                                                                                     \
  template ChunkGrid chunk_grid(const T*, const std::vector<hsize_t>&, const std::vector<bool>&);               \
  template long long write_live_chunks(hid_t, const T*, const ChunkGrid&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc::h5

#include "srcc/io/h5/sparse_chunks.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "srcc/core/tensor.hpp"

namespace srcc::h5 {

namespace {

constexpr std::size_t kMaxAxes = 4;
using Index = std::array<std::size_t, kMaxAxes>;

// The array's axes padded in front to kMaxAxes (extent 1), so that every loop below is four deep.
struct Padded {
  Index dims{1, 1, 1, 1}, chunk{1, 1, 1, 1}, counts{1, 1, 1, 1};
  explicit Padded(const ChunkGrid& g) {
    const std::size_t lead = kMaxAxes - g.dims.size();
    for (std::size_t a = 0; a < g.dims.size(); ++a) {
      dims[lead + a] = g.dims[a];
      chunk[lead + a] = g.chunk[a];
      counts[lead + a] = g.counts[a];
    }
  }
  // The chunk at grid place c: its first element and its extent within the array.
  void box(const Index& c, Index& lo, Index& n) const {
    for (std::size_t a = 0; a < kMaxAxes; ++a) {
      lo[a] = c[a] * chunk[a];
      n[a] = std::min(chunk[a], dims[a] - lo[a]);
    }
  }
  // Calls row(offset in the array, offset in the chunk) for each run of the box along the last
  // axis (n[3] elements), in order, until row returns false; returns whether all were visited.
  template <class Row> bool rows(const Index& lo, const Index& n, Row row) const {
    for (std::size_t i0 = 0; i0 < n[0]; ++i0)
      for (std::size_t i1 = 0; i1 < n[1]; ++i1)
        for (std::size_t i2 = 0; i2 < n[2]; ++i2)
          if (!row((((lo[0] + i0) * dims[1] + lo[1] + i1) * dims[2] + lo[2] + i2) * dims[3] + lo[3],
                   ((i0 * chunk[1] + i1) * chunk[2] + i2) * chunk[3]))
            return false;
    return true;
  }
};

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
  Index lo{}, n{};
  std::size_t index = 0;
  for (std::size_t c0 = 0; c0 < p.counts[0]; ++c0)
    for (std::size_t c1 = 0; c1 < p.counts[1]; ++c1)
      for (std::size_t c2 = 0; c2 < p.counts[2]; ++c2)
        for (std::size_t c3 = 0; c3 < p.counts[3]; ++c3, ++index) {
          p.box({c0, c1, c2, c3}, lo, n);
          // Looked at until the first non-zero: a dense chunk costs one comparison.
          const bool zero = p.rows(lo, n, [&](std::size_t at, std::size_t) {
            for (std::size_t i = 0; i < n[3]; ++i)
              if (data[at + i] != T(0)) return false;
            return true;
          });
          if (zero) continue;
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
  std::vector<hsize_t> offset(g.dims.size());
  long long written = 0;
  Index c{}, lo{}, n{};
  for (std::size_t index = 0; index < g.chunks(); ++index) {
    if (g.live[index]) {
      // Its elements, row-major in the chunk; the part past the array's edge stays zero.
      p.box(c, lo, n);
      std::fill(buf.begin(), buf.end(), T(0));
      p.rows(lo, n, [&](std::size_t from, std::size_t to) {
        std::copy(data + from, data + from + n[3], buf.data() + to);
        return true;
      });
      for (std::size_t a = lead; a < kMaxAxes; ++a) offset[a - lead] = lo[a];
      const herr_t status = H5Dwrite_chunk(dset, H5P_DEFAULT, 0, offset.data(), chunk_elements * sizeof(T), buf.data());
      if (status < 0) return status;
      written += static_cast<long long>(chunk_elements * sizeof(T));
    }
    for (std::size_t a = kMaxAxes; a-- > 0;) {  // the next place, row-major
      if (++c[a] < p.counts[a]) break;
      c[a] = 0;
    }
  }
  return written;
}

#define SRCC_INSTANTIATE(T)                                                                                     \
  template ChunkGrid chunk_grid(const T*, const std::vector<hsize_t>&, const std::vector<bool>&);               \
  template long long write_live_chunks(hid_t, const T*, const ChunkGrid&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc::h5

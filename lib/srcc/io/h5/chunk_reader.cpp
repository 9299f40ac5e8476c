#include "srcc/io/h5/chunk_reader.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_handle.hpp"

namespace srcc {

namespace {

using h5::Handle;

constexpr int kMaxRank = 32;
// Unfiltered chunked datasets of up to this many stored chunks are read here: a site our writer
// stored sparse (sparse_chunks.hpp) has a few hundred, and reading it here adds to the time of a
// contiguous site half of what HDF5's H5Dread adds (its chunk cache and selections per chunk).
constexpr hsize_t kMostPlainChunks = 4096;

// Inflates `raw` into exactly `chunk.size()` bytes; false for a stream that is damaged, ends
// early or would go on.
bool inflate_exactly(const std::vector<unsigned char>& raw, std::vector<unsigned char>& chunk) {
  z_stream z{};
  z.next_in = const_cast<Bytef*>(raw.data());
  z.avail_in = static_cast<uInt>(raw.size());
  if (inflateInit(&z) != Z_OK) return false;
  z.next_out = chunk.data();
  z.avail_out = static_cast<uInt>(chunk.size());
  const int status = inflate(&z, Z_FINISH);
  const bool ok = status == Z_STREAM_END && z.avail_out == 0;
  inflateEnd(&z);
  return ok;
}

// The inverse of HDF5's shuffle: the file holds the first bytes of every element, then the
// second bytes, and so on.
void unshuffle(std::vector<unsigned char>& chunk, std::size_t element_size) {
  if (element_size <= 1) return;
  const std::size_t n = chunk.size() / element_size;
  std::vector<unsigned char> out(chunk.size());
  for (std::size_t b = 0; b < element_size; ++b)
    for (std::size_t i = 0; i < n; ++i) out[i * element_size + b] = chunk[b * n + i];
  // A tail that is no whole element is stored as it is.
  std::copy(chunk.begin() + static_cast<std::ptrdiff_t>(n * element_size), chunk.end(),
            out.begin() + static_cast<std::ptrdiff_t>(n * element_size));
  chunk.swap(out);
}

// Copies a chunk at `offset` (elements, row-major, chunk dims `cdims`) into the dataset buffer
// (dims `dims`), leaving out what lies beyond the dataset's edge.
void place(const unsigned char* chunk, const hsize_t* offset, const hsize_t* cdims,
           const hsize_t* dims, int rank, std::size_t esize, unsigned char* out) {
  hsize_t idx[kMaxRank] = {0};  // position inside the chunk, last axis excluded
  const hsize_t last = rank - 1;
  if (offset[last] >= dims[last]) return;
  const std::size_t run = static_cast<std::size_t>(std::min(cdims[last], dims[last] - offset[last]));
  for (;;) {
    bool inside = true;
    std::size_t src = 0, dst = 0;
    for (int a = 0; a < rank; ++a) {
      const hsize_t i = a == static_cast<int>(last) ? 0 : idx[a];
      if (offset[a] + i >= dims[a]) inside = false;
      src = src * cdims[a] + i;
      dst = dst * dims[a] + offset[a] + i;
    }
    if (inside) std::memcpy(out + dst * esize, chunk + src * esize, run * esize);
    int a = static_cast<int>(last) - 1;
    for (; a >= 0; --a) {
      if (++idx[a] < cdims[a]) break;
      idx[a] = 0;
    }
    if (a < 0) return;
  }
}

// The dataset's filters when it is chunked and gzip-compressed (none otherwise); throws for a
// filter beside gzip that is not read (only shuffle and fletcher32 are).
std::vector<H5Z_filter_t> deflate_filters(hid_t dcpl, const std::string& where) {
  if (H5Pget_layout(dcpl) != H5D_CHUNKED) return {};
  const int nfilters = H5Pget_nfilters(dcpl);
  std::vector<H5Z_filter_t> filters;
  bool deflated = false;
  for (int i = 0; i < nfilters; ++i) {
    unsigned flags = 0, cd[8];
    std::size_t ncd = 8;
    filters.push_back(H5Pget_filter2(dcpl, static_cast<unsigned>(i), &flags, &ncd, cd, 0, nullptr, nullptr));
    deflated = deflated || filters.back() == H5Z_FILTER_DEFLATE;
  }
  if (!deflated) return {};
  for (const H5Z_filter_t f : filters)
    if (f != H5Z_FILTER_DEFLATE && f != H5Z_FILTER_SHUFFLE && f != H5Z_FILTER_FLETCHER32)
      throw InputError(where + ": gzip together with filter " + std::to_string(f) +
                       " is not read; store it with gzip, shuffle and fletcher32 only");
  return filters;
}

// Every element set to the dataset's fill value (chunks never written hold it), or zero.
void fill(hid_t dcpl, hid_t ftype, std::size_t fsize, std::size_t elements, unsigned char* buf) {
  H5D_fill_value_t fill = H5D_FILL_VALUE_DEFAULT;
  H5Pfill_value_defined(dcpl, &fill);
  if (fill != H5D_FILL_VALUE_USER_DEFINED) return;
  std::vector<unsigned char> one(fsize);
  if (H5Pget_fill_value(dcpl, ftype, one.data()) >= 0)
    for (std::size_t i = 0; i < elements; ++i) std::memcpy(buf + i * fsize, one.data(), fsize);
}

// Chunk c as stored (`raw`) with the filters undone, last applied first (bit i of `read_mask`
// marks filter i as skipped); `chunk` is scratch of chunk_bytes. Throws naming the chunk when it
// does not come out at exactly chunk_bytes.
void unfilter(std::vector<unsigned char>& raw, std::vector<unsigned char>& chunk, const std::vector<H5Z_filter_t>& filters,
              uint32_t read_mask, std::size_t fsize, std::size_t chunk_bytes, hsize_t c, const std::string& where) {
  for (int i = static_cast<int>(filters.size()) - 1; i >= 0; --i) {
    if ((read_mask >> i) & 1u) continue;
    if (filters[static_cast<std::size_t>(i)] == H5Z_FILTER_FLETCHER32) {
      if (raw.size() < 4) throw InputError(where + ": chunk " + std::to_string(c) + " is truncated");
      raw.resize(raw.size() - 4);  // the checksum
    } else if (filters[static_cast<std::size_t>(i)] == H5Z_FILTER_DEFLATE) {
      if (!inflate_exactly(raw, chunk))
        throw InputError(where + ": chunk " + std::to_string(c) + " does not inflate to its declared " +
                         std::to_string(chunk_bytes) + " bytes: damaged or crafted file");
      raw.swap(chunk);
      chunk.assign(chunk_bytes, 0);
    } else {
      unshuffle(raw, fsize);
    }
  }
  if (raw.size() != chunk_bytes)
    throw InputError(where + ": chunk " + std::to_string(c) + " holds " + std::to_string(raw.size()) + " bytes instead of " +
                     std::to_string(chunk_bytes));
}

// The file descriptor behind `dset`'s file where its stored bytes can be read with pread at the
// addresses HDF5 reports (the default sec2 driver, no user block before the HDF5 data); -1
// otherwise.
int raw_descriptor(hid_t dset) {
  Handle file(H5Iget_file_id(dset), H5Fclose);
  if (!file.valid()) return -1;
  Handle fapl(H5Fget_access_plist(file.get()), H5Pclose);
  Handle fcpl(H5Fget_create_plist(file.get()), H5Pclose);
  hsize_t userblock = 0;
  if (!fapl.valid() || !fcpl.valid() || H5Pget_driver(fapl.get()) != H5FD_SEC2 ||
      H5Pget_userblock(fcpl.get(), &userblock) < 0 || userblock != 0)
    return -1;
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file.get(), H5P_DEFAULT, &handle) < 0 || handle == nullptr) return -1;
  return *static_cast<int*>(handle);
}

struct StoredChunk {
  std::size_t index = 0;  // HDF5's, which errors name
  hsize_t offset[kMaxRank];
  unsigned mask = 0;
  haddr_t addr = 0;
  hsize_t size = 0;
};

// Reads the chunks' stored bytes with one pread per run of chunks that lie back to back in the
// file (a writer stores a dataset's chunks in order, so a site is mostly one run), handing each
// chunk's bytes to `take` in file order.
template <class F>
void read_runs(int fd, std::vector<StoredChunk>& chunks, const std::string& where, F&& take) {
  std::sort(chunks.begin(), chunks.end(), [](const StoredChunk& a, const StoredChunk& b) { return a.addr < b.addr; });
  constexpr std::size_t kMostRun = std::size_t{64} << 20;
  std::vector<unsigned char> run;
  for (std::size_t i = 0; i < chunks.size();) {
    std::size_t end = i + 1, bytes = chunks[i].size;
    while (end < chunks.size() && chunks[end].addr == chunks[end - 1].addr + chunks[end - 1].size &&
           bytes + chunks[end].size <= kMostRun)
      bytes += chunks[end++].size;
    run.resize(bytes);
    std::size_t got = 0;
    while (got < bytes) {
      const ssize_t n = pread(fd, run.data() + got, bytes - got, static_cast<off_t>(chunks[i].addr + got));
      if (n <= 0)
        throw InputError(where + ": reading chunk " + std::to_string(chunks[i].index) + " at byte " +
                         std::to_string(chunks[i].addr + got) + " failed (the file ends before its data)");
      got += static_cast<std::size_t>(n);
    }
    for (std::size_t c = i, at = 0; c < end; at += chunks[c].size, ++c) take(chunks[c], run.data() + at);
    i = end;
  }
}

}  // namespace

bool read_chunked(hid_t dset, hid_t mem_type, void* out, const std::string& where) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid()) return false;
  const std::vector<H5Z_filter_t> filters = deflate_filters(dcpl.get(), where);
  const bool plain = filters.empty() && H5Pget_layout(dcpl.get()) == H5D_CHUNKED && H5Pget_nfilters(dcpl.get()) == 0;
  if (filters.empty() && !plain) return false;

  Handle ftype(H5Dget_type(dset), H5Tclose);
  Handle space(H5Dget_space(dset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank <= 0 || rank > kMaxRank || H5Pget_chunk(dcpl.get(), rank, nullptr) != rank)
    throw InputError(where + ": damaged chunk description");
  hsize_t dims[kMaxRank], cdims[kMaxRank];
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  H5Pget_chunk(dcpl.get(), rank, cdims);
  const std::size_t fsize = H5Tget_size(ftype.get()), msize = H5Tget_size(mem_type);
  std::size_t elements = 1, chunk_elements = 1;
  for (int a = 0; a < rank; ++a) {
    elements *= dims[a];
    chunk_elements *= cdims[a];
  }
  const std::size_t chunk_bytes = chunk_elements * fsize;  // bounded by check_storage

  hsize_t nchunks = 0;
  if (H5Dget_num_chunks(dset, space.get(), &nchunks) < 0) throw InputError(where + ": cannot list the dataset's chunks");
  // Chunks are listed by their place in HDF5's index, each found from the first: unfiltered
  // datasets of many chunks go to H5Dread, which gains nothing from reading them here.
  if (plain && nchunks > kMostPlainChunks) return false;
  // The dataset in its file type: in `out` itself where that is the type asked for.
  const bool same = H5Tequal(ftype.get(), mem_type) > 0 && fsize == msize;
  std::vector<unsigned char> own(same ? 0 : elements * std::max(fsize, msize));
  unsigned char* buf = same ? static_cast<unsigned char*>(out) : own.data();
  std::memset(buf, 0, elements * fsize);
  fill(dcpl.get(), ftype.get(), fsize, elements, buf);
  // zlib's output exceeds its input by a few bytes per 16 KiB at worst; a stored chunk beyond
  // that cannot be one chunk's data.
  const std::size_t stored_limit = chunk_bytes + chunk_bytes / 64 + 4096;
  std::vector<unsigned char> raw, chunk(chunk_bytes);
  std::vector<StoredChunk> chunks(static_cast<std::size_t>(nchunks));
  for (hsize_t c = 0; c < nchunks; ++c) {
    StoredChunk& k = chunks[static_cast<std::size_t>(c)];
    k.index = static_cast<std::size_t>(c);
    if (H5Dget_chunk_info(dset, space.get(), c, k.offset, &k.mask, &k.addr, &k.size) < 0)
      throw InputError(where + ": cannot read the description of chunk " + std::to_string(c));
    if (k.size > stored_limit)
      throw InputError(where + ": chunk " + std::to_string(c) + " is stored in " + std::to_string(k.size) +
                       " bytes, more than its " + std::to_string(chunk_bytes) + " bytes of data can take: damaged or crafted file");
  }
  // A chunk's stored bytes: read here where the file allows it (runs of chunks at once), else
  // by HDF5 one chunk at a time.
  auto take = [&](const StoredChunk& k, const unsigned char* stored) {
    if (plain && k.size == chunk_bytes) {
      place(stored, k.offset, cdims, dims, rank, fsize, buf);
      return;
    }
    raw.assign(stored, stored + k.size);
    unfilter(raw, chunk, filters, k.mask, fsize, chunk_bytes, k.index, where);
    place(raw.data(), k.offset, cdims, dims, rank, fsize, buf);
  };
  if (const int fd = raw_descriptor(dset); fd >= 0) {
    read_runs(fd, chunks, where, take);
  } else {
    std::vector<unsigned char> stored;
    for (StoredChunk& k : chunks) {
      stored.resize(static_cast<std::size_t>(k.size));
      uint32_t read_mask = 0;
      if (H5Dread_chunk(dset, H5P_DEFAULT, k.offset, &read_mask, stored.data()) < 0)
        throw InputError(where + ": reading chunk " + std::to_string(k.index) + " failed");
      k.mask = read_mask;
      take(k, stored.data());
    }
  }
  if (!same) {
    std::vector<unsigned char> background(elements * msize, 0);
    if (H5Tconvert(ftype.get(), mem_type, elements, buf, background.data(), H5P_DEFAULT) < 0)
      throw InputError(where + ": cannot convert the stored values");
    std::memcpy(out, buf, elements * msize);
  }
  return true;
}

}  // namespace srcc

#pragma once
// Reading chunked datasets ourselves, chunk by chunk: gzip-compressed (deflate-filtered) ones,
// and unfiltered ones of few stored chunks, read so about as fast as contiguous data. HDF5's own
// inflater grows its output buffer for as long as a stream goes on, so a crafted chunk of a few
// megabytes can make it allocate gigabytes, whatever the dataset declares. Here each chunk's raw
// bytes are taken as stored, checked against the chunk's declared size, and inflated into
// exactly one chunk's worth of memory: anything longer is a damaged file (exit 3). The stored
// bytes are read with one pread per run of chunks lying back to back in the file where its
// driver allows (the default one, no user block), else a chunk at a time by H5Dread_chunk.
// Only code under io/ includes this header.
#include <hdf5.h>

#include <string>

namespace srcc {

// Reads all of `dset` into `out` (its elements in `mem_type`, row-major) when the dataset is
// chunked and its filters include deflate, or chunked without filters in at most a few thousand
// stored chunks (a sparse site, io/h5/sparse_chunks.hpp: those never written are the fill
// value); returns false, reading nothing, for any other dataset (the caller reads it with
// H5Dread: no other accepted filter outgrows its chunk, see h5::check_storage). Filters it undoes: shuffle, deflate, fletcher32 (in any order HDF5 applied
// them). Throws InputError naming `where` for a chunk that is larger than its declared size
// allows, inflates to anything but one chunk, or that HDF5 cannot read.
bool read_chunked(hid_t dset, hid_t mem_type, void* out, const std::string& where);

}  // namespace srcc

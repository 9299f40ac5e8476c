#pragma once
// RAII ownership of HDF5 identifiers and the small helpers both reader and writer need.
// Only code under io/ includes this header (and with it hdf5.h).
#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

#include "srcc/core/dtype.hpp"
#include "srcc/io/pinned_file.hpp"

namespace srcc::h5 {

class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), closer_(o.closer_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, -1);
      closer_ = o.closer_;
    }
    return *this;
  }
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  hid_t release() { return std::exchange(id_, -1); }  // the caller closes it
  bool valid() const { return id_ >= 0; }
  void reset() {
    if (id_ >= 0 && closer_) closer_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Silences HDF5's own error stack printing: we report errors ourselves, naming the culprit.
void quiet_errors();

// Opens an existing HDF5 file read-only, or throws InputError saying why not: no such file, a
// path too long, permission denied, not a regular file (a FIFO would block the reader forever,
// a directory or device is no input), not an HDF5 file, a file another program has open for
// writing (named), or a file HDF5 cannot open.
Handle open_for_reading(const std::string& path);
// The same for a pinned file (io/pinned_file.hpp): the HDF5 handle is checked to be on that
// very file (else InputError ending in kReplacedWhileOpened). `lock` = false skips HDF5's shared lock (for a caller that holds the file's
// exclusive lock itself).
Handle open_pinned(const PinnedFile& pin, bool lock = true);
inline constexpr const char* kReplacedWhileOpened =
    "the file was replaced while it was being opened (by a rename); run again";

// The in-memory HDF5 type of a scalar type; complex as a compound with members named `re`, `im`.
Handle memory_type(DType t, const char* re, const char* im);
// The file type we write for a scalar type (little-endian IEEE; complex as {r, i}).
Handle file_type(DType t);

// The type of a variable-length string in memory and in our files (NUL-terminated char*).
Handle vlen_string_type(H5T_cset_t cset = H5T_CSET_UTF8);

// What reading a dataset may cost beyond its own size, checked from its metadata: a chunked
// dataset's chunk may not be far larger than the dataset (HDF5 allocates whole chunks), and only
// filters whose output is bounded by the chunk are accepted: deflate (gzip; read by
// io/chunk_reader, since HDF5's own inflater grows its buffer as long as a crafted stream goes
// on), shuffle, fletcher32, nbit and scaleoffset. Returns the bytes of one chunk (0 for a
// dataset that is not chunked). Throws InputError naming `where`.
std::size_t check_storage(hid_t dset, std::size_t dataset_bytes, const std::string& where);

// Attributes, and scalar datasets of a group (how TeNPy and HDF5.jl store single values): each
// read only when it holds one value of the expected class. Strings of every HDF5 kind (fixed or
// variable length, ASCII or UTF-8, NULLTERM, NULLPAD or SPACEPAD) come back exactly; integers
// include h5py's booleans (an enum over int8). Errors (InputError) name `where` and the object.
bool has_attr(hid_t obj, const char* name);
std::string read_string_attr(hid_t obj, const char* name, const std::string& where);
long long read_int_attr(hid_t obj, const char* name, const std::string& where);
double read_double_attr(hid_t obj, const char* name, const std::string& where);
std::string read_string_dataset(hid_t group, const char* name, const std::string& where);
long long read_int_dataset(hid_t group, const char* name, const std::string& where);
double read_double_dataset(hid_t group, const char* name, const std::string& where);
// An unsigned 64-bit value (ITensor's index ids use all 64 bits).
unsigned long long read_uint_dataset(hid_t group, const char* name, const std::string& where);

}  // namespace srcc::h5

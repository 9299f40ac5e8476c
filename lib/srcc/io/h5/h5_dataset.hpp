#pragma once
// Datasets of tensor data and of their metadata, whatever file format holds them: element type,
// shape and storage checked before a read, and the read itself (bounded: chunk_reader.hpp).
// Only code under io/ includes this header.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/log/transfer_log.hpp"
#include "srcc/train/layout.hpp"

namespace srcc::h5 {

// Element type of a dataset plus the member names of a complex compound.
struct StoredType {
  DType dtype;
  std::string re = h5names::kReal, im = h5names::kImag;
};

// float32, float64, or a complex compound {r, i} / {real, imag} of two equal floats whose
// members lie inside the record; else InputError naming `where`.
StoredType stored_type(hid_t dset, const std::string& where);
std::vector<std::size_t> dataset_shape(hid_t dset);

// Where dataset `dset`'s values start in the file when its bytes are exactly those of its
// element type on this host (then a read is one pread, without HDF5); -1 otherwise.
std::int64_t raw_offset(hid_t dset, const StoredType& st, std::size_t elements);

// Reads all of `dset` (stored as `st`) into `out`, sized for `elements` values of st.dtype:
// InputError when the dataset holds another number, its storage is not accepted
// (check_storage) or the read fails.
void read_values(hid_t dset, const StoredType& st, void* out, std::size_t elements,
                 const std::string& where);

// The dataset `path` (relative to `parent`) read whole in its stored element type, its shape as
// stored (`max_elements` at most: more is a damaged file), every value checked finite.
AnyTensor read_any(hid_t parent, const std::string& path, const std::string& where,
                   std::size_t max_elements);

// Throws InputError naming the first NaN or infinity of `t` by its index in `shape`.
template <class T> void check_finite(const Tensor<T>& t, const Shape& shape, const std::string& where);

// Metadata arrays (slices, charges, block indices, singular values): an integer or floating
// point dataset read whole as long long / double, at most `max_elements` values; `shape`, when
// given, receives the dataset's shape.
std::vector<long long> read_int_array(hid_t parent, const std::string& path, const std::string& where,
                                      std::size_t max_elements, std::vector<std::size_t>* shape = nullptr);
std::vector<double> read_real_array(hid_t parent, const std::string& path, const std::string& where,
                                    std::size_t max_elements, std::vector<std::size_t>* shape = nullptr);

// A 1-D array of strings (variable or fixed length), at most `max_elements` of them.
std::vector<std::string> read_string_array(hid_t parent, const std::string& path, const std::string& where,
                                           std::size_t max_elements);

// Whether `path` names an object under `parent` (every link on the way checked).
bool exists(hid_t parent, const std::string& path);

// The "file read" row of the transfer log for a site read from `where`.
void log_site_read(TransferLog& log, TrainKind kind, std::size_t site, const std::string& where,
                   DType dtype, std::size_t bytes, double seconds);

}  // namespace srcc::h5

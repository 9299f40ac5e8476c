#pragma once
// HDF5.jl's encodings, as ITensors.jl's h5write leaves them: Julia strings (fixed length,
// NULLTERM, UTF-8) as attributes and datasets, Int64 and UInt64 scalars, vectors of Int64 and of
// strings, and groups with ITensor's `type` and `version`. What the ITensor writer builds its
// objects from (io/itensor_writer.cpp).
#include <hdf5.h>

#include <string>
#include <vector>

#include "srcc/io/h5/h5_handle.hpp"

namespace srcc::julia_h5 {

using h5::Handle;

void string_attr(hid_t obj, const char* name, const std::string& v);
void string_dataset(hid_t g, const char* name, const std::string& v);
void int_attr(hid_t obj, const char* name, long long v);
void int_dataset(hid_t g, const char* name, long long v);
void uint_dataset(hid_t g, const char* name, unsigned long long v);
void int_vector(hid_t g, const char* name, const std::vector<long long>& v);
// A Julia Vector{String}: variable-length UTF-8 strings.
void string_vector(hid_t g, const char* name, const std::vector<std::string>& v);
// A group with ITensor's `type` attribute (and `version` 1).
Handle typed_group(hid_t parent, const std::string& name, const std::string& type);

}  // namespace srcc::julia_h5

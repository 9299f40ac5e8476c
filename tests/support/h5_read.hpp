#pragma once
// Reading what tests check from HDF5 files: a train's cores through the library's reader (in
// the internal (l, r, u, d) order), a scalar dataset, attributes, and the columns of a compound
// table by member name (an evolution's /trajectory, a log's /log/transfers).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"
#include "srcc/train/train.hpp"

namespace srcc::test {

std::vector<Tensor<cdouble>> read_cores(const std::filesystem::path& file, const std::string& group,
                                        TrainFormat format = TrainFormat::kAuto);
double read_scalar(const std::filesystem::path& file, const char* dataset);
// A real or complex (h5py's compound {r, i}) dataset of any shape, row-major, as complex numbers.
std::vector<cdouble> read_numbers(const std::filesystem::path& file, const std::string& dataset);
long long read_int_attr(const std::filesystem::path& file, const std::string& object, const char* name);
double read_double_attr(const std::filesystem::path& file, const std::string& object, const char* name);
bool has_attr(const std::filesystem::path& file, const std::string& object, const char* name);
std::string read_string_attr(const std::filesystem::path& file, const std::string& object, const char* name);
// Every member of the one-dimensional compound `dataset`, converted to double.
std::map<std::string, std::vector<double>> read_columns(const std::filesystem::path& file, const char* dataset);

}  // namespace srcc::test

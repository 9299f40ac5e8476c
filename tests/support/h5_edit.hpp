#pragma once
// Changing a file as a user or a damaged disk might, to test that a reader refuses it: an
// integer attribute set, an object unlinked, a row taken out of a compound table.
#include <filesystem>
#include <string>

namespace srcc::test {

void set_int_attr(const std::filesystem::path& file, const std::string& object, const char* name, long long value);
void set_double_attr(const std::filesystem::path& file, const std::string& object, const char* name, double value);
// Multiplies every number of the float64 dataset `dataset` by `factor`.
void scale_dataset(const std::filesystem::path& file, const std::string& dataset, double factor);
void unlink_object(const std::filesystem::path& file, const std::string& path);
// Removes row `row` (from 0) of the one-dimensional compound dataset `dataset`.
void remove_row(const std::filesystem::path& file, const std::string& dataset, std::size_t row);

}  // namespace srcc::test

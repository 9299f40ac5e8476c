#pragma once
// Writes HDF5 trains the way other programs do (h5py, HDF5.jl): any layout, dropped or kept
// boundary bonds, either complex encoding. Independent of the library's writer on purpose.
#include <hdf5.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "srcc/core/tensor.hpp"

namespace srcc::test {

struct RawTrain {
  std::string group = "/psi";
  std::optional<std::string> type = "MPS";     // attribute "type"; nullopt = missing
  std::optional<std::string> layout;           // attribute "layout"; nullopt = absent
  std::optional<long long> length;             // attribute "length"; nullopt = absent
  std::vector<Tensor<cdouble>> sites;          // as stored (shape = dataset shape)
  std::vector<std::string> names;              // dataset names; empty = "0" … "n-1"
  DType dtype = DType::kFloat64;               // stored element type (real types keep .real())
  std::string re = "r", im = "i";              // complex compound member names
};

// Adds `t` to the HDF5 file `path` (created when missing).
void write_raw_train(const std::filesystem::path& path, const RawTrain& t);

// A fresh temporary directory, removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace srcc::test

namespace srcc::test {

// A site given in internal (l, r, u, d) order as it would be stored with `layout` (leg letters
// of the train kind), dropping the outer bond of boundary sites when `drop_boundary`.
Tensor<cdouble> stored_site(const Tensor<cdouble>& internal, bool mps, const std::string& layout,
                            bool drop_boundary, std::size_t site, std::size_t n);

// Convenience: a whole train stored that way.
RawTrain stored_train(const std::vector<Tensor<cdouble>>& cores, bool mps, const std::string& layout,
                      bool drop_boundary, const std::string& group);

// Creates group /psi in `f` with its "type" attribute "MPS" (a fixed-length string, as h5py
// writes it) and returns it, for tests that write a train's datasets themselves.
hid_t mps_group(hid_t f);

}  // namespace srcc::test

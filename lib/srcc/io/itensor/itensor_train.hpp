#pragma once
// Trains ITensor wrote (ITensorMPS.jl `h5write` of an MPS or MPO, C++ ITensor v3): a group with
// `type` MPS/MPO, a dataset `length` and ITensor groups MPS[1] … MPS[N] (MPO[n]). Each tensor's
// indices are told apart by identity (id, plev, tags), never by position: links are the
// indices a tensor shares with its neighbours, the remaining one is the site index (an MPO's
// s with plev 0 is its input d, s' with plev 1 its output u). A Dense tensor's data read in C
// order is the tensor with its indices reversed, so a site comes out in that order and only
// its leg letters say which is which; BlockSparse, Diag and EmptyStorage are made dense exactly
// into the same order, and a BlockSparse site is also read as its blocks, for a charged run.
#include "srcc/io/format_train.hpp"
#include "srcc/io/itensor/itensor_objects.hpp"

namespace srcc {

class ItensorTrain final : public FormatTrain {
 public:
  ItensorTrain(hid_t file, const std::string& file_name, const std::string& group);
  AnyTensor read_site(std::size_t j, TransferLog& log) const override;
  // A BlockSparse site's blocks as boxes (a QN train's); other storage reads dense.
  std::optional<AnyBoxes> read_site_boxes(std::size_t j, TransferLog& log) const override;

  const std::vector<itensor::TensorInfo>& tensors() const { return tensors_; }
  // Which internal leg (kLegL, kLegR, kLegU, kLegD) index k of tensor j is.
  std::size_t role(std::size_t j, std::size_t k) const { return roles_[j][k]; }

 private:
  hid_t file_;
  std::vector<itensor::TensorInfo> tensors_;
  std::vector<std::vector<std::size_t>> roles_;
};

// The physical basis an ITensor site index names by its tags ("S=1/2" → up, down; "Electron"
// → empty, up, down, full; "Fermion" → empty, full); empty when the tags do not say.
std::vector<std::string> itensor_site_basis(const itensor::Index& site);

// Whether the open group `g` (its `type` attribute `type`) is an ITensor MPS or MPO: type "MPS"
// or "MPO" with subgroups MPS[1] … (MPO[1] …) and no dataset 0 (ours).
bool is_itensor_train(hid_t g, const std::string& type, const std::string& where);

}  // namespace srcc

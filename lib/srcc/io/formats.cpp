#include "srcc/io/formats.hpp"

#include "srcc/io/itensor/itensor_train.hpp"
#include "srcc/io/srcc/srcc_train.hpp"
#include "srcc/io/tenpy/tenpy_train.hpp"

namespace srcc {

namespace {

std::unique_ptr<FormatTrain> open_srcc(hid_t file, const PinnedFile& pin, const std::string& group) {
  return std::make_unique<SrccTrain>(file, pin, group);
}
std::unique_ptr<FormatTrain> open_tenpy(hid_t file, const PinnedFile& pin, const std::string& group) {
  return std::make_unique<TenpyTrain>(file, pin.path(), group);
}
std::unique_ptr<FormatTrain> open_itensor(hid_t file, const PinnedFile& pin, const std::string& group) {
  return std::make_unique<ItensorTrain>(file, pin.path(), group);
}

// ITensor's trains share our `type` values: it is tried first (its subgroups MPS[1] … tell it).
const std::vector<FormatRow> kTable = {
    {TrainFormat::kItensor, is_itensor_train, open_itensor},
    {TrainFormat::kSrcc, is_srcc_train, open_srcc},
    {TrainFormat::kTenpy, is_tenpy_train, open_tenpy},
};

}  // namespace

const std::vector<FormatRow>& format_table() { return kTable; }

}  // namespace srcc

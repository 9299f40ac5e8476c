#include "srcc/io/formats.hpp"

#include "srcc/io/itensor/itensor_train.hpp"
#include "srcc/io/itensor/itensor_writer.hpp"
#include "srcc/io/srcc/srcc_charges.hpp"
#include "srcc/io/srcc/srcc_train.hpp"
#include "srcc/io/tenpy/tenpy_train.hpp"
#include "srcc/io/tenpy/tenpy_writer.hpp"

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

// A library's charges are its write-back template's (the same reading of its legs).
std::optional<PhysicalCharges> of_template(const SectorTemplate& t) {
  if (t.rule.count() == 0) return std::nullopt;
  return PhysicalCharges{t.rule, t.up, t.down};
}
std::optional<PhysicalCharges> tenpy_charges(const TrainInfo& i) {
  return of_template(tenpy_sector_template(i.file, i.group, i.kind));
}
std::optional<PhysicalCharges> itensor_charges(const TrainInfo& i) {
  return of_template(itensor_sector_template(i.file, i.group, i.kind));
}

// ITensor's trains share our `type` values: it is tried first (its subgroups MPS[1] … tell it).
const std::vector<FormatRow> kTable = {
    {TrainFormat::kItensor, is_itensor_train, open_itensor, itensor_charges},
    {TrainFormat::kSrcc, is_srcc_train, open_srcc, read_srcc_charges},
    {TrainFormat::kTenpy, is_tenpy_train, open_tenpy, tenpy_charges},
};

}  // namespace

const std::vector<FormatRow>& format_table() { return kTable; }

}  // namespace srcc

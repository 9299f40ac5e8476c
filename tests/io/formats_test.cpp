// The table of formats read (lib/srcc/io/formats.cpp): a row for every format but auto, each
// named and parsed back, and each recognising its own trains and not the others'.
#include "srcc/io/formats.hpp"

#include <gtest/gtest.h>

#include <set>

#include "../support/cli_runner.hpp"
#include "../support/h5_fixture.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/session/write_example.hpp"

namespace srcc::test {
namespace {

TEST(Formats, ARowPerFormatEachRecognisingOnlyItsOwn) {
  std::set<TrainFormat> rows;
  for (const auto& row : format_table()) {
    rows.insert(row.format);
    EXPECT_EQ(parse_train_format(std::string(train_format_name(row.format)), "--format"), row.format);
  }
  EXPECT_EQ(rows, (std::set<TrainFormat>{TrainFormat::kSrcc, TrainFormat::kTenpy, TrainFormat::kItensor}));
  TempDir dir;
  const std::string ours = (dir / "ours.h5").string();
  (void)write_example({.example = {.example = Example::kProduct, .sites = 3}, .output = {ours, "/psi"}});
  const std::string data = source_dir() + "/tests/data/";
  const std::vector<std::tuple<std::string, std::string, TrainFormat>> trains = {
      {ours, "/psi", TrainFormat::kSrcc},
      {data + "tenpy_xxz_L12_sz.h5", "/psi", TrainFormat::kTenpy},
      {data + "itensor_xxz_L12_qn.h5", "/psi", TrainFormat::kItensor}};
  for (const auto& [file, group, format] : trains) {
    h5::Handle f = h5::open_for_reading(file);
    h5::Handle g(H5Gopen2(f.get(), group.c_str(), H5P_DEFAULT), H5Gclose);
    const std::string type = h5::read_string_attr(g.get(), h5names::kAttrType, file);
    // The first row that recognises a group has it (ITensor's is tried before ours).
    const FormatRow* first = nullptr;
    for (const auto& row : format_table())
      if (first == nullptr && row.is_train(g.get(), type, file)) first = &row;
    ASSERT_NE(first, nullptr) << file;
    EXPECT_EQ(first->format, format) << file;
  }
}

}  // namespace
}  // namespace srcc::test

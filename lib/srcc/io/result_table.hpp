#pragma once
// collect's table: one row per output, one column per figure of its record (ResultRecord), as
// CSV or as a JSON array of objects with the same keys. The columns are defined once, here:
// the header, the rows and the JSON keys cannot disagree.
#include <string>
#include <vector>

#include "srcc/io/result_reader.hpp"

namespace srcc {

// The column names, in order.
std::vector<std::string> result_table_columns();
// The records as CSV (a header line, then a line per record) or as a JSON array.
std::string result_table_csv(const std::vector<ResultRecord>& records);
std::string result_table_json(const std::vector<ResultRecord>& records);

}  // namespace srcc

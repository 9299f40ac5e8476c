#include "srcc/train/layout.hpp"

#include <algorithm>

#include "srcc/core/error.hpp"

namespace srcc {

std::string_view train_kind_name(TrainKind k) { return k == TrainKind::kMps ? "MPS" : "MPO"; }
std::string_view default_layout(TrainKind k) { return k == TrainKind::kMps ? "lrp" : "lrud"; }

Layout::Layout(TrainKind kind, std::string_view text, const std::string& where)
    : kind_(kind), letters_(text) {
  std::string want(default_layout(kind));
  std::string got(text);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  if (want != got) {
    throw InputError(where + ": layout '" + std::string(text) + "' is not a permutation of '" +
                     std::string(default_layout(kind)) + "' (allowed for an " +
                     std::string(train_kind_name(kind)) + ")");
  }
}

std::string Layout::dataset_letters(std::size_t site, std::size_t n, std::size_t rank,
                                    const std::string& where) const {
  if (rank == letters_.size()) return letters_;
  std::string dropped;
  if (site == 0) dropped += 'l';
  if (site + 1 == n) dropped += 'r';
  if (rank + dropped.size() == letters_.size()) {
    std::string kept;
    for (char c : letters_)
      if (dropped.find(c) == std::string::npos) kept += c;
    return kept;
  }
  std::string allowed = std::to_string(letters_.size());
  if (!dropped.empty()) allowed += " or " + std::to_string(letters_.size() - dropped.size());
  throw InputError(where + ": dataset has rank " + std::to_string(rank) + ", expected " +
                   allowed + " for layout '" + letters_ + "' at site " + std::to_string(site) +
                   " of " + std::to_string(n));
}

std::array<std::size_t, kSiteRank> internal_dims(std::string_view letters, const std::size_t* dims) {
  std::array<std::size_t, kSiteRank> out{1, 1, 1, 1};
  for (std::size_t i = 0; i < letters.size(); ++i) {
    switch (letters[i]) {
      case 'l': out[kLegL] = dims[i]; break;
      case 'r': out[kLegR] = dims[i]; break;
      case 'u':
      case 'p': out[kLegU] = dims[i]; break;
      case 'd': out[kLegD] = dims[i]; break;
      default: break;
    }
  }
  return out;
}

}  // namespace srcc

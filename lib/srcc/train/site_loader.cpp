#include "srcc/train/site_loader.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "srcc/core/error.hpp"
#include "srcc/core/permute.hpp"

namespace srcc {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Permutation taking the dataset's axes (letters, with size-1 axes appended for the legs it
// lacks) to (l, r, u, d).
std::vector<std::size_t> to_lrud(std::string letters) {
  for (char c : std::string("lrud"))
    if (letters.find(c) == std::string::npos && !(c == 'u' && letters.find('p') != std::string::npos))
      letters += c;
  std::vector<std::size_t> perm;
  for (char c : std::string("lrud")) {
    auto pos = letters.find(c);
    if (c == 'u' && pos == std::string::npos) pos = letters.find('p');
    perm.push_back(pos);
  }
  return perm;
}

}  // namespace

// The train's scale beyond its sites (TrainInfo::log_scale), an equal share on each site: each
// site then holds numbers of ordinary size, and every consumer (sweeps, expect, distance) works
// on the train as it is. A share the working type cannot hold is a NumericalError.
namespace {
template <class T> void spread_scale(std::vector<T>& data, const TrainInfo& info, std::size_t site) {
  const long double share = static_cast<long double>(info.log_scale) / static_cast<long double>(info.length());
  const auto factor = static_cast<real_t<T>>(std::exp(share));
  bool finite = std::isfinite(factor) && factor > 0;
  for (auto& v : data) {
    v *= factor;
    finite = finite && std::isfinite(std::abs(v));
  }
  if (!finite)
    throw NumericalError(info.where(site) + ": the train's scale e^" + std::to_string(info.log_scale) + " over " +
                         std::to_string(info.length()) + " sites leaves the range of " +
                         std::string(dtype_name(dtype_of<T>)) + "; use a 64-bit --dtype");
}
}  // namespace

namespace {

// Converts a site read as `from` into T by `convert` (which returns the bytes it made), after
// refusing complex → real, with the conversion's row in the log; returns why the site did not
// stay in place.
template <class T, class Convert>
std::string converted(const TrainInfo& info, std::size_t site, DType from, TransferLog& log, const Convert& convert) {
  const std::string want(dtype_name(dtype_of<T>));
  if (dtype_is_complex(from) && !is_complex_v<T>)
    throw UsageError(info.where(site) + ": complex data cannot be computed in " + want +
                     " (the imaginary part would be lost); use --dtype auto or a complex type");
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t bytes = convert();
  std::string declined = std::string(mechanism::kStaysInPlace) + ": dtype " + std::string(dtype_name(from)) + " != " + want;
  log.add({.what = info.kind == TrainKind::kMps ? "mps site" : "mpo site", .site = static_cast<std::int64_t>(site),
           .mechanism = mechanism::kHostCopy, .declined = declined, .source = "host", .target = "host",
           .dtype_from = std::string(dtype_name(from)), .dtype_to = want, .bytes = static_cast<std::int64_t>(bytes),
           .seconds = since(t0)});
  return declined;
}

}  // namespace

template <class T>
Tensor<T> to_internal(AnyTensor stored, const TrainInfo& info, std::size_t site,
                      TransferLog& log) {
  const std::string what = info.kind == TrainKind::kMps ? "mps site" : "mpo site";
  const auto sid = static_cast<std::int64_t>(site);
  const DType from = any_dtype(stored);
  const std::string want(dtype_name(dtype_of<T>));
  std::string declined;

  Tensor<T> t;
  if (from == dtype_of<T>) t = std::move(std::get<Tensor<T>>(stored));
  else declined = converted<T>(info, site, from, log, [&] {
    t = std::visit([](const auto& x) { return cast_tensor<T>(x); }, stored);
    return t.bytes();
  });

  if (info.log_scale != 0) spread_scale(t.data, info, site);
  // Append the legs the dataset lacks as size-1 axes (a free reshape), then order them.
  const std::string& letters = info.dataset_letters[site];
  Shape full = t.shape;
  const auto perm = to_lrud(letters);
  full.resize(kSiteRank, 1);
  t.shape = full;
  if (permutation_is_reshape(full, perm)) {
    t.shape = {info.dims[site].begin(), info.dims[site].end()};
    if (declined.empty())
      log.add({.what = what, .site = sid, .mechanism = mechanism::kStaysInPlace,
               .source = "host", .target = "host", .dtype_from = want, .dtype_to = want});
    return t;
  }
  const auto t0 = std::chrono::steady_clock::now();
  Tensor<T> out = permute(t, perm);
  log.add({.what = what, .site = sid, .mechanism = mechanism::kHostCopy,
           .declined = std::string(mechanism::kStaysInPlace) + ": layout '" + info.layout +
                       "' != internal 'lrud'",
           .source = "host", .target = "host", .dtype_from = want, .dtype_to = want,
           .bytes = static_cast<std::int64_t>(out.bytes()), .seconds = since(t0)});
  return out;
}

template <class T> SiteBoxes<T> boxes_to_internal(AnyBoxes stored, const TrainInfo& info, std::size_t site, TransferLog& log) {
  const DType from = std::visit([](const auto& b) { return dtype_of<typename std::decay_t<decltype(b)>::value_type>; }, stored);
  SiteBoxes<T> out;
  if (from == dtype_of<T>) {
    out = std::move(std::get<SiteBoxes<T>>(stored));
    const std::string want(dtype_name(dtype_of<T>));
    log.add({.what = info.kind == TrainKind::kMps ? "mps site" : "mpo site", .site = static_cast<std::int64_t>(site),
             .mechanism = mechanism::kStaysInPlace, .source = "host", .target = "host", .dtype_from = want,
             .dtype_to = want});
  } else {
    converted<T>(info, site, from, log, [&] {
    out = std::visit([](auto& b) { return cast_boxes<T>(std::move(b)); }, stored);
      return out.elements() * sizeof(T);
    });
  }
  if (info.log_scale != 0)
    for (auto& b : out.boxes) spread_scale(b.data, info, site);
  return out;
}

#define SRCC_INSTANTIATE(T)                                                                   \
  template Tensor<T> to_internal(AnyTensor, const TrainInfo&, std::size_t, TransferLog&);     \
  template SiteBoxes<T> boxes_to_internal(AnyBoxes, const TrainInfo&, std::size_t, TransferLog&);
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

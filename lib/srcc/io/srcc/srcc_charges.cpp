#include "srcc/io/srcc/srcc_charges.hpp"

#include "srcc/core/error.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/h5/h5_names.hpp"

namespace srcc {

namespace {

constexpr std::size_t kMostCharges = 64;
constexpr std::size_t kMostIndices = std::size_t{1} << 28;

// The rows of an (indices × charges) dataset, split into sites of the given sizes.
std::vector<std::vector<Charge>> per_site(const std::vector<long long>& flat, std::size_t nq,
                                          const std::vector<std::size_t>& sizes, const std::string& where) {
  std::size_t total = 0;
  for (std::size_t s : sizes) total += s;
  if (flat.size() != total * nq)
    throw InputError(where + ": " + std::to_string(nq > 0 ? flat.size() / nq : flat.size()) + " rows, the train's sites have " +
                     std::to_string(total) + " indices");
  std::vector<std::vector<Charge>> out;
  std::size_t at = 0;
  for (std::size_t s : sizes) {
    std::vector<Charge> site;
    for (std::size_t i = 0; i < s; ++i, ++at)
      site.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(at * nq), flat.begin() + static_cast<std::ptrdiff_t>((at + 1) * nq));
    out.push_back(std::move(site));
  }
  return out;
}

}  // namespace

std::optional<PhysicalCharges> read_srcc_charges(const TrainInfo& info) {
  using h5::Handle;
  Handle f = h5::open_for_reading(info.file);
  const std::string base = info.group + "/charges", where = info.file + ":" + base;
  if (!h5::exists(f.get(), base)) return std::nullopt;
  PhysicalCharges c;
  c.rule.moduli = h5::read_int_array(f.get(), base + "/moduli", where + "/moduli", kMostCharges);
  const std::size_t nq = c.rule.count();
  if (nq == 0) throw InputError(where + "/moduli: no charges");
  for (long long m : c.rule.moduli)
    if (m < 1) throw InputError(where + "/moduli: " + std::to_string(m) + " (1 for U(1), N >= 2 for Z_N)");
  std::vector<std::size_t> ups, downs;
  for (const auto& d : info.dims) {
    ups.push_back(d[kLegU]);
    downs.push_back(d[kLegD]);
  }
  c.up = per_site(h5::read_int_array(f.get(), base + "/up", where + "/up", kMostIndices * kMostCharges), nq, ups, where + "/up");
  c.down = per_site(h5::read_int_array(f.get(), base + "/down", where + "/down", kMostIndices * kMostCharges), nq, downs,
                    where + "/down");
  return c;
}

void write_srcc_charges(H5Writer& w, const std::string& group, const PhysicalCharges& c) {
  const std::string base = group + "/charges";
  w.create_group(base);
  std::vector<std::int64_t> moduli(c.rule.moduli.begin(), c.rule.moduli.end());
  w.int_array(base + "/moduli", moduli, {moduli.size()});
  auto flat = [&](const std::vector<std::vector<Charge>>& sites, const char* name) {
    std::vector<std::int64_t> v;
    std::size_t rows = 0;
    for (const auto& s : sites)
      for (const auto& q : s) {
        v.insert(v.end(), q.begin(), q.end());
        ++rows;
      }
    w.int_array(base + "/" + name, v, {rows, c.rule.count()});
  };
  flat(c.up, "up");
  flat(c.down, "down");
}

}  // namespace srcc

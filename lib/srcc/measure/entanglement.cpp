#include "srcc/measure/entanglement.hpp"

#include <cmath>

namespace srcc {

std::size_t BondEntanglement::rank() const {
  std::size_t r = 0;
  for (const auto& s : sectors)
    for (double v : s.values) r += v > 0 ? 1 : 0;
  return r;
}

std::vector<BondEntanglement> entanglement_of(const std::vector<std::vector<SectorValues>>& spectra,
                                              std::optional<double> renyi_alpha) {
  std::vector<BondEntanglement> out;
  for (std::size_t c = 0; c < spectra.size(); ++c) {
    BondEntanglement b;
    b.bond = c + 1;
    b.sectors = spectra[c];
    double total = 0;
    for (const auto& s : b.sectors)
      for (double v : s.values) total += v * v;
    const double scale = total > 0 ? 1 / std::sqrt(total) : 0;
    double moment = 0;
    for (auto& s : b.sectors)
      for (double& v : s.values) {
        v *= scale;
        const double p = v * v;
        if (p > 0) b.von_neumann -= p * std::log(p);
        if (renyi_alpha && p > 0) moment += std::pow(p, *renyi_alpha);
      }
    if (renyi_alpha) b.renyi = std::log(moment) / (1 - *renyi_alpha);
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace srcc

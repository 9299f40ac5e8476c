#pragma once
// The input sites as the sweep consumes them: read from the source one site (all layers) at a
// time, held for the site in use and the next one (the plan's site window), and handed to each
// device in the GEMM form a step needs. On a device backend the next site's forms are uploaded
// while the device computes the current site, so the copies overlap the work.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "srcc/movement/mover.hpp"
#include "srcc/movement/site_forms.hpp"
#include "srcc/train/site_source.hpp"
#include "srcc/train/train.hpp"

namespace srcc {

template <class T> class SiteFeed {
 public:
  // devices[d]: how data reaches device d (device 0 first).
  SiteFeed(const Stack& stack, SiteSource<T>& source, TransferLog& log, std::vector<Mover<T>*> devices)
      : st_(stack), source_(source), log_(log), devices_(std::move(devices)), ahead_(devices_.size()) {}

  // Layer `layer` of site j in host memory. Loads site j when it is not held, dropping the held
  // site farther from j (the sweeps move one site at a time). Only the sweep's own thread may
  // load: device threads read sites it loaded before starting them.
  const Tensor<T>& site(std::size_t layer, std::size_t j) {
    auto it = sites_.find(j);
    if (it == sites_.end()) {
      if (sites_.size() >= 2) {
        auto far = sites_.begin();
        for (auto s = sites_.begin(); s != sites_.end(); ++s)
          if (gap(s->first, j) > gap(far->first, j)) far = s;
        sites_.erase(far);
      }
      it = sites_.emplace(j, source_.site(j)).first;
    }
    return it->second[layer];
  }

  // Layer `layer` of site j in form f on device d: what upload_ahead() sent, or sent now.
  Buffer<T> form(std::size_t layer, std::size_t j, SiteForm f, std::size_t d) {
    auto& ahead = ahead_[d];
    if (auto it = ahead.find({layer, j, f}); it != ahead.end()) {
      Buffer<T> b = std::move(it->second);
      ahead.erase(it);
      return b;
    }
    return send(layer, j, f, d);
  }

  // On a device backend, starts sending site j's forms (form_of(layer)) to device d, for the
  // step after the one being computed. The host backend has nothing to overlap, and converting
  // early would only raise its peak.
  void upload_ahead(std::size_t j, const std::function<SiteForm(std::size_t)>& form_of, std::size_t d) {
    if (!devices_[d]->kernels().moves_data()) return;
    auto& ahead = ahead_[d];
    for (std::size_t i = 0; i < st_.depth(); ++i) {
      const SiteForm f = form_of(i);
      if (!ahead.count({i, j, f})) ahead.emplace(std::tuple{i, j, f}, send(i, j, f, d));
    }
  }

  // The forms of the two sweeps (see sweep.cpp). Left sweep: the top layer (u, l d r), the
  // bottom one (l, u d r), those between (u r, l d); a single train (r, u l d). Right sweep:
  // the bottom layer (r, u l d), the others (u l, r d).
  SiteForm left_form(std::size_t layer) const {
    if (st_.depth() == 1) return SiteForm::kRUld;
    if (layer == 0) return SiteForm::kULdr;
    return layer + 1 == st_.depth() ? SiteForm::kLUdr : SiteForm::kUrLd;
  }
  SiteForm right_form(std::size_t layer) const {
    return layer + 1 == st_.depth() ? SiteForm::kRUld : SiteForm::kUlRd;
  }

 private:
  static std::size_t gap(std::size_t a, std::size_t b) { return a > b ? a - b : b - a; }
  std::string what(std::size_t layer) const {
    return st_.layers[layer].kind == TrainKind::kMps ? "mps site" : "mpo site";
  }
  Buffer<T> send(std::size_t layer, std::size_t j, SiteForm f, std::size_t d) {
    return devices_[d]->up(site_in_form(site(layer, j), f, what(layer), j, log_), what(layer),
                           static_cast<std::int64_t>(j));
  }

  const Stack& st_;
  SiteSource<T>& source_;
  TransferLog& log_;
  std::vector<Mover<T>*> devices_;
  std::map<std::size_t, std::vector<Tensor<T>>> sites_;  // held sites, by index
  // Per device: forms sent ahead, by (layer, site, form).
  std::vector<std::map<std::tuple<std::size_t, std::size_t, SiteForm>, Buffer<T>>> ahead_;
};

}  // namespace srcc

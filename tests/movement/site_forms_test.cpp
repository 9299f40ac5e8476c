// The GEMM forms of a site: each element lands where its form's row and column say, and a
// form that moves only size-1 legs is a free reshape, logged as such.
#include "srcc/movement/site_forms.hpp"

#include <gtest/gtest.h>

#include "srcc/core/rng.hpp"

namespace srcc {
namespace {

// Site (l, r, u, d) with distinct entries.
Tensor<double> numbered(std::size_t l, std::size_t r, std::size_t u, std::size_t d) {
  Tensor<double> t({l, r, u, d});
  for (std::size_t i = 0; i < t.size(); ++i) t.data[i] = static_cast<double>(i) + 0.5;
  return t;
}

TEST(SiteForms, EachFormPutsEveryElementAtItsRowAndColumn) {
  const std::size_t L = 2, R = 3, U = 4, D = 5;
  const Tensor<double> t = numbered(L, R, U, D);
  const auto at = [&](std::size_t l, std::size_t r, std::size_t u, std::size_t d) {
    return t.data[((l * R + r) * U + u) * D + d];
  };
  // The index of (l, r, u, d) in each form, by its row and column legs as site_forms.hpp lists them.
  struct Case {
    SiteForm f;
    std::size_t (*index)(std::size_t, std::size_t, std::size_t, std::size_t);
  };
  const Case cases[] = {
      {SiteForm::kUlRd, [](std::size_t l, std::size_t r, std::size_t u, std::size_t d) { return ((u * 2 + l) * 3 + r) * 5 + d; }},
      {SiteForm::kRUld, [](std::size_t l, std::size_t r, std::size_t u, std::size_t d) { return ((r * 4 + u) * 2 + l) * 5 + d; }},
      {SiteForm::kUrLd, [](std::size_t l, std::size_t r, std::size_t u, std::size_t d) { return ((u * 3 + r) * 2 + l) * 5 + d; }},
      {SiteForm::kULdr, [](std::size_t l, std::size_t r, std::size_t u, std::size_t d) { return ((u * 2 + l) * 5 + d) * 3 + r; }},
      {SiteForm::kLUdr, [](std::size_t l, std::size_t r, std::size_t u, std::size_t d) { return ((l * 4 + u) * 5 + d) * 3 + r; }},
      {SiteForm::kLUrd, [](std::size_t l, std::size_t r, std::size_t u, std::size_t d) { return ((l * 4 + u) * 3 + r) * 5 + d; }},
  };
  for (const auto& c : cases) {
    TransferLog log;
    const std::vector<double> form = site_in_form(t, c.f, "mpo site", 3, log);
    ASSERT_EQ(form.size(), t.size()) << form_name(c.f);
    for (std::size_t l = 0; l < L; ++l)
      for (std::size_t r = 0; r < R; ++r)
        for (std::size_t u = 0; u < U; ++u)
          for (std::size_t d = 0; d < D; ++d)
            ASSERT_EQ(form[c.index(l, r, u, d)], at(l, r, u, d)) << form_name(c.f) << " at " << l << r << u << d;
    const auto rows = log.records();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].mechanism, mechanism::kHostCopy) << form_name(c.f);
    EXPECT_EQ(rows[0].site, 3);
  }
}

TEST(SiteForms, MovingOnlySizeOneLegsIsAReshape) {
  // An MPS site (d = 1) at the left end (l = 1): (r, u, l, d) is the same memory as (l, r, u, d).
  const Tensor<double> t = numbered(1, 3, 2, 1);
  TransferLog log;
  EXPECT_EQ(site_in_form(t, SiteForm::kRUld, "mps site", 0, log), t.data);
  ASSERT_EQ(log.records().size(), 1u);
  EXPECT_EQ(log.records()[0].mechanism, mechanism::kStaysInPlace);
  EXPECT_EQ(log.records()[0].bytes, 0);
}

}  // namespace
}  // namespace srcc

#pragma once
// The methods of compression, one row each: everything the flags, the planner, the flop model,
// the sweep and the record need to know about a method is in its row. A new method is one enum
// value, one row here, and the reduction the sweep calls for it (sweep/sweep.cpp).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace srcc {

enum class Method {
  kSrc,   // Gaussian Khatri–Rao test tensors swept from the left (SRC)
  kSdc,   // truncated SVDs from the left, C_{j+1} = U_j^H M_j (successive deterministic)
  kSdcr,  // the same with a randomized range finder for U_j (one Gaussian test per cut)
  kSvd,   // truncate: right-canonicalise one train, then SVD-truncate it left to right
};

// How a method turns the left environment C_j into C_{j+1}: the multiply-adds of its GEMMs at
// one cut, given M_j's shape (m rows × cols, the rows being C_j's `rows` times the physical
// legs) and the rank it keeps. The counts follow sweep/dense_left_step.cpp.
struct ReductionShape {
  double m = 0, cols = 0, rank = 0;
  std::size_t terms = 1;  // a sum's terms, reduced together
};

struct MethodRow {
  Method method;
  std::string_view name;  // as --method, /log and collect spell it
  std::string_view summary;  // what it does, for --help
  bool option;            // chosen with --method (kSvd is truncate's own)
  bool random;            // draws from --seed
  bool dense_left;        // the left step keeps M_j whole and reduces it (no sketch per cut)
  bool svd_reduction;     // … by an SVD of M_j (the planner holds its factors)
  bool takes_tol;         // --tol can grow its rank
  bool takes_sums;        // apply --term
  bool chi_required;      // a fixed-size run needs --chi (else --tol, or --cutoff)
  // GEMM multiply-adds of the reduction at one cut (0: none, or not a dense method).
  double (*reduction_macs)(const ReductionShape&);
};

const MethodRow& method_row(Method m);
const std::vector<MethodRow>& method_table();
std::string method_name(Method m);
// A --method value; anything else is a UsageError naming --method and the choices.
Method parse_method(const std::string& text);
// "src, sdc or sdcr": the names --method takes.
std::string method_choices();
// "src (…), sdc (…), sdcr (…)": those names with their summaries, for --help.
std::string method_summaries();

}  // namespace srcc

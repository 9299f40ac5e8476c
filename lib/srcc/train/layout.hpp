#pragma once
// Legs of a site and their order.
//
//                u (up: output leg of an operator; p, the physical leg, of an MPS)
//                |
//         l ---[ W ]--- r        l, r: virtual bonds to the left / right neighbour
//                |
//                d (down: input leg of an operator; size 1 for an MPS)
//
// In a stack A·B·ψ the d leg of A joins the u leg of B, and the d leg of B joins p of ψ.
// Inside src-compress every site of every train is rank 4 in the order (l, r, u, d): boundary
// sites get a size-1 outer bond and MPS sites a size-1 d leg. Files may store any permutation
// of "lrp" (MPS) or "lrud" (MPO) and may drop the outer bond of the boundary sites.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace srcc {

// Axis numbers of the internal (l, r, u, d) site layout.
inline constexpr std::size_t kLegL = 0;
inline constexpr std::size_t kLegR = 1;
inline constexpr std::size_t kLegU = 2;
inline constexpr std::size_t kLegD = 3;
inline constexpr std::size_t kSiteRank = 4;

enum class TrainKind { kMps, kMpo };

std::string_view train_kind_name(TrainKind k);  // "MPS" / "MPO"
std::string_view default_layout(TrainKind k);   // "lrp" / "lrud"

// A validated leg order for one kind of train, e.g. "lpr" for an MPS.
class Layout {
 public:
  // Throws InputError naming `where` when `text` is not a permutation of the kind's letters.
  Layout(TrainKind kind, std::string_view text, const std::string& where);

  const std::string& letters() const { return letters_; }
  TrainKind kind() const { return kind_; }

  // The letters present in a dataset of site `site` of an n-site train with `rank` axes;
  // boundary sites may drop their outer bond ("l" at site 0, "r" at site n-1). Throws
  // InputError naming `where` when the rank fits neither form.
  std::string dataset_letters(std::size_t site, std::size_t n, std::size_t rank,
                              const std::string& where) const;

 private:
  TrainKind kind_;
  std::string letters_;
};

// Internal (l, r, u, d) dims of a site from the dims of its dataset with the given letters.
std::array<std::size_t, kSiteRank> internal_dims(std::string_view letters, const std::size_t* dims);

}  // namespace srcc

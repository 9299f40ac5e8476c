#pragma once
// Example and test trains: the SRC paper's random recipe, the identity and the transverse-field
// Ising Hamiltonian. All cores in the internal (l, r, u, d) order.
#include <cstdint>
#include <vector>

#include "srcc/core/rng.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/train/layout.hpp"

namespace srcc {

// Site j of an n-site random train drawn from `rng` (sites are drawn in order 0, 1, …).
template <class T>
Tensor<T> random_site(TrainKind kind, std::size_t j, std::size_t sites, std::size_t bond,
                      std::size_t phys, Rng& rng);
// Site j of the identity MPO and of the Ising MPO below.
template <class T> Tensor<T> identity_site(std::size_t phys);
template <class T> Tensor<T> ising_site(std::size_t j, std::size_t sites, double j_coupling,
                                        double h_field);

// Entries i.i.d. Uniform[−0.5, 1] (real and imaginary parts alike), each site divided by its
// Frobenius norm. Bonds are `bond` everywhere inside, 1 at the ends; `phys` is the physical
// (MPS) or up = down (MPO) dimension.
template <class T>
std::vector<Tensor<T>> random_train(TrainKind kind, std::size_t sites, std::size_t bond,
                                    std::size_t phys, std::uint64_t seed);

// The identity operator as an MPO of bond 1.
template <class T> std::vector<Tensor<T>> identity_mpo(std::size_t sites, std::size_t phys);

// H = −J Σ Z_i Z_{i+1} − h Σ X_i on spins 1/2, as an MPO of bond 3.
template <class T> std::vector<Tensor<T>> ising_mpo(std::size_t sites, double j, double h);

// One second-order Trotter step of that H as an MPO of bond 2:
//   U = Π_i e^{−c (−h X_i)/2} · Π_i e^{−c (−J Z_i Z_{i+1})} · Π_i e^{−c (−h X_i)/2},
// c = i·dt for real time (e^{−i dt H}, T complex) and c = dt for imaginary time (e^{−dt H}).
// The ZZ gates commute and are split as cosh-like·I⊗I + sinh-like·Z⊗Z.
template <class T>
Tensor<T> ising_step_site(std::size_t j, std::size_t sites, double j_coupling, double h_field, double dt,
                          bool imaginary);

// Σ_i Z_i on spins 1/2, as an MPO of bond 2 (the magnetisation).
template <class T> Tensor<T> magnetization_site(std::size_t j, std::size_t sites);

// The product state |0 0 … 0⟩ (all spins up in Z for spins 1/2) of physical dimension `phys`.
template <class T> Tensor<T> product_site(std::size_t j, std::size_t sites, std::size_t phys);

}  // namespace srcc

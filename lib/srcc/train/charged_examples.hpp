#pragma once
// Example trains that conserve S^z (a U(1) charge, counted as 2S^z so that it is an integer: +1
// for spin up, the basis state 0, and −1 for spin down): the XXZ chain's Hamiltonian, Néel and
// domain-wall product states, and random MPSs of a given total S^z whose bonds are split into
// charge sectors of a chosen spread. Cores in the internal (l, r, u, d) order; spins_half_charges
// gives the charges `generate` stores beside them.
#include <cstdint>
#include <vector>

#include "srcc/core/rng.hpp"
#include "srcc/core/tensor.hpp"
#include "srcc/train/layout.hpp"
#include "srcc/train/sectors.hpp"

namespace srcc {

// H = Σ_i J (S^x_i S^x_{i+1} + S^y_i S^y_{i+1} + Δ S^z_i S^z_{i+1}) − h Σ_i S^z_i, an MPO of bond 5
// (J = Δ = 1: the Heisenberg chain).
template <class T> Tensor<T> xxz_site(std::size_t j, std::size_t sites, double j_coupling, double delta, double h_field);

// Product states: Néel |↑↓↑↓…⟩, and the domain wall |↑…↑↓…↓⟩ (the first ⌈n/2⌉ up).
template <class T> Tensor<T> neel_site(std::size_t j);
template <class T> Tensor<T> domain_wall_site(std::size_t j, std::size_t sites);

// A random MPS of n spins 1/2 with total 2S^z = `total` (of n's parity): bond j's sectors are the
// charges Q reachable from both ends, with dimensions ∝ exp(−(Q − total·j/n)² / (2·spread²)) summing
// to about `bond` (each ≥ 1, none above the sector's exact dimension); every block the charges
// allow is Gaussian, each site divided by its Frobenius norm.
struct ChargedRandomShape {
  std::size_t sites = 10, bond = 16;
  double spread = 2;
  long long total = 0;
};
// The sectors of bond j (0 … n): (charge, dimension), ascending.
std::vector<std::pair<long long, std::size_t>> charged_random_bond(const ChargedRandomShape& s, std::size_t j);
template <class T> Tensor<T> charged_random_site(const ChargedRandomShape& s, std::size_t j, Rng& rng);

// The charges of spins 1/2 as these examples order them (2S^z: +1, −1), for an MPS or MPO of n sites.
PhysicalCharges spin_half_charges(std::size_t sites, TrainKind kind);

}  // namespace srcc

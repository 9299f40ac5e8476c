#pragma once
// One time step e^{τH} as an MPO, built from the MPO of H itself (Zaletel, Mong, Karrasch, Moore
// and Pollmann, PRB 91, 165112 (2015)). H's MPO is read in its finite-automaton form: at every
// bond a "not started" state s (the identity to its left), a "done" state e (the identity to its
// right) and the states of terms in progress, so that each site is
//     W = [[1, C, D], [0, A, B], [0, 0, 1]]   (rows and columns s, in progress, e):
// D the site's own terms, C the terms that start on it, B those that end on it, A those that pass.
// W^I(τ) = [[1 + τD, √τ C], [√τ B, A]] keeps every product of terms that share no site;
// W^II(τ) also the products of terms that meet on a site, each such site's part the average over
// the orders of its operators: element (a, b) is ⟨a b| exp(τD + √τ B_a c_a† + √τ C_b c_b† +
// A_ab c_a† c_b†) |0 0⟩ with two hard-core bosons marking the channels a and b (0: none).
// Both keep the bond of the states in progress plus one; their error per step is O(τ²) where H's
// terms do not commute.
#include <complex>
#include <vector>

#include "srcc/core/tensor.hpp"

namespace srcc {

enum class StepApproximation { kFirst, kSecond };  // W^I, W^II

// The step e^{τH} (τ = −i·dt for real time, −dt for imaginary time) from H's sites (internal
// (l, r, u, d), outer bonds 1). The states are found from the tensors: s_b the state the identity
// carries on from s_{b−1} and nothing else enters, e_b the one that carries it to e_{b+1} and
// leaves nowhere else; every other state is a term in progress (an MPO without such channels is
// one term spanning the chain). Throws InputError where one state would be both, or where a bond
// of several states has neither channel (an MPO whose states were mixed, by an SVD say).
std::vector<Tensor<cdouble>> step_mpo(const std::vector<Tensor<cdouble>>& h, std::complex<double> tau,
                                      StepApproximation approximation);

// The second-order step: W(τ₂)·W(τ₁) with τ₁,₂ = (1 ± i)/2·τ (W(τ₁) applied first), whose error
// per step is O(τ³) (the τ² terms of the two halves cancel); as one MPO, the exact product of
// the two (bond the square of one's).
std::vector<Tensor<cdouble>> second_order_step(const std::vector<Tensor<cdouble>>& h, std::complex<double> tau,
                                               StepApproximation approximation);

// e^X of a square matrix (row-major, n × n) by scaling and squaring its Taylor series, to rounding.
std::vector<std::complex<double>> matrix_exponential(const std::vector<std::complex<double>>& x, std::size_t n);

}  // namespace srcc

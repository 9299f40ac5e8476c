#pragma once
// What evolve measures of the state alone after a step: ⟨O_i⟩ at every site of a named site
// operator (--measure-site-op: columns OP_0 … OP_{n−1}, and OP_i_im where O is not Hermitian)
// and the von Neumann entropy at every bond (--measure-entropy: columns S_1 … S_{n−1}), from
// the state's right-canonical cores as the step leaves them.
#include <memory>
#include <string>

#include "srcc/session/observable.hpp"
#include "srcc/train/site_type.hpp"

namespace srcc {

// `op` (even in fermions: no string) in the state's basis; `name` as the user wrote it.
template <class T> std::unique_ptr<Observable<T>> site_operator(SiteOperator op, std::string name, std::size_t sites);
template <class T> std::unique_ptr<Observable<T>> bond_entropy(std::size_t sites);

}  // namespace srcc

#include "srcc/session/measures.hpp"

namespace srcc {

ExpectResult expect(const ExpectOptions& o) {
  const auto backend = measuring_backend(o.exec);
  return expect(o.ket, o.ops, o.bra, o.variance, *backend);
}

Comparison distance(const DistanceOptions& o) {
  const auto backend = measuring_backend(o.exec);
  return compare(o.a, o.b, o.exec.host_memory, *backend);
}

}  // namespace srcc

#include "srcc/session/measures.hpp"

namespace srcc {

ExpectResult expect(const ExpectOptions& o) {
  return expect(o.ket, o.ops, o.bra, o.variance, [&] { return measuring_backend(o.exec); }, o.exec.host_memory,
                o.charges, o.state);
}

Comparison distance(const DistanceOptions& o) {
  return compare(o.a, o.b, o.exec.host_memory, [&] { return measuring_backend(o.exec); }, o.charges);
}

}  // namespace srcc

#pragma once
// The MPI module's entry (libsrcc_mpi.so, mpi_ranks.cpp): the only code that sees MPI's
// headers. Loaded with dlopen by world_ranks() when an MPI launcher started the process.
#include <string>

namespace srcc {

class Ranks;  // ranks.hpp

struct MpiModule {
  // Initialises MPI and returns MPI_COMM_WORLD's ranks; null with `error` on failure.
  Ranks* (*world)(std::string& error);
  void (*finish)();  // MPI_Finalize, once
};

}  // namespace srcc

extern "C" const srcc::MpiModule* srcc_mpi_module();

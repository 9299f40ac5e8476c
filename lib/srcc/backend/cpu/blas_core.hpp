#pragma once
// OpenBLAS picks its kernels for the CPU once, when the process starts, from the CPU's model
// number, and falls back to its oldest x86-64 kernels ("Prescott", SSE3) for a model it does not
// know: Debian's OpenBLAS 0.3.21 on Emerald Rapids (family 6, model 207) does, and every GEMM
// then runs about 2.7 times slower than on the AVX-512 kernels the CPU has. The choice can only
// be made by $OPENBLAS_CORETYPE before the library starts (app/main.cpp starts itself again with it).
#include <string>

namespace srcc {

// The kernels to ask for: "Cooperlake", "SkylakeX" or "Haswell" by the CPU's own features, when
// OpenBLAS chose Prescott kernels on a CPU with AVX2 or more and $OPENBLAS_CORETYPE is not set;
// "" otherwise (the choice is right, or someone made it).
std::string better_blas_core();

// The kernels OpenBLAS uses ("Cooperlake", "Prescott", …).
std::string blas_core();

// At the start of a program's main: when better_blas_core() names kernels, starts the program
// again (execv of /proc/self/exe with the same arguments) with $OPENBLAS_CORETYPE set to them.
// It is set then, so this happens once; where the exec fails the program goes on as it is.
void restart_for_blas_kernels(char** argv);

}  // namespace srcc

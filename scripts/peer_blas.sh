# Sourced by the benchmark scripts: the peers (numpy under quimb and TeNPy) get the OpenBLAS
# kernels our binary runs on. On a CPU Debian's OpenBLAS does not know, the binary restarts itself
# with better kernels than the SSE3 ones OpenBLAS falls back to; a Python peer cannot, and would
# otherwise be measured on kernels 2-3 times slower. A chosen $OPENBLAS_CORETYPE is kept.
#   . scripts/peer_blas.sh path/to/src-compress
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  OPENBLAS_CORETYPE=$("$1" --version | sed -n 's/^OpenBLAS kernels: //p')
  [ -n "$OPENBLAS_CORETYPE" ] && export OPENBLAS_CORETYPE
fi
echo "# OpenBLAS kernels, ours and the peers': ${OPENBLAS_CORETYPE:-as OpenBLAS chooses them}"

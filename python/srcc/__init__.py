"""srcc: compressed products of tensor trains in-process.

MPOs applied to MPSs or to other MPOs, sums of such products and truncations, compressed with
Successive Randomized Compression (SRC) and its relatives (sdc, sdcr, fit sweeps), by the same
library and with the same options, seeds and results as the `src-compress` program.

Trains are lists of numpy arrays. By default they are in quimb's layouts: an MPS's sites are
(l, r, p) and an MPO's (l, r, u, d), where u is the output leg and d the one a product contracts
with the state below, and the outer bonds of the end sites are left out ((r, p) and (l, p) for an
MPS), so that ``quimb.tensor.MatrixProductState(arrays)`` and ``MatrixProductOperator(arrays)``
take the results unchanged. ``layout=`` names another order by its letters ("lpr", "plr",
"udlr", ...); sites that carry their outer bonds (of size 1) are recognised as such. quimb's and
TeNPy's own MPS/MPO objects are accepted as they are (read through their arrays; neither package
is imported here).

Every function that computes releases the GIL while it does; Ctrl-C stops it between sites with
KeyboardInterrupt. Errors are srcc.Error's subclasses, one per exit kind of the program, with its
messages: UsageError (bad options), InputError (trains that do not fit), OutputError,
ResourceError (a memory budget), BackendError, NumericalError.
"""
import numbers

import numpy as np

from . import _srcc
from ._srcc import (BackendError, Error, InputError, InterruptedError, NumericalError, OutputError,
                    ResourceError, UsageError)

__version__ = _srcc.version
if _srcc.better_blas_kernels():
    # OpenBLAS picked its SSE3 kernels for a CPU it does not know (the src-compress program
    # restarts itself with the right ones; an interpreter cannot): every product runs ~3x slower.
    import warnings
    warnings.warn("OpenBLAS runs its SSE3 kernels (%s) on this CPU, which it does not recognise; start Python with "
                  "OPENBLAS_CORETYPE=%s set for the CPU's own (about 2.7x faster products)"
                  % (_srcc.blas_kernels(), _srcc.better_blas_kernels()), RuntimeWarning, stacklevel=2)
# The program's exit code for each kind of error (README, "Exit codes").
for _cls, _code in ((UsageError, 2), (InputError, 3), (OutputError, 4), (ResourceError, 5), (BackendError, 6),
                    (NumericalError, 7), (InterruptedError, 130)):
    _cls.exit_code = _code
__all__ = ["apply", "compress", "truncate", "sum", "evolve", "read", "write", "to_tenpy", "Train", "distance", "compare", "inner",
           "norm", "expect", "Error", "UsageError", "InputError", "OutputError", "ResourceError",
           "BackendError", "NumericalError", "InterruptedError"]

_MPS, _MPO = "lrp", "lrud"


class Train(list):
    """A train as the package returns it: a list of site arrays (quimb's layouts, or the one asked
    for) that also carries the charges of its physical legs where it conserves some (`charges`:
    None, or {"moduli": [1 for U(1), N for Z_N, …], "up": [site][index] → charges, "down": the
    same for an MPO's lower legs}). Given back to srcc, a charged train is computed in its charge
    blocks; as a plain list it is an ordinary one (and quimb takes it as one)."""

    def __init__(self, sites=(), charges=None):
        super().__init__(sites)
        self.charges = charges


def _letters_of(kind, layout):
    """The leg letters of an MPS's ("mps") or MPO's sites under `layout`: None or "quimb" for
    quimb's ("lrp", "lrud"), else one or both orders, comma-separated ("plr", "udlr", "plr,udlr")."""
    full = _MPS if kind == "mps" else _MPO
    if layout is None or layout == "quimb":
        return full
    for order in layout.split(","):
        if len(order) == len(full):
            if sorted(order) != sorted(full):
                raise UsageError(f'layout "{layout}": an {kind.upper()}\'s legs are a permutation of "{full}"')
            return order
    return full


def _site_letters(letters, j, n, kept_outer):
    """The letters of site j's array: the outer bonds left out unless the train keeps them."""
    if kept_outer:
        return letters
    return "".join(c for c in letters if not ((c == "l" and j == 0) or (c == "r" and j == n - 1)))


def _tenpy_charges(obj, kind):
    """The physical charges of a TeNPy MPS or MPO from its sites' legs (None where it has none)."""
    legs = [site.leg for site in obj.sites]
    moduli = [int(m) for m in legs[0].chinfo.mod]
    if not moduli:
        return None
    up = [[[int(q) for q in row] for row in leg.to_qflat()] for leg in legs]
    down = up if kind == "mpo" else [[[0] * len(moduli)] for _ in legs]
    return {"moduli": moduli, "up": up, "down": down}


def _from_tenpy(obj):
    """A TeNPy MPS or MPO (an object with its site tensors in _B or _W) as (kind, full sites,
    charges)."""
    if hasattr(obj, "_W"):
        sites = []
        n = len(obj._W)
        for j, w in enumerate(obj._W):
            a = np.asarray(w.transpose(["wL", "wR", "p", "p*"]).to_ndarray())
            if j == 0:
                left = obj.get_IdL(0)
                a = a[left:left + 1] if left is not None else a
            if j == n - 1:
                right = obj.get_IdR(n - 1)
                a = a[:, right:right + 1] if right is not None else a
            sites.append(a)
        return "mpo", sites, _tenpy_charges(obj, "mpo")
    sites = [np.asarray(obj.get_B(j, "B").transpose(["vL", "vR", "p"]).to_ndarray()) for j in range(obj.L)]
    if obj.norm != 1:
        sites[0] = sites[0] * obj.norm
    return "mps", sites, _tenpy_charges(obj, "mps")


def _from_quimb(obj):
    """A quimb MatrixProductState or MatrixProductOperator as (kind, full sites, None)."""
    n = obj.L
    mpo = hasattr(obj, "upper_ind")
    sites = []
    for j in range(n):
        inds = [obj.bond(j - 1, j)] if j > 0 else []
        inds += [obj.bond(j, j + 1)] if j < n - 1 else []
        inds += [obj.upper_ind(j), obj.lower_ind(j)] if mpo else [obj.site_ind(j)]
        a = np.asarray(obj[j].transpose(*inds).data)
        if j == 0:
            a = a[None]
        if j == n - 1:
            a = np.expand_dims(a, 1)
        sites.append(a)
    return ("mpo" if mpo else "mps"), sites, None


def _to_internal(train, layout, what):
    """(kind, sites in (l, r, u[, d]) with unit outer bonds, charges) of any train the package
    takes."""
    if hasattr(train, "_B") or hasattr(train, "_W"):
        return _from_tenpy(train)
    if hasattr(train, "site_ind") or hasattr(train, "upper_ind"):
        return _from_quimb(train)
    if not isinstance(train, (list, tuple)) or len(train) == 0:
        raise InputError(f"{what}: a train is a non-empty list of arrays (or a quimb or TeNPy MPS/MPO)")
    arrays = [a if isinstance(a, np.ndarray) else np.asarray(a) for a in train]
    for j, a in enumerate(arrays):
        if a.dtype.kind not in "biufc":
            raise InputError(f"{what}, site {j}: not an array of numbers ({a.dtype})")
    ranks = [a.ndim for a in arrays]
    n = len(arrays)
    if n >= 3:
        kind = "mps" if ranks[1] == 3 else "mpo" if ranks[1] == 4 else None
        if kind is None:
            raise InputError(f"{what}, site 1: an array of rank {ranks[1]}; an MPS's sites have rank 3, an MPO's 4")
    elif n == 2:
        # quimb's shapes (the outer bonds left out) where the ranks could mean either.
        kind = "mps" if ranks[0] == 2 else "mpo"
    else:
        kind = "mps" if ranks[0] in (1, 3) else "mpo"
    letters = _letters_of(kind, layout)
    kept_outer = all(r == len(letters) for r in ranks)
    order = [letters.index(c) for c in (_MPS if kind == "mps" else _MPO)]
    identity = order == sorted(order)
    sites = []
    for j, a in enumerate(arrays):
        end = j == 0 or j == n - 1
        have = _site_letters(letters, j, n, kept_outer) if end else letters
        if a.ndim != len(have):
            raise InputError(f"{what}, site {j}: an array of rank {a.ndim} where an {kind.upper()} of {n} sites in the "
                             f"layout \"{letters}\" has ({', '.join(have)})")
        if have != letters:
            dims = iter(a.shape)
            a = a.reshape([next(dims) if c in have else 1 for c in letters])
        sites.append(a if identity else a.transpose(order))
    return kind, sites, getattr(train, "charges", None)


def _to_user(kind, sites, layout, charges=None):
    """Sites (l, r, u[, d]) with unit outer bonds in the layout the caller asked for, the outer
    bonds left out, as a Train."""
    letters = _letters_of(kind, layout)
    internal = _MPS if kind == "mps" else _MPO
    order = [internal.index(c) for c in letters]
    identity = order == sorted(order)
    n = len(sites)
    out = []
    for j, a in enumerate(sites):
        if not identity:
            a = np.ascontiguousarray(a.transpose(order))
        if j == 0 or j == n - 1:
            have = _site_letters(letters, j, n, False)
            a = a.reshape([a.shape[letters.index(c)] for c in have])
        out.append(a)
    return Train(out, charges)


_DTYPES = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
           np.dtype(np.complex64): "complex64", np.dtype(np.complex128): "complex128"}


def _working_dtype(dtype, trains, weights=()):
    if dtype is not None:
        name = _DTYPES.get(np.dtype(dtype))
        if name is None:
            raise UsageError(f"dtype {dtype}: float32, float64, complex64 or complex128")
        return name
    types = [a.dtype for _, sites, _ in trains for a in sites]
    t = np.result_type(*types) if types else np.dtype(np.float64)
    if not (np.issubdtype(t, np.floating) or np.issubdtype(t, np.complexfloating)) or t.itemsize > 16:
        t = np.dtype(np.float64)
    if t == np.float16:
        t = np.dtype(np.float32)
    if any(complex(w).imag != 0 for w in weights):
        t = np.result_type(t, np.complex64)
    return _DTYPES[np.dtype(t)]


def _options(chi=0, method="src", oversample=None, tol=0.0, cutoff=None, fit_sweeps=0, fit_tol=0.0, seed=0,
             threads=None, host_memory=None, gpu_memory=None, device=None, scratch_dir=None, symmetry="auto"):
    return dict(chi=int(chi), method=str(method), oversample=oversample, tol=float(tol), cutoff=cutoff,
                fit_sweeps=int(fit_sweeps), fit_tol=float(fit_tol), seed=int(seed), threads=threads,
                host_memory=host_memory, gpu_memory=gpu_memory, device=device, scratch_dir=scratch_dir,
                symmetry=str(symmetry))


def _run(terms, dtype, layout, options):
    internal = [(w, [_to_internal(t, layout, f"term {k}, train {i}") for i, t in enumerate(trains)])
                for k, (w, trains) in enumerate(terms)]
    name = _working_dtype(dtype, [t for _, ts in internal for t in ts], [w for w, _ in internal])
    (kind, sites, charges), record = _srcc.run([(complex(w), ts) for w, ts in internal], options, name)
    record["dtype"] = name
    return _to_user(kind, sites, layout, charges), record


def _operators(ops):
    """ops as a list of trains: None, one train (an object, or a list of numpy arrays) or several."""
    if ops is None:
        return []
    if isinstance(ops, (list, tuple)) and not all(isinstance(o, np.ndarray) for o in ops):
        return list(ops)
    return [ops]


def apply(ops, state, *, dtype=None, layout=None, **options):
    """The compressed product ops[0] · ops[1] ⋯ state (ops: an MPO, or MPOs top first; state an MPS
    or an MPO) and its record, as ``(train, record)``.

    Options, as the program's flags: chi (χ̄, the bond kept), method ("src", "sdc", "sdcr"),
    oversample (True for 1.5, or the factor), tol (per-cut relative tolerance), cutoff (relative
    singular value), fit_sweeps, fit_tol, seed; threads, host_memory and gpu_memory (bytes or
    "4G"), device ("cpu", "gpu", "gpu:1"), scratch_dir. dtype: the working type (default: the
    inputs' promoted type). The record holds the error estimate, the bonds, each cut's figures,
    the seed, seconds and GFLOP.
    """
    return _run([(1.0, _operators(ops) + [state])], dtype, layout, _options(**options))


def compress(state, *, dtype=None, layout=None, **options):
    """The train compressed to chi by the sweep (the program's `compress`): ``(train, record)``."""
    return _run([(1.0, [state])], dtype, layout, _options(**options))


def truncate(state, *, chi=0, cutoff=None, tol=0.0, dtype=None, layout=None, **options):
    """The train truncated by exact SVDs (the program's `truncate`): ``(train, record)``."""
    return _run([(1.0, [state])], dtype, layout, _options(chi=chi, cutoff=cutoff, tol=tol, method="svd", **options))


def sum(terms, *, dtype=None, layout=None, **options):  # noqa: A001 (the operation's name)
    """Σ_k w_k · ops_k ⋯ state_k compressed in one sweep: terms as (weight, state) or (weight, ops,
    state) with ops an MPO or a list of MPOs (top first). Returns ``(train, record)``."""
    rows = []
    for k, term in enumerate(terms):
        if len(term) == 2:
            w, state = term
            ops = None
        elif len(term) == 3:
            w, ops, state = term
        else:
            raise UsageError(f"term {k}: (weight, state) or (weight, ops, state)")
        if not isinstance(w, numbers.Number):
            raise UsageError(f"term {k}: its weight is not a number")
        rows.append((w, _operators(ops) + [state]))
    return _run(rows, dtype, layout, _options(**options))


def evolve(step, state, steps, *, normalize=False, dtype=None, layout=None, **options):
    """Applies the step (an MPO, or MPOs top first, e.g. generate step's W^II or an order-2
    product) `steps` times, each product compressed as `apply` does: an iterator of
    ``(k, state, record)`` after step k = 1 … steps. With normalize=True each state is divided by
    its norm (imaginary time). The seed of step k is seed + k, so that a run's steps draw
    independent sketches and the same seed gives the same trajectory. Stop it early by breaking
    out of the loop; measure, save (srcc.write) or change course between steps.
    """
    seed = int(options.pop("seed", 0))
    ops = _operators(step)
    for k in range(1, int(steps) + 1):
        state, record = apply(ops, state, dtype=dtype, layout=layout, seed=seed + k, **options)
        if normalize:
            scale = norm(state, layout=layout)
            if not scale > 0:
                raise NumericalError(f"step {k}: the state's norm is {scale}: it cannot be normalised")
            # The norm sits in the first site of a result (its other sites are right-canonical).
            state = Train([state[0] / scale] + state[1:], state.charges)
        record["step"] = k
        yield k, state, record


def read(path, group="", *, dtype=None, layout=None):
    """The train at path:group (group "" for a file's only train), any format the program reads
    (ours, TeNPy's, ITensor's), in its own type or `dtype`: a Train, with the file's charges."""
    kind, sites, charges = _srcc.read(str(path), group, "" if dtype is None else _working_dtype(dtype, []))
    return _to_user(kind, [np.asarray(s) for s in sites], layout, charges)


def write(path, train, group="/result", *, force=False, layout=None, like=None, threads=None):
    """A new file at `path` holding `train` (and its charges, where it carries some) at `group` in
    our format (which every subcommand reads); an existing file is replaced only with force=True
    (else OutputError).

    With like="FILE.h5:/group" (a TeNPy or ITensor train of the same length, kind and physical
    legs) the file is written in that library's format on its sites, charges and indices, as the
    program's --template writes (the group is the template's); the train is first brought to
    canonical form by an exact SVD sweep. Returns, then, what the conversion dropped:
    {"group", "dropped_weight", "truncated_weight"}: the weights (squared relative norms) that
    lay outside the template's total charge and that were truncated by sector; the written train
    is √(their sum) from the given one."""
    internal = _to_internal(train, layout, "train")
    name = _working_dtype(None, [internal])
    if like is None:
        _srcc.write(str(path), internal, group, bool(force), name)
        return None
    like = str(like)
    file, sep, where = like.rpartition(":")
    if not sep or not where.startswith("/"):
        file, where = like, ""
    return _srcc.write_like(str(path), internal, file, where, bool(force), dict(threads=threads), name)


def to_tenpy(train, sites, *, layout=None):
    """The MPS `train` as TeNPy's own MPS on `sites` (a TeNPy state's `psi.sites`, or a model's
    `lat.mps_sites()`), its arrays read in the sites' basis order as TeNPy's own arrays give them
    (what srcc takes from a TeNPy object comes back in that order), its charges found by TeNPy from
    the arrays, its norm kept in the MPS's `norm`. Imports TeNPy (it must be importable)."""
    from tenpy.networks.mps import MPS  # the caller's TeNPy: only this function needs it
    kind, full, _ = _to_internal(train, layout, "train")
    if kind != "mps":
        raise UsageError("to_tenpy makes an MPS; an MPO in TeNPy's form needs its model's IdL and IdR")
    scale = norm(train, layout=layout)
    if not scale > 0:
        raise NumericalError("the train has norm 0: TeNPy's MPS keeps a normalised state and its norm")
    out = MPS.from_Bflat(sites, [np.transpose(a, (2, 0, 1)) for a in full], permute=False)
    out.norm = scale
    return out


def _pair(a, b, layout, dtype):
    ta, tb = _to_internal(a, layout, "a"), _to_internal(b, layout, "b")
    return ta, tb, _working_dtype(dtype, [ta, tb])


def compare(a, b, *, layout=None, dtype=None, threads=None, host_memory=None, device=None):
    """The program's `distance` figures: norms, ⟨a|b⟩, the cosine and ‖a − b‖/‖b‖ (a dict)."""
    ta, tb, name = _pair(a, b, layout, dtype)
    return _srcc.compare(ta, tb, dict(threads=threads, host_memory=host_memory, device=device), name)


def distance(a, b, **kw):
    """‖a − b‖ / ‖b‖, accurate to rounding relative to the norms (not their square roots)."""
    return compare(a, b, **kw)["relative_distance"]


def _scaled(value, log_scale, what):
    """value·e^log_scale as a complex number; NumericalError (the program's exit 7) where a double
    cannot hold it, rather than an infinity or a zero for a finite, non-zero answer."""
    value = complex(value)
    if value == 0 or log_scale == 0:
        return value
    log10 = (np.log(abs(value)) + log_scale) / np.log(10)
    if not -307 < log10 < 308:
        raise NumericalError(f"{what} is about 10^{log10:.1f}, beyond a double; compare() gives its log10")
    return value * np.exp(log_scale)


def inner(a, b, *, layout=None, dtype=None, threads=None):
    """⟨a|b⟩ = Σ conj(a)·b of two MPSs, contracted exactly."""
    ta, tb, name = _pair(a, b, layout, dtype)
    return _scaled(*_srcc.sandwich(ta, [], tb, dict(threads=threads), name), "⟨a|b⟩")


def norm(a, **kw):
    """‖a‖."""
    return float(np.sqrt(abs(inner(a, a, **kw))))


def expect(state, *ops, layout=None, dtype=None, threads=None):
    """⟨ψ|O_1 ⋯ O_k|ψ⟩ / ⟨ψ|ψ⟩ contracted exactly (each O its own layer: O² without forming it)."""
    t = _to_internal(state, layout, "state")
    to = [_to_internal(o, layout, f"operator {i}") for i, o in enumerate(ops)]
    name = _working_dtype(dtype, [t] + to)
    opts = dict(threads=threads)
    num, num_log = _srcc.sandwich(t, to, t, opts, name)
    den, den_log = _srcc.sandwich(t, [], t, opts, name)
    if den == 0:
        raise NumericalError("the state has norm 0: its expectation values are undefined")
    return complex(num) / complex(den) * np.exp(num_log - den_log)

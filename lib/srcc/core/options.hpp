#pragma once
// Every option of src-compress, described once: its flag, the kind of value it takes, its
// unit and default, and its help. app/cli.cpp registers the flags from these descriptions (the
// help text, including the list of common flags each subcommand prints, is generated from
// them), and the library names options through them in its errors. Where an option's value
// lands — and its default, where the default is a number — is the field of the options struct
// it is bound to (plan/sweep_options.hpp, run.hpp), never written a second time here.
#include <string>
#include <string_view>

namespace srcc::opt {

struct Option {
  std::string_view flag;      // CLI11's form: "--chi", "-v,--verbose", "--oversample{1.5}"
  std::string_view value;     // what the value looks like in help ("REAL", "SIZE"; "" = switch;
                              // "INT": the range check of app/cli.cpp says it)
  std::string_view help;      // one sentence or two; units named in it
  std::string_view fallback;  // what applies when not given, where not a bound number ("" = none)

  // The long flag alone, for messages: "--verbose" for "-v,--verbose", "--oversample" for
  // "--oversample{1.5}" (CLI11's way of giving a flag's value when it stands alone).
  std::string name() const {
    std::string_view f = flag;
    if (const auto comma = f.rfind(','); comma != std::string_view::npos) f = f.substr(comma + 1);
    return std::string(f.substr(0, f.find('{')));
  }
};

// --- Accuracy (plan/sweep_options.hpp) ------------------------------------------------------
inline constexpr Option kChi{"--chi", "INT",
    "Max output bond dimension χ̄ (= sketch columns), >= 1. Required unless --tol (then a cap) "
    "or, for truncate, --cutoff is given", "none"};
inline constexpr Option kCutoff{"--cutoff", "REAL",
    "Relative singular-value cutoff in [0, 1): keep σ >= cutoff·σ_max at every cut; --cutoff 0 "
    "keeps every direction, rounding noise too",
    "numerically zero directions only: σ <= 64ε·σ_max (single precision: 4ε)"};
inline constexpr Option kOversample{"--oversample{1.5}", "[=F]",
    "Oversample the sketch (paper §3.4): s = max(⌈F·χ̄⌉, χ̄ + 10) columns, then one SVD "
    "truncation sweep to χ̄ (and --tol/--cutoff). Alone it means F = 1.5; another factor as "
    "--oversample=F, a real in [1, 1000]", "off"};
inline constexpr Option kTol{"--tol", "REAL",
    "Tolerance mode: per-bond relative Frobenius tolerance in (0, 1); each cut's sketch grows "
    "until its leave-one-out error estimate is below tol/3, then one SVD truncation sweep "
    "keeps at each cut the fewest values that meet tol (global error about sqrt(n-1)·tol). "
    "--chi becomes an optional cap", "off: a fixed χ̄"};
// The methods and what each does are listed from their table (plan/methods.cpp).
inline constexpr Option kMethod{"--method", "NAME",
    "How the left environments that sketch each cut are formed (docs/ALGORITHM.md compares the methods)", "src"};
inline constexpr Option kSymmetry{"--symmetry", "auto|off",
    "Charges in the computation: auto keeps the inputs' U(1)/Z_N charges (TeNPy, ITensor QN, our "
    "format's charges) in block-sparse tensors wherever every input carries compatible ones and "
    "the run is one that computes on them (every method, in fixed or tolerance mode, oversampled or "
    "with fit sweeps; sums of products; evolve's steps; truncate; distance; expect; on the CPU or one GPU, "
    "not one split over several GPUs), else a "
    "one-line note says why the run is dense; off: always dense", "auto"};
inline constexpr Option kFitSweeps{"--fit-sweeps", "INT",
    "After the method, at most this many variational sweeps at the result's bonds, each lowering "
    "‖Aψ − φ‖ (one-site on dense trains; two-site on charges, each cut's bond shared out among the "
    "sectors afresh); 0 = none (with --fit-tol alone: at most 20)", "0"};
inline constexpr Option kFitTol{"--fit-tol", "REAL",
    "Stop the fit sweeps once a sweep gains less than this, relative: "
    "√(‖φ_k‖² − ‖φ_{k−1}‖²) ≤ REAL·‖φ_k‖ (that gain is the error it removed); in (0, 1)",
    "off: all --fit-sweeps run"};
inline constexpr Option kBlockStart{"--block-start", "INT",
    "Tolerance mode: columns of a cut's first sketch block, >= 1", ""};
inline constexpr Option kBlockStep{"--block-step", "INT",
    "Tolerance mode: columns added per round, >= 1", ""};
inline constexpr Option kSeed{"--seed", "INT",
    "Seed of the random sketch, 0 … 2^64-1; the same seed gives the same result",
    "drawn at random, printed and recorded in /log"};
inline constexpr Option kSeedBase{"--seed-base", "INT",
    "Derive the seed from this base and the array task id (--task-id, else "
    "$SLURM_ARRAY_TASK_ID): tasks differ, reruns repeat", ""};
inline constexpr Option kTaskId{"--task-id", "INT", "Task id for --seed-base",
    "$SLURM_ARRAY_TASK_ID"};

// --- Execution (run.hpp) --------------------------------------------------------------------
inline constexpr Option kDtype{"--dtype", "TYPE",
    "Working element type: auto (the promoted input type), float32, float64, complex64, "
    "complex128", ""};
inline constexpr Option kThreads{"--threads", "INT",
    "Threads that compute, 0 … 4096; 0: $SLURM_CPUS_PER_TASK, else $OMP_NUM_THREADS, else the "
    "CPU affinity mask (never more than the cores allotted)", ""};
inline constexpr Option kHostMemory{"--host-memory", "SIZE",
    "Host memory budget in bytes or with a unit (512MB, 4GiB, …). Environments that do not fit "
    "are spilled to --scratch-dir", "available memory minus 10% and 256 MiB"};
inline constexpr Option kGpuMemory{"--gpu-memory", "SIZE",
    "Device memory budget of the GPU backend, same units as --host-memory",
    "free device memory minus 5% and 512 MiB"};
inline constexpr Option kDevice{"--device", "WHERE",
    "Where to compute: cpu, gpu (= gpu:0), gpu:N, or gpu:0,1,… to split the sketch over "
    "several GPUs (CUDA; same seed, same result to rounding)", ""};
inline constexpr Option kScratchDir{"--scratch-dir", "DIR",
    "Directory for spilled environments; a private subdirectory is made per run and removed "
    "at its end", "$TMPDIR, else /tmp"};
inline constexpr Option kProfileGemm{"--profile-gemm", "",
    "apply/compress/truncate/evolve: time every GEMM by shape (CPU backend) and print the "
    "table on stderr (with --json: as gemm_profile); costs a clock read per GEMM", ""};
inline constexpr Option kMaxTime{"--max-time", "DURATION",
    "Stop cleanly (exit 130, nothing written; evolve keeps its checkpoint) if the run is still "
    "going after this long: 3600, 90s, 15m, 1h30m, 01:30:00, 1-12:00:00", "no limit"};

// --- evolve -------------------------------------------------------------------------------------
inline constexpr Option kSteps{"--steps", "INT", "evolve: how many times the step is applied, >= 1", ""};
inline constexpr Option kNormalize{"--normalize", "",
    "evolve: bring the state back to norm 1 after each step (imaginary time, power iterations); "
    "the norm before is in the trajectory", ""};
inline constexpr Option kDt{"--dt", "REAL",
    "evolve: the time one step stands for; labels the trajectory's time column (without it: the "
    "step's own, where generate step recorded it on the one MPO of the step that carries one, "
    "else the step number)", ""};
inline constexpr Option kMeasure{"--measure", "FILE[:/O]",
    "evolve: an MPO whose ⟨ψ|O|ψ⟩/⟨ψ|ψ⟩ is measured exactly after each step (repeatable; see "
    "--measure-every)", ""};
inline constexpr Option kOverlap{"--overlap", "FILE[:/ref]",
    "evolve: an MPS whose ⟨ref|ψ⟩ is measured after each step (see --measure-every)", ""};
inline constexpr Option kMeasureSiteOp{"--measure-site-op", "OP",
    "evolve: ⟨O_i⟩ at every site after each measured step, for a named operator of the site type (--site; as "
    "expect --site-op): columns OP_0 … OP_{n-1} (and OP_i_im where O is not Hermitian); repeatable", ""};
inline constexpr Option kMeasureEntropy{"--measure-entropy", "",
    "evolve: the von Neumann entropy at every bond after each measured step: columns S_1 … S_{n-1}", ""};
inline constexpr Option kMeasureEvery{"--measure-every", "INT",
    "evolve: measure --measure and --overlap after steps M, 2M, … and the last only (NaN in the "
    "other rows): an exact ⟨O⟩ costs a good part of a step's sweep", "1"};
inline constexpr Option kSaveEvery{"--save-every", "INT",
    "evolve: keep the state after steps M, 2M, … as /states/K (0: none)", ""};
inline constexpr Option kCheckpointEvery{"--checkpoint-every", "INT",
    "evolve: bring the output up to date every K steps (0: every 60 s, or less often where a "
    "checkpoint takes more than a tenth of that; saved states wait in memory for it, up to an "
    "eighth of the host budget)", ""};
inline constexpr Option kResume{"--resume", "",
    "evolve: continue the evolution the output holds (the same inputs and options; --steps may "
    "be larger)", ""};

// --- File formats -----------------------------------------------------------------------------
inline constexpr Option kFormat{"--format", "FORMAT",
    "Format of the input trains: auto (told from each group's structure), srcc, tenpy, itensor "
    "(docs/FORMAT.md)", ""};

inline constexpr Option kTemplate{"--template", "TRAIN",
    "apply, compress, truncate: write the result in the layout of this train's library (TeNPy or ITensor), "
    "its sites, charges and site indices the template, where the state is our own (an evolution's result, "
    "say); same length, kind and physical legs", "the state input"};
inline constexpr Option kOutputFormat{"--output-format", "FORMAT",
    "Layout of the result: srcc (/result as docs/FORMAT.md describes), tenpy or itensor (the "
    "state's file as template: its sites, charges and site indices; /result names the same train)",
    "the state input's format"};

// --- Output and batch behaviour -------------------------------------------------------------
inline constexpr Option kDryRun{"--dry-run", "",
    "apply/compress/truncate/evolve: print the plan (with --json: as JSON; evolve: its first "
    "step's) and exit without reading tensor data", ""};
inline constexpr Option kRanks{"--ranks", "INT",
    "apply/compress with --dry-run: plan the run as INT MPI ranks would share it (which rank "
    "sweeps which terms or sketch columns, its memory and flops, the bytes exchanged), to size a "
    "job from a shell outside the launcher; 1-65536", "the ranks the launcher started"};
inline constexpr Option kForce{"--force", "",
    "Replace an existing output file (generate -o FILE.h5:/group: an existing group)", ""};
inline constexpr Option kSkipExisting{"--skip-existing", "",
    "Leave an output that is complete (/log@complete = 1) alone and count the task as done; an "
    "incomplete one is replaced", ""};
inline constexpr Option kJson{"--json", "",
    "Print a machine-readable JSON summary on stdout (on failure: {\"error\": {code, kind, message}})", ""};
inline constexpr Option kVerbose{"-v,--verbose", "",
    "More log lines on stderr (repeat for more)", ""};
inline constexpr Option kQuiet{"-q,--quiet", "",
    "Only warnings and errors: no progress or info on stderr, no summary of a run on stdout "
    "(what distance, expect, inspect and collect report still is)", ""};

// --- generate --------------------------------------------------------------------------------
inline constexpr Option kSites{"--sites", "INT", "Number of sites n, >= 2", ""};
inline constexpr Option kBond{"--bond", "INT", "Inner bond dimension of a random train, >= 1", ""};
inline constexpr Option kPhys{"--phys", "INT", "Physical dimension, >= 1 (ising: 2)", ""};
inline constexpr Option kCoupling{"--J", "REAL", "Ising ZZ coupling J; xxz: J; hubbard: the hopping t", "1"};
inline constexpr Option kField{"--h", "REAL", "Ising transverse field h; xxz: the field along z; hubbard: the chemical potential μ",
    "ising: 1, xxz and hubbard: 0"};
inline constexpr Option kDelta{"--delta", "REAL", "xxz: the anisotropy Δ (1: the Heisenberg chain)", ""};
inline constexpr Option kSectorSpread{"--sector-spread", "REAL",
    "charged-random: the spread (in 2S^z) of each bond's sector sizes, > 0", ""};
inline constexpr Option kTotalCharge{"--total-charge", "INT",
    "charged-random: the state's total 2S^z, of the number of sites' parity", "the number of sites mod 2"};
inline constexpr Option kConfig{"--config-state", "TEXT",
    "product: each site's state in order, one letter per site: u or d (spin ½ up or down, --phys 2) "
    "or a digit (the basis index, below --phys); \"udud\" is the Néel state on 4 sites", "every site up (index 0)"};
inline constexpr Option kStepDt{"--dt", "REAL", "ising-step, step: the step's time dt", ""};
inline constexpr Option kStepFrom{"--from", "H.h5[:/group]", "step: the Hamiltonian (an MPO in the form generate opsum and TeNPy write)", ""};
inline constexpr Option kStepOrder{"--order", "1|2",
    "step: 1, or 2: W(τ₂)·W(τ₁) with τ₁,₂ = (1 ± i)/2·τ as one MPO of the squared bond, O(dt³) per step", "1"};
inline constexpr Option kApproximation{"--approximation", "I|II",
    "step: W^I keeps the products of terms that share no site, W^II also those that meet on one (both O(dt²) per step)", "II"};
inline constexpr Option kSiteType{"--site", "TYPE",
    "generate opsum and product, expect, evolve: the kind of every site: spin-half, spin-one, fermion (spinless), electron "
    "(spin-½ fermions) or boson:K (at most K per site); its operators are listed in docs/USAGE.md",
    "generate: spin-half; expect, evolve: spin-half for sites of dimension 2, spin-one for 3"};
inline constexpr Option kBasisOf{"--basis-of", "TRAIN",
    "opsum: write the operator in the physical basis a train's file names (a TeNPy SpinSite state's (down, up), "
    "say), so that products with it are of the intended operators and their bases check", ""};
inline constexpr Option kPattern{"--pattern", "neel|domain-wall",
    "product: a Néel (alternating) or domain-wall (first half, second half) state of the site type's two "
    "pattern states: spin-half ↑ ↓, spin-one +1 −1, fermion full empty, electron ↑ ↓, boson 1 0", ""};
inline constexpr Option kTrace{"--trace", "",
    "expect: Tr ρ of an MPO state ρ, with or without operators (an MPO state always prints it beside Tr(ρ O)/Tr ρ)", ""};
inline constexpr Option kSiteOp{"--site-op", "OP",
    "expect: ⟨O_i⟩ at every site for a named operator of the site type (Sz, N, Cdag*C: a product on one site); repeatable", ""};
inline constexpr Option kCorrelation{"--correlation", "A,B",
    "expect: the correlations ⟨A_i B_j⟩ of every pair of sites (fermions with their strings); repeatable", ""};
inline constexpr Option kCorrelationSites{"--site-range", "I:J", "expect: the correlations of sites I … J−1 only", "every site"};
inline constexpr Option kConnected{"--connected", "", "expect: the connected correlations ⟨A_i B_j⟩ − ⟨A_i⟩⟨B_j⟩", ""};
inline constexpr Option kTerm{"--term", "TEXT",
    "opsum: one term \"COEF OP SITE [OP SITE …]\", e.g. \"0.5 Sp 0 Sm 1\" or \"-1 Cdag 0 C 3\" (COEF real or "
    "complex, 1+2j); repeatable; fermion operators get their Jordan-Wigner strings", ""};
inline constexpr Option kTermsFile{"--terms", "FILE", "opsum: a text file of terms, one per line as --term takes them ('#' comments)", ""};
inline constexpr Option kTranslate{"--translate", "",
    "opsum: repeat every term at each position along the chain where it fits (its sites are offsets; open ends)", ""};
inline constexpr Option kInteraction{"--U", "REAL", "hubbard: the on-site interaction U", "1"};
inline constexpr Option kImaginaryTime{"--imaginary-time", "",
    "ising-step, step: e^{-dt H} (imaginary time) instead of e^{-i dt H}; evolve --taylor: "
    "Σ (-dt H)^m/m! instead of Σ (-i dt H)^m/m!", ""};
inline constexpr Option kTaylor{"--taylor", "K",
    "evolve: the trains before the state are the Hamiltonian H (MPOs whose product is H), and "
    "each step is the Taylor polynomial Σ_{m<=K} (-i dt H)^m/m! applied as one compressed sum "
    "(apply --term's single sweep); needs --dt; K in [1, 8] (term m stacks H m times: its cost "
    "grows like D^m for H of bond D)", "0: the trains are the step"};

}  // namespace srcc::opt

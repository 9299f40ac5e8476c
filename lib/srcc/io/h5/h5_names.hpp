#pragma once
// Every HDF5 path, attribute and field name of the file contract (docs/FORMAT.md,
// schema version 1) in one place.
namespace srcc::h5names {

inline constexpr int kSchemaVersion = 1;

// Train groups.
inline constexpr const char* kAttrType = "type";      // "MPS" | "MPO"
inline constexpr const char* kAttrLayout = "layout";  // leg letters
inline constexpr const char* kAttrLength = "length";  // number of sites

// Complex compound member names we read ({r,i} is what we write).
inline constexpr const char* kReal = "r";
inline constexpr const char* kImag = "i";
inline constexpr const char* kRealLong = "real";
inline constexpr const char* kImagLong = "imag";

// Output file.
inline constexpr const char* kResult = "/result";
// A train's scale beyond its sites' (optional, float64): the train is e^{log_scale} times the
// train its sites make (a norm a double cannot hold: 1e-500, 1e+900).
inline constexpr const char* kAttrLogScale = "log_scale";
// The physical basis states of every site, in order, comma-separated (optional: "up,down"): what
// lets a product with another library's train check that both name their states alike.
inline constexpr const char* kAttrBasis = "basis";
// A time step's MPO as generate step and ising-step write it (optional): the time dt it stands
// for (float64), which evolve takes for its time column when --dt is not given, and whether it
// is e^{-dt H} rather than e^{-i dt H} (int 0/1, for the reader's information).
inline constexpr const char* kAttrStepDt = "dt";
inline constexpr const char* kAttrImaginaryTime = "imaginary_time";
inline constexpr const char* kLog = "/log";
inline constexpr const char* kTransfers = "/log/transfers";
inline constexpr const char* kSites = "/log/sites";

// An evolution's output (evolve).
inline constexpr const char* kTrajectory = "/trajectory";  // one row per step
inline constexpr const char* kStates = "/states";          // /states/K: the state after step K
inline constexpr const char* kAttrColumns = "columns";     // JSON: each column's name, unit, meaning
inline constexpr const char* kAttrCommand = "command";     // apply, compress, truncate, evolve
inline constexpr const char* kAttrSteps = "steps";         // steps asked for
inline constexpr const char* kAttrStepsDone = "steps_done";  // steps the file holds
inline constexpr const char* kAttrFingerprint = "fingerprint";  // inputs and options, a key=value line each
inline constexpr const char* kAttrDt = "dt";                  // --dt (0: none)
inline constexpr const char* kAttrNormalize = "normalize";    // --normalize (1) or not (0)
inline constexpr const char* kAttrRunId = "run_id";           // which run wrote this version
inline constexpr const char* kAttrSavedStates = "saved_states";  // the K of every /states/K, blank-separated

// /log attributes.
inline constexpr const char* kAttrSchemaVersion = "schema_version";
inline constexpr const char* kAttrToolVersion = "tool_version";
inline constexpr const char* kAttrCommandLine = "command_line";
inline constexpr const char* kAttrPlan = "plan";
inline constexpr const char* kAttrDevices = "devices";
inline constexpr const char* kAttrBlas = "blas";
inline constexpr const char* kAttrThreads = "threads";
inline constexpr const char* kAttrThreadsSource = "threads_source";  // why that many
inline constexpr const char* kAttrSeed = "seed";
inline constexpr const char* kAttrMethod = "method";        // src, sdc, sdcr or svd (truncate)
inline constexpr const char* kAttrFit = "fit_sweeps";       // JSON: each fit sweep's norm, gain, seconds
inline constexpr const char* kAttrTerms = "terms";          // JSON: a sum's terms, each {"weight": [re, im], "trains": [...]}
inline constexpr const char* kAttrStart = "start_time";
inline constexpr const char* kAttrEnd = "end_time";
inline constexpr const char* kAttrWall = "wall_seconds";
inline constexpr const char* kAttrSummary = "summary";      // JSON summary of the run
inline constexpr const char* kAttrErrorEstimate = "error_estimate";  // global, relative
inline constexpr const char* kAttrNotes = "notes";          // what the run could not check
inline constexpr const char* kAttrOutputFormat = "output_format";  // /result's layout if not ours
inline constexpr const char* kAttrDroppedWeight = "dropped_weight";  // outside the total charge
inline constexpr const char* kAttrComplete = "complete";    // 1 once everything is written

// /log/transfers columns.
inline constexpr const char* kColSeq = "seq";
inline constexpr const char* kColWhat = "what";
inline constexpr const char* kColSite = "site";
inline constexpr const char* kColMechanism = "mechanism";
inline constexpr const char* kColDeclined = "declined";
inline constexpr const char* kColSource = "source";
inline constexpr const char* kColTarget = "target";
inline constexpr const char* kColDtypeFrom = "dtype_from";
inline constexpr const char* kColDtypeTo = "dtype_to";
inline constexpr const char* kColBytes = "bytes";
inline constexpr const char* kColSeconds = "seconds";
inline constexpr const char* kColEvents = "events";

// /log/sites columns (besides site and seconds above).
inline constexpr const char* kColBondLeft = "bond_left";
inline constexpr const char* kColBondRight = "bond_right";
inline constexpr const char* kColSketchColumns = "sketch_columns";
inline constexpr const char* kColErrorEstimate = "error_estimate";
inline constexpr const char* kColNormEstimate = "norm_estimate";
inline constexpr const char* kColTruncationError = "truncation_error";

}  // namespace srcc::h5names

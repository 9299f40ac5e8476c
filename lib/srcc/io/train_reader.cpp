#include "srcc/io/train_reader.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "srcc/core/error.hpp"
#include "srcc/io/formats.hpp"
#include "srcc/io/h5/h5_dataset.hpp"
#include "srcc/io/h5/h5_handle.hpp"
#include "srcc/io/pipe_bytes.hpp"
#include "srcc/io/read_probe.hpp"
#include "srcc/io/srcc/srcc_train.hpp"
#include "srcc/io/tenpy/tenpy_objects.hpp"
#include "srcc/io/train_discovery.hpp"

namespace srcc {

using h5::Handle;

std::unique_ptr<FormatTrain> open_format_train(hid_t file, const PinnedFile& pin,
                                               const std::string& group, TrainFormat format) {
  for (const auto& row : format_table())
    if (row.format == format) return row.open(file, pin, group);
  return std::make_unique<SrccTrain>(file, pin, group);  // kAuto: ours
}

std::optional<PhysicalCharges> train_charges(const TrainInfo& info) {
  for (const auto& row : format_table())
    if (row.format == info.format) return row.charges(info);
  return std::nullopt;
}

namespace {

std::string list_of(const std::vector<FoundTrain>& found) {
  std::string list;
  for (const auto& t : found)
    list += (list.empty() ? "" : ", ") + t.group + " (" + std::string(train_format_name(t.format)) + ")";
  return list.empty() ? "none" : list;
}

// The group and format a reference means: the file's only train when no group is named; else
// the group, in the format given or told from its structure.
std::pair<std::string, TrainFormat> resolve(hid_t file, const TrainRef& ref) {
  if (ref.group.empty()) {
    const auto found = find_trains(file, ref.file);
    if (found.empty())
      throw InputError(ref.file + ": holds no train (no group that is an MPS or MPO of src-compress, "
                                  "TeNPy or ITensor)");
    if (found.size() > 1)
      throw InputError(ref.file + ": holds " + std::to_string(found.size()) + " trains (" + list_of(found) +
                       "); name one as " + ref.file + ":/group");
    return {found.front().group, ref.format == TrainFormat::kAuto ? found.front().format : ref.format};
  }
  const std::string where = ref.file + ":" + ref.group;
  if (ref.group.front() != '/')
    throw InputError(where + ": a group is named from the root, starting with '/' (" + ref.file + ":/" +
                     ref.group + ")");
  if (!h5::exists(file, ref.group)) {
    const auto trains = find_trains(file, ref.file);
    auto lower = [](std::string s) {
      for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    };
    std::string near;
    for (const auto& t : trains)
      if (lower(t.group) == lower(ref.group)) near = " (did you mean " + ref.file + ":" + t.group + "?)";
    throw InputError(where + ": no such group" + near + "; the file's trains: " + list_of(trains));
  }
  if (ref.format != TrainFormat::kAuto) return {ref.group, ref.format};
  const TrainFormat f = detect_format(file, ref.group, where);
  if (f != TrainFormat::kAuto) return {ref.group, f};
  // No train of any format: our own reader says what is missing ('type', datasets 0 … n−1),
  // unless it is another program's object (TeNPy marks every object with a 'type').
  Handle g(H5Oopen(file, ref.group.c_str(), H5P_DEFAULT), H5Oclose);
  if (g.valid() && h5::has_attr(g.get(), "type")) {
    const std::string type = h5::read_string_attr(g.get(), "type", where);
    const bool tenpy = type == "instance" || type == "simple_dict" || type == "dict" || type == "list";
    if (tenpy)
      throw InputError(where + ": a TeNPy " +
                       (type == "instance" && h5::has_attr(g.get(), "class")
                            ? h5::read_string_attr(g.get(), "class", where)
                            : type) +
                       ", not an MPS or MPO; the file's trains: " + list_of(find_trains(file, ref.file)));
  }
  return {ref.group, TrainFormat::kSrcc};
}

}  // namespace

std::vector<ListedTrain> list_trains(const std::string& file) {
  const PinnedFile pin(file);
  Handle f = h5::open_pinned(pin);
  std::vector<ListedTrain> out;
  for (const auto& t : find_trains(f.get(), file)) {
    ListedTrain listed{t.group, t.format, std::nullopt, ""};
    try {
      listed.info = open_format_train(f.get(), pin, t.group, t.format)->info();
    } catch (const InputError& e) {
      listed.refused = e.what();
    }
    out.push_back(std::move(listed));
  }
  return out;
}

struct TrainReader::Impl {
  std::shared_ptr<const PinnedFile> pin;
  Handle file;
  std::unique_ptr<FormatTrain> train;
};

TrainReader::TrainReader(const TrainRef& ref)
    : TrainReader(ref, std::make_shared<const PinnedFile>(ref.file)) {}

TrainReader::TrainReader(const TrainRef& ref, std::shared_ptr<const PinnedFile> pin)
    : impl_(std::make_unique<Impl>()) {
  impl_->pin = std::move(pin);
  impl_->file = h5::open_pinned(*impl_->pin);
  const auto [group, format] = resolve(impl_->file.get(), ref);
  impl_->train = open_format_train(impl_->file.get(), *impl_->pin, group, format);
}

TrainReader::TrainReader(const TrainRef& ref, TrainInfo described,
                         std::shared_ptr<const PinnedFile> pin)
    : impl_(std::make_unique<Impl>()) {
  (void)ref;
  impl_->pin = std::move(pin);
  impl_->file = h5::open_pinned(*impl_->pin);
  // Our own format is taken from the description; another format's reader keeps state of its
  // own (block structure, factors), made again here — TeNPy's Arrays from what the check sent
  // (open_pinned_trains), the rest read again.
  impl_->train = described.format == TrainFormat::kSrcc
                     ? srcc_train_from(impl_->file.get(), *impl_->pin, std::move(described))
                     : open_format_train(impl_->file.get(), *impl_->pin, described.group, described.format);
}

TrainReader::~TrainReader() = default;
TrainReader::TrainReader(TrainReader&&) noexcept = default;
TrainReader& TrainReader::operator=(TrainReader&&) noexcept = default;

void TrainReader::check_unchanged() const { impl_->pin->check_unchanged(); }

const TrainInfo& TrainReader::info() const { return impl_->train->info(); }

AnyTensor TrainReader::read_site(std::size_t site, TransferLog& log) const {
  return impl_->train->read_site(site, log);
}

std::optional<AnyBoxes> TrainReader::read_site_boxes(std::size_t site, TransferLog& log) const {
  return impl_->train->read_site_boxes(site, log);
}

namespace {

// A train's description in bytes, for the read check's pipe: little more than numbers.
std::string to_bytes(const TrainInfo& t) {
  Bytes b;
  b.str(t.file);
  b.str(t.group);
  b.u64(static_cast<std::uint64_t>(t.format));
  b.u64(static_cast<std::uint64_t>(t.kind));
  b.str(t.layout);
  b.u64(t.layout_assumed ? 1 : 0);
  b.u64(t.length());
  for (std::size_t j = 0; j < t.length(); ++j) {
    b.str(t.dataset_letters[j]);
    b.u64(t.dataset_shapes[j].size());
    for (auto d : t.dataset_shapes[j]) b.u64(d);
    b.u64(static_cast<std::uint64_t>(t.dtypes[j]));
    b.u64(static_cast<std::uint64_t>(j < t.raw_offsets.size() ? t.raw_offsets[j] : -1));
    for (auto d : t.dims[j]) b.u64(d);
  }
  b.u64(std::bit_cast<std::uint64_t>(t.log_scale));
  b.u64(std::bit_cast<std::uint64_t>(t.step_dt));
  b.u64(t.basis.size());
  for (const auto& site : t.basis) {
    b.u64(site.size());
    for (const auto& name : site) b.str(name);
  }
  return b.take();
}

TrainInfo from_bytes(std::string_view bytes) {
  Unbytes b(bytes);
  TrainInfo t;
  t.file = b.str();
  t.group = b.str();
  t.format = static_cast<TrainFormat>(b.u64());
  t.kind = static_cast<TrainKind>(b.u64());
  t.layout = b.str();
  t.layout_assumed = b.u64() != 0;
  const std::uint64_t n = b.u64();
  for (std::uint64_t j = 0; j < n; ++j) {
    t.dataset_letters.push_back(b.str());
    std::vector<std::size_t> shape(b.u64());
    for (auto& d : shape) d = b.u64();
    t.dataset_shapes.push_back(std::move(shape));
    t.dtypes.push_back(static_cast<DType>(b.u64()));
    t.raw_offsets.push_back(static_cast<std::int64_t>(b.u64()));
    SiteDims dims{};
    for (auto& d : dims) d = b.u64();
    t.dims.push_back(dims);
  }
  t.log_scale = std::bit_cast<double>(b.u64());
  t.step_dt = std::bit_cast<double>(b.u64());
  t.basis.resize(b.u64());
  for (auto& site : t.basis) {
    site.resize(b.u64());
    for (auto& name : site) name = b.str();
  }
  return t;
}

}  // namespace

namespace {

// One attempt of open_trains with the files pinned in `pins` (one per distinct file, in order).
std::vector<TrainReader> open_pinned_trains(const std::vector<TrainRef>& refs,
                                            const std::vector<std::string>& files,
                                            const std::vector<std::shared_ptr<const PinnedFile>>& pins) {
  auto index_of = [&](const std::string& file) {
    return static_cast<std::size_t>(std::find(files.begin(), files.end(), file) - files.begin());
  };
  // The child describes every train of a file (all the metadata the run will read); the
  // descriptions of a file's trains come back concatenated, each with its length, then the
  // TeNPy Arrays it read. The site data is not read there: its datatypes were already
  // examined, and reading it twice would cost more than the whole check. The library is set up once, here, so that the children
  // inherit it instead of each setting it up again.
  H5open();
  const auto described = probe_files(files, [&](const std::string& file) {
    Bytes b;
    for (const auto& ref : refs) {
      if (ref.file != file) continue;
      b.str(to_bytes(TrainReader(ref, pins[index_of(file)]).info()));
    }
    // TeNPy's Arrays, whose block structure a TeNPy train's reader keeps: read once, here.
    b.str(tenpy::known_arrays());
    return b.take();
  });
  std::vector<TrainReader> out;
  std::vector<std::size_t> used(files.size(), 0);  // descriptions taken per file
  std::vector<std::vector<std::string>> infos(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    Unbytes b(described[f]);
    for (const auto& ref : refs)
      if (ref.file == files[f]) infos[f].push_back(b.str());
    tenpy::learn_arrays(b.str());
  }
  for (const auto& ref : refs) {
    const std::size_t f = index_of(ref.file);
    out.emplace_back(ref, from_bytes(infos[f][used[f]++]), pins[f]);
  }
  return out;
}

}  // namespace

std::vector<TrainReader> open_trains(const std::vector<TrainRef>& refs) {
  std::vector<std::string> files;
  for (const auto& r : refs)
    if (std::find(files.begin(), files.end(), r.file) == files.end()) files.push_back(r.file);
  // A file replaced between its pinning and an HDF5 open (by name) fails the open; then all is
  // done again on the new version, a few times before giving up.
  constexpr int kAttempts = 5;
  for (int attempt = 1;; ++attempt) {
    std::vector<std::shared_ptr<const PinnedFile>> pins;
    for (const auto& f : files) pins.push_back(std::make_shared<const PinnedFile>(f));
    try {
      return open_pinned_trains(refs, files, pins);
    } catch (const InputError&) {
      const bool moved = std::any_of(pins.begin(), pins.end(),
                                     [](const auto& p) { return !p->still_named(); });
      if (!moved || attempt == kAttempts) throw;
    }
  }
}

}  // namespace srcc

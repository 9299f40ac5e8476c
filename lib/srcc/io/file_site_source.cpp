#include "srcc/io/file_site_source.hpp"

#include "srcc/train/site_loader.hpp"

namespace srcc {

template <class T>
FileSiteSource<T>::FileSiteSource(std::vector<TrainReader>& readers, TransferLog& log)
    : readers_(readers), log_(log), n_(readers.empty() ? 0 : readers.front().info().length()) {}

namespace {

// What the read-ahead `ahead` holds when it read site j (get() also rethrows its read error, a
// bad dataset, on this thread); a read-ahead of another site is waited for and dropped, its error
// too: that site's own read will meet it.
template <class V> V take_ahead(std::future<V>& ahead, long index, std::size_t j) {
  if (!ahead.valid()) return {};
  if (index == static_cast<long>(j)) return ahead.get();
  ahead.wait();
  ahead = {};
  return {};
}

}  // namespace

template <class T> FileSiteSource<T>::~FileSiteSource() { settle(); }

template <class T> void FileSiteSource<T>::settle() {
  if (ahead_.valid()) ahead_.wait();
  if (stored_ahead_.valid()) stored_ahead_.wait();
}

template <class T>
template <class V, class F>
void FileSiteSource<T>::read_ahead(std::future<V>& ahead, F load) {
  auto task = std::make_shared<std::packaged_task<V()>>(std::move(load));
  ahead = task->get_future();
  reader_.post([task] { (*task)(); });
}

template <class T> std::vector<Tensor<T>> FileSiteSource<T>::load(std::size_t j) {
  std::vector<Tensor<T>> out;
  for (auto& r : readers_) out.push_back(to_internal<T>(r.read_site(j, log_), r.info(), j, log_));
  return out;
}

template <class T> std::vector<StoredSite<T>> FileSiteSource<T>::load_stored(std::size_t j) {
  std::vector<StoredSite<T>> out;
  for (auto& r : readers_) out.push_back(stored_site_of<T>(r, j, log_));
  return out;
}

template <class T> std::vector<Tensor<T>> FileSiteSource<T>::site(std::size_t j) {
  take_ahead(stored_ahead_, stored_index_, j);  // HDF5 from one thread at a time
  std::vector<Tensor<T>> out = take_ahead(ahead_, ahead_index_, j);
  if (out.empty()) out = load(j);
  const long dir = last_ < 0 ? 1 : (static_cast<long>(j) >= last_ ? 1 : -1);
  last_ = static_cast<long>(j);
  const long next = static_cast<long>(j) + dir;
  if (next >= 0 && next < static_cast<long>(n_)) {
    ahead_index_ = next;
    read_ahead(ahead_, [this, next] { return load(static_cast<std::size_t>(next)); });
  }
  return out;
}

template <class T> std::vector<StoredSite<T>> FileSiteSource<T>::stored_site(std::size_t j) {
  take_ahead(ahead_, ahead_index_, j);  // HDF5 from one thread at a time
  std::vector<StoredSite<T>> out = take_ahead(stored_ahead_, stored_index_, j);
  if (out.empty()) out = load_stored(j);
  if (j + 1 < n_) {
    stored_index_ = static_cast<long>(j + 1);
    read_ahead(stored_ahead_, [this, j] { return load_stored(j + 1); });
  }
  return out;
}

#define SRCC_INSTANTIATE(T) template class FileSiteSource<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

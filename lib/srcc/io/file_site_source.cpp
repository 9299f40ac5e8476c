#include "srcc/io/file_site_source.hpp"

#include "srcc/train/site_loader.hpp"

namespace srcc {

template <class T>
FileSiteSource<T>::FileSiteSource(std::vector<TrainReader>& readers, TransferLog& log)
    : readers_(readers), log_(log), n_(readers.empty() ? 0 : readers.front().info().length()) {}

template <class T> FileSiteSource<T>::~FileSiteSource() {
  if (ahead_.valid()) ahead_.wait();
}

template <class T> std::vector<Tensor<T>> FileSiteSource<T>::load(std::size_t j) {
  std::vector<Tensor<T>> out;
  for (auto& r : readers_) out.push_back(to_internal<T>(r.read_site(j, log_), r.info(), j, log_));
  return out;
}

template <class T> std::vector<Tensor<T>> FileSiteSource<T>::site(std::size_t j) {
  std::vector<Tensor<T>> out;
  if (ahead_.valid()) {
    // get() also rethrows a read error (a bad dataset) on this thread.
    auto ready = ahead_.get();
    if (ahead_index_ == static_cast<long>(j)) out = std::move(ready);
  }
  if (out.empty()) out = load(j);
  const long dir = last_ < 0 ? 1 : (static_cast<long>(j) >= last_ ? 1 : -1);
  last_ = static_cast<long>(j);
  const long next = static_cast<long>(j) + dir;
  if (next >= 0 && next < static_cast<long>(n_)) {
    ahead_index_ = next;
    auto task = std::make_shared<std::packaged_task<std::vector<Tensor<T>>()>>(
        [this, next] { return load(static_cast<std::size_t>(next)); });
    ahead_ = task->get_future();
    reader_.post([task] { (*task)(); });
  }
  return out;
}

template <class T> std::vector<StoredSite<T>> FileSiteSource<T>::stored_site(std::size_t j) {
  if (ahead_.valid()) {
    ahead_.wait();
    ahead_ = {};
  }
  std::vector<StoredSite<T>> out;
  for (auto& r : readers_) out.push_back(stored_site_of<T>(r, j, log_));
  return out;
}

#define SRCC_INSTANTIATE(T) template class FileSiteSource<T>;
SRCC_FOR_EACH_SCALAR(SRCC_INSTANTIATE)
#undef SRCC_INSTANTIATE

}  // namespace srcc

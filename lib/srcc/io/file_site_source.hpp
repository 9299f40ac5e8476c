#pragma once
// Sites read from the input files on demand, converted to the working type and internal order,
// with the next site (in the direction of the last two requests) read ahead while the sweep
// computes. The read-ahead runs on one thread that lives as long as the source: a thread per
// site cost a clone, a fresh stack's page faults and a join each, which at small bonds was a
// visible part of a site's time. HDF5 is only ever called from one thread at a time.
#include <future>
#include <memory>
#include <vector>

#include "srcc/core/background.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/site_loader.hpp"
#include "srcc/train/site_source.hpp"

namespace srcc {

// Site j of one reader as its file stores it, in the working type and internal order.
template <class T> StoredSite<T> stored_site_of(TrainReader& r, std::size_t j, TransferLog& log) {
  if (auto boxes = r.read_site_boxes(j, log)) return boxes_to_internal<T>(std::move(*boxes), r.info(), j, log);
  return to_internal<T>(r.read_site(j, log), r.info(), j, log);
}

template <class T> class FileSiteSource final : public SiteSource<T> {
 public:
  FileSiteSource(std::vector<TrainReader>& readers, TransferLog& log);
  ~FileSiteSource() override;
  std::vector<Tensor<T>> site(std::size_t j) override;
  // A charged run's stack is read once, left to right, before its sweep: site j + 1 is read
  // ahead while the caller splits site j into blocks.
  std::vector<StoredSite<T>> stored_site(std::size_t j) override;
  void settle() override;

 private:
  std::vector<Tensor<T>> load(std::size_t j);
  std::vector<StoredSite<T>> load_stored(std::size_t j);
  // `load` posted to the reader thread, its result to come in `ahead`.
  template <class V, class F> void read_ahead(std::future<V>& ahead, F load);

  std::vector<TrainReader>& readers_;
  TransferLog& log_;
  std::size_t n_;
  long last_ = -1;
  long ahead_index_ = -1, stored_index_ = -1;  // the sites the read-aheads hold
  std::future<std::vector<Tensor<T>>> ahead_;
  std::future<std::vector<StoredSite<T>>> stored_ahead_;
  Background reader_;  // last: stopped (after its task) before the members the task uses go
};

// One train's sites straight from its reader, in the working type and internal order, no read-ahead
// (the measurements read each site once, in order).
template <class T> class ReaderSiteSource final : public SiteSource<T> {
 public:
  ReaderSiteSource(TrainReader& r, TransferLog& log) : r_(r), log_(log) {}
  std::vector<Tensor<T>> site(std::size_t j) override { return {to_internal<T>(r_.read_site(j, log_), r_.info(), j, log_)}; }
  std::vector<StoredSite<T>> stored_site(std::size_t j) override { return {stored_site_of<T>(r_, j, log_)}; }

 private:
  TrainReader& r_;
  TransferLog& log_;
};

}  // namespace srcc

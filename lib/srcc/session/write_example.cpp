#include "srcc/session/write_example.hpp"

#include <algorithm>

#include "srcc/core/error.hpp"
#include "srcc/core/options.hpp"
#include "srcc/core/size.hpp"
#include "srcc/io/h5/h5_names.hpp"
#include "srcc/io/output_file.hpp"
#include "srcc/io/train_reader.hpp"
#include "srcc/train/site_loader.hpp"
#include "srcc/io/result_writer.hpp"
#include "srcc/plan/budgets.hpp"

namespace srcc {

TrainRef write_example(const WriteExampleOptions& o, std::size_t* sites) {
  ExampleOptions e = o.example;
  if (e.example == Example::kStep && !e.from.empty()) {
    // The Hamiltonian whole (an MPO's sites are small), with the charges it carries.
    TrainReader h(parse_train_ref(e.from));
    if (h.info().kind != TrainKind::kMpo) throw UsageError(opt::kStepFrom.name() + " " + e.from + ": the Hamiltonian must be an MPO");
    TransferLog read;
    for (std::size_t j = 0; j < h.info().length(); ++j) e.hamiltonian.push_back(to_internal<cdouble>(h.read_site(j, read), h.info(), j, read));
    e.hamiltonian_charges = train_charges(h.info());
    e.from_basis = uniform_basis(h.info());
    try {
      prepare_example(e);
    } catch (const InputError& error) {
      throw InputError(h.info().where() + ": " + error.what());
    }
  } else {
    if (!e.basis_of.empty()) {
      if (e.example != Example::kOpsum) throw UsageError(opt::kBasisOf.name() + ": only for generate opsum");
      const TrainReader t(parse_train_ref(e.basis_of));
      e.template_basis = uniform_basis(t.info());
      if (e.template_basis.empty())
        throw UsageError(opt::kBasisOf.name() + " " + e.basis_of + ": " + t.info().where() + " names no basis for its sites");
    }
    prepare_example(e);
  }
  const ExampleRow& row = example_row(e.example);
  TrainRef ref = o.output;
  const bool group_given = !ref.group.empty();
  if (ref.group == "/") throw UsageError("-o " + ref.file + ":/: give the train a group, e.g. FILE.h5:/psi");
  if (!group_given) ref.group = std::string(row.group);
  check_example(e);
  const DType dt = example_dtype(e);
  // FILE.h5:/group adds the group to FILE.h5 (or creates it); FILE.h5 alone writes a new file.
  ResultWriter out(ref.file, o.force, group_given ? ResultWriter::Mode::kAddGroup : ResultWriter::Mode::kNewFile,
                   ref.group);
  // One site at a time: the train never has to fit in memory, one site must.
  const std::size_t bond = example_bond(e);
  const double site_bytes = static_cast<double>(bond) * static_cast<double>(bond) * static_cast<double>(e.phys) *
                            static_cast<double>(row.kind == TrainKind::kMps ? 1 : e.phys) *
                            static_cast<double>(dtype_size(dt));
  const std::uint64_t budget = host_budget(o.host_memory);
  if (site_bytes > static_cast<double>(budget))
    throw ResourceError("generate " + std::string(row.name) + ": one site of bond " + std::to_string(bond) + " needs " +
                        format_size(static_cast<std::uint64_t>(std::min(site_bytes, 1.8e19))) +
                        " but the host budget is " + format_size(budget) + " (" + opt::kHostMemory.name() + ")");
  check_disk_room(ref.file, static_cast<std::uint64_t>(std::min(site_bytes * static_cast<double>(e.sites), 1.8e19)),
                  "generate " + std::string(row.name) + " (" + std::to_string(e.sites) + " sites of bond " +
                      std::to_string(bond) + ")");
  TransferLog unused;
  visit_dtype(dt, [&](auto zero) {
    using T = decltype(zero);
    Rng rng(e.seed);
    out.write_train<T>(ref.group, row.kind, e.sites, [&](std::size_t j) { return example_site<T>(e, j, rng); }, unused,
                       "generated site");
  });
  if (const auto charges = example_charges(e)) out.write_charges(ref.group, *charges);
  out.write_basis(ref.group, example_basis(e));
  if (e.example == Example::kStep || e.example == Example::kIsingStep) {
    out.double_attr(ref.group, h5names::kAttrStepDt, e.dt);
    out.int_attr(ref.group, h5names::kAttrImaginaryTime, e.imaginary ? 1 : 0);
  }
  out.commit();
  if (sites) *sites = e.sites;
  return ref;
}

}  // namespace srcc

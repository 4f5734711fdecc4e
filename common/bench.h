// common/bench.h — `--bench --kernel NAME`: time one kernel, with its references (the copy, the
// cudaMemcpy row, the library peer), instead of every kernel.
//
//   wb::KernelPick pick(args, {"reduceVec4", "cub_DeviceReduce_Sum"});   // after the other options
//   ...
//   if (pick("reduceVec4")) ...time it...
//   if (pick.reference("cub_DeviceReduce_Sum")) ...   // the peer: timed whatever --kernel names
//
// An unknown NAME is bad input (exit 2, before any GPU work), and the message lists the names.
#pragma once

#include <string>
#include <vector>

#include "args.h"
#include "check.h"

namespace wb {

class KernelPick {
 public:
  KernelPick(Args& args, std::vector<std::string> names) : names_(std::move(names)) {
    args.only_with("--bench", {"--kernel"});
    name_ = args.text("--kernel", "");
    if (name_.empty()) return;
    for (const auto& n : names_)
      if (n == name_) return;
    std::string list;
    for (const auto& n : names_) list += (list.empty() ? "" : ", ") + n;
    bad_input("--kernel " + name_ + " is not a timed kernel of this program, whose names are: " + list);
  }

  // Time this kernel? (every kernel without --kernel)
  bool operator()(const std::string& name) const { return name_.empty() || name == name_; }
  // A reference row (copy, cudaMemcpy, the library peer): timed with any --kernel.
  bool reference(const std::string&) const { return true; }
  bool all() const { return name_.empty(); }
  const std::string& name() const { return name_; }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::string name_;
};

}  // namespace wb

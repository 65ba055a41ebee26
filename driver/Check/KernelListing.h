//===- KernelListing.h - print a kernel inventory -------------*- C++ -*-===//
//
// The human-readable form of --list-kernels; --format=json prints the
// inventory's JSON instead.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_KERNELLISTING_H
#define OPTIML_DRIVER_KERNELLISTING_H

#include "optiml/IR/KernelInfo.h"

#include "llvm/Support/raw_ostream.h"

namespace optiml {

void printKernelListing(const KernelInventory &Inventory,
                        const std::vector<const KernelInfo *> &Selected,
                        llvm::raw_ostream &OS);

} // namespace optiml

#endif // OPTIML_DRIVER_KERNELLISTING_H

//===- CacheFile.cpp - the results cache as a JSON file -------------------===//

#include "driver/Cache/CacheFile.h"
#include "optiml/Protocol/Document.h"
#include "optiml/Search/Trace.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/OutputPath.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;
using protocol::Json;

namespace {

/// A result as the file spells it: the steps as a list, one per element,
/// so a person can read and edit them.
struct FileResult {
  ResultRecord R;
  std::vector<std::string> Steps;
};

/// A SHA-256 in hex, as KernelSource::hash() writes it.
bool isHexHash(const std::string &S) {
  return S.size() == 64 && llvm::all_of(S, llvm::isHexDigit);
}

void readHash(const Json &Obj, const char *Key, std::string &Out) {
  protocol::field(Obj, Key, Out);
  if (!isHexHash(Out))
    protocol::fail(Key, "expected a SHA-256 in hex (64 digits)");
}

/// Found by the protocol's vector reader (argument-dependent lookup).
void read(const Json &V, FileResult &Out) {
  protocol::expectObject(V);
  ResultRecord &R = Out.R;
  protocol::field(V, "kernel", R.Kernel);
  readHash(V, "kernel_hash", R.KernelHash);
  readHash(V, "spec_hash", R.SpecHash);
  protocol::field(V, "arch", R.Arch);
  protocol::field(V, "gpu", R.Gpu);
  protocol::field(V, "cuda", R.Cuda);
  protocol::field(V, "tool", R.Tool);
  protocol::field(V, "flags", R.Flags);
  protocol::field(V, "steps", Out.Steps);
  protocol::field(V, "result", R.ResultText);
  protocol::field(V, "speedup", R.Speedup);
  protocol::fieldOr(V, "created_at", R.CreatedAt);
  if (!(R.Speedup > 0))
    protocol::fail("speedup", "expected a positive number");
  if (R.ResultText.empty())
    protocol::fail("result", "empty");
  for (size_t I = 0; I < Out.Steps.size(); ++I)
    if (auto S = parseStepSpelling(Out.Steps[I]); !S)
      protocol::fail("steps[" + std::to_string(I) + "]",
                     llvm::toString(S.takeError()));
}

} // namespace

std::string optiml::cacheFileText(llvm::ArrayRef<ResultRecord> Records) {
  Json Results = Json::array();
  for (const ResultRecord &R : Records) {
    auto Steps = parseTrace(R.Steps);
    std::vector<std::string> Spelled;
    if (Steps)
      for (const Step &S : *Steps)
        Spelled.push_back(S.str());
    else
      llvm::consumeError(Steps.takeError()); // Checked when stored.
    Results.push_back({{"kernel", R.Kernel},
                       {"kernel_hash", R.KernelHash},
                       {"spec_hash", R.SpecHash},
                       {"arch", R.Arch},
                       {"gpu", R.Gpu},
                       {"cuda", R.Cuda},
                       {"tool", R.Tool},
                       {"flags", R.Flags},
                       {"steps", Spelled},
                       {"result", R.ResultText},
                       {"speedup", R.Speedup},
                       {"created_at", R.CreatedAt}});
  }
  Json Doc = {{"format", CacheFileFormat},
              {"version", CacheFileVersion},
              {"results", Results}};
  return Doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

/// The format and version first, so that another version is named as such
/// rather than as whichever key it renamed.
static llvm::Error checkHeader(const Json &Doc, llvm::StringRef Name) {
  auto Format = Doc.find("format");
  if (!Doc.is_object() || Format == Doc.end() || *Format != CacheFileFormat)
    return makeError(ErrorKind::BadInput,
                     Name +
                         ": not an OptiML results cache (expected "
                         "\"format\": \"" +
                         CacheFileFormat + "\")");
  auto Version = Doc.find("version");
  if (Version == Doc.end() || !Version->is_number_integer())
    return makeError(ErrorKind::BadInput,
                     Name + ": version: missing or not an integer");
  if (*Version != CacheFileVersion)
    return makeError(ErrorKind::BadInput,
                     Name + ": cache format version " +
                         std::to_string(Version->get<int64_t>()) +
                         " is not supported (this OptiML reads version " +
                         std::to_string(CacheFileVersion) + ")");
  return llvm::Error::success();
}

llvm::Expected<std::vector<ResultRecord>>
optiml::parseCacheFile(llvm::StringRef Text, llvm::StringRef Name) {
  Json Doc = Json::parse(Text.begin(), Text.end(), nullptr,
                         /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    return makeError(ErrorKind::BadInput, Name + ": not valid JSON");
  if (llvm::Error E = checkHeader(Doc, Name))
    return E;
  auto Results = Doc.find("results");
  if (Results == Doc.end())
    return makeError(ErrorKind::BadInput, Name + ": results: missing");
  std::vector<FileResult> Read;
  if (auto Bad = protocol::decode(*Results, Read))
    return makeError(ErrorKind::BadInput,
                     Name + ": " + Bad->inKey("results").what());
  std::vector<ResultRecord> Records;
  for (FileResult &F : Read) {
    F.R.Steps = llvm::join(F.Steps, "; ");
    Records.push_back(std::move(F.R));
  }
  return Records;
}

llvm::Expected<std::vector<ResultRecord>>
optiml::readCacheFile(llvm::StringRef Path) {
  if (!llvm::sys::fs::exists(Path))
    return makeError(ErrorKind::BadInput, Path + ": no such file");
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return makeError(ErrorKind::BadInput,
                     Path + ": " + Buffer.getError().message());
  return parseCacheFile((*Buffer)->getBuffer(), Path);
}

llvm::Error optiml::writeCacheFile(llvm::StringRef Path,
                                   llvm::ArrayRef<ResultRecord> Records) {
  return writeOutputFile(Path, cacheFileText(Records));
}

//===- SpecDiagnostic.cpp - one-line errors about a kernel spec ----------===//

#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;

std::string optiml::oneLine(llvm::StringRef Text) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (unsigned char C : Text) {
    if (C == '\n')
      OS << "\\n";
    else if (C == '\r')
      OS << "\\r";
    else if (C == '\t')
      OS << "\\t";
    else if (C < 0x20 || C == 0x7f)
      OS << "\\x" << llvm::format_hex_no_prefix(C, 2);
    else
      OS << C;
  }
  return Out;
}

llvm::Error optiml::specError(const SourcePos &Pos, const llvm::Twine &What,
                              const llvm::Twine &Expected) {
  return makeError(ErrorKind::BadInput,
                   oneLine(Pos.str() + ": error: " + What.str() +
                           "; expected " + Expected.str()));
}

llvm::Error optiml::withContext(llvm::Error Err, const llvm::Twine &Context) {
  if (!Err)
    return Err;
  ErrorSummary S = summarize(std::move(Err));
  size_t At = S.Message.find("; expected ");
  S.Message.insert(At == std::string::npos ? S.Message.size() : At,
                   Context.str());
  return makeError(S.Kind, S.Message);
}

SourcePos optiml::shifted(SourcePos Pos, size_t Columns) {
  Pos.Column += Columns;
  return Pos;
}

SourcePos optiml::positionOf(llvm::StringRef Text, size_t Offset,
                             llvm::StringRef File) {
  Offset = std::min(Offset, Text.size());
  llvm::StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n');
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  return SourcePos{File.str(), static_cast<unsigned>(Before.count('\n') + 1),
                   static_cast<unsigned>(Offset - LineStart + 1)};
}

std::string optiml::numberText(double V) {
  std::string Out;
  llvm::raw_string_ostream(Out) << llvm::format("%.10g", V);
  return Out;
}

//===- ProtocolError.h - Why a plan or result did not decode ----*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md), shared by the tool and
// the runner, so it uses the C++ standard library and nlohmann/json only.
// Decoding throws this inside the protocol headers only: decode() and
// decodeText() in Document.h turns it into a value, so no exception crosses
// into the tool's layers or the runner's phases.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_PROTOCOLERROR_H
#define OPTIML_PROTOCOL_PROTOCOLERROR_H

#include <exception>
#include <string>

namespace optiml::protocol {

class ProtocolError : public std::exception {
public:
  enum class Kind {
    Malformed,      ///< Not JSON, or a key missing, mistyped or out of range.
    VersionMismatch ///< The document was written for another schema version.
  };

  ProtocolError(Kind K, std::string Path, std::string Message)
      : K(K), Path(std::move(Path)), Message(std::move(Message)) {
    update();
  }
  /// A malformed value at the current position (the caller adds the path).
  explicit ProtocolError(std::string Message)
      : ProtocolError(Kind::Malformed, "", std::move(Message)) {}

  Kind kind() const { return K; }
  /// Where, as "instances[1].args[2].type"; empty for the whole document.
  const std::string &path() const { return Path; }
  const std::string &message() const { return Message; }
  /// "<path>: <message>", or the message alone at the top.
  const char *what() const noexcept override { return Text.c_str(); }

  /// Moves the error one level down: \p Key of the object that held it.
  ProtocolError &inKey(const std::string &Key) {
    Path = Path.empty() || Path.front() == '[' ? Key + Path : Key + "." + Path;
    update();
    return *this;
  }
  /// Moves the error one level down: element \p Index of an array.
  ProtocolError &inElement(size_t Index) {
    std::string Here = "[" + std::to_string(Index) + "]";
    Path =
        Path.empty() || Path.front() == '[' ? Here + Path : Here + "." + Path;
    update();
    return *this;
  }

private:
  void update() { Text = Path.empty() ? Message : Path + ": " + Message; }

  Kind K;
  std::string Path;
  std::string Message;
  std::string Text;
};

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_PROTOCOLERROR_H

import Foundation

/// A coding key for any string; used to read objects whose keys are checked by hand.
struct AnyCodingKey: CodingKey, Hashable {
  var stringValue: String
  var intValue: Int?
  init(_ string: String) {
    stringValue = string
    intValue = nil
  }
  init(stringValue: String) { self.init(stringValue) }
  init(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }
}

/// A problem in a contract file found while decoding it, with the key path where it was
/// found. The loader turns it into a ``ContractLoadError``.
struct ContractFormatError: Error {
  enum Kind {
    case unknownOperation(String)
    case unknownKey(String, allowed: [String])
    case invalidValue(String)
  }
  var codingPath: [any CodingKey]
  var kind: Kind

  /// Fails when the object at `decoder` has keys outside `allowed` (typos would
  /// otherwise be ignored silently and weaken the contract).
  static func checkKeys(_ decoder: any Decoder, allowed: [String]) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
    where !allowed.contains(key.stringValue) {
      throw ContractFormatError(
        codingPath: decoder.codingPath + [key], kind: .unknownKey(key.stringValue, allowed: allowed)
      )
    }
  }

  /// An invalid value at `decoder`'s path, optionally below `key`.
  static func invalid(_ decoder: any Decoder, _ key: String? = nil, _ message: String)
    -> ContractFormatError
  {
    ContractFormatError(
      codingPath: decoder.codingPath + (key.map { [AnyCodingKey($0)] } ?? []),
      kind: .invalidValue(message))
  }
}

/// Renders a coding path as `steps[2].input.email`.
func renderKeyPath(_ path: [any CodingKey]) -> String {
  var text = ""
  for key in path {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      text += text.isEmpty ? key.stringValue : "." + key.stringValue
    }
  }
  return text
}

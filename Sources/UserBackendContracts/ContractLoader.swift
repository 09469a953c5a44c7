import Foundation
import UserBackendKit

/// Reads contracts from a directory of JSON files.
public enum ContractLoader {
  /// Every `*.json` file in `directory` (not recursive) except the skip matrix
  /// (``SkipMatrix/fileName``), sorted by file name.
  ///
  /// - Returns: the contracts in file-name order.
  /// - Throws: ``ContractLoadError`` for the first file that cannot be read, is not JSON
  ///   (with line and column), lacks a key, names an unknown operation or fails the
  ///   checks of the format (names the key path and the problem).
  public static func load(directory: URL) throws -> [Contract] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw ContractLoadError(
        path: directory.path, keyPath: "", problem: .unreadable(reason: "not a readable directory"))
    }
    var contracts: [Contract] = []
    var seen: [String: String] = [:]
    for name in names.filter({ $0.hasSuffix(".json") && $0 != SkipMatrix.fileName }).sorted() {
      let url = directory.appendingPathComponent(name)
      let contract = try load(file: url)
      if let other = seen[contract.name] {
        throw ContractLoadError(
          path: url.path, keyPath: "name", problem: .invalidValue("also used by \(other)"))
      }
      seen[contract.name] = name
      contracts.append(contract)
    }
    return contracts
  }

  /// One contract file; its `name` must equal the file name without `.json`.
  /// - Throws: ``ContractLoadError``.
  public static func load(file url: URL) throws -> Contract {
    let data: Data
    do {
      data = try BoundedFileRead.data(contentsOf: url, limit: BoundedFileRead.smallFileLimit)
    } catch let error as BoundedFileRead.TooLarge {
      throw ContractLoadError(
        path: url.path, keyPath: "",
        problem: .unreadable(reason: "the file is larger than \(error.limit) bytes"))
    } catch {
      throw ContractLoadError(
        path: url.path, keyPath: "", problem: .unreadable(reason: "cannot read the file"))
    }
    let contract = try decode(data, path: url.path)
    let stem = url.deletingPathExtension().lastPathComponent
    guard contract.name == stem else {
      throw ContractLoadError(
        path: url.path, keyPath: "name",
        problem: .invalidValue("\"\(contract.name)\" must equal the file name \"\(stem)\""))
    }
    return contract
  }

  /// Decodes and validates one contract from JSON bytes; `path` is used in errors.
  /// - Throws: ``ContractLoadError``.
  public static func decode(_ data: Data, path: String) throws -> Contract {
    do {
      _ = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw ContractLoadError(path: path, keyPath: "", problem: syntaxProblem(error, data: data))
    }
    let contract: Contract
    do {
      contract = try JSONDecoder().decode(Contract.self, from: data)
    } catch let error as ContractFormatError {
      let problem: ContractLoadError.Problem =
        switch error.kind {
        case .unknownOperation(let name): .unknownOperation(name)
        case .unknownKey(let key, let allowed): .unknownKey(key, allowed: allowed)
        case .invalidValue(let message): .invalidValue(message)
        }
      throw ContractLoadError(
        path: path, keyPath: renderKeyPath(error.codingPath), problem: problem)
    } catch let error as DecodingError {
      throw decodingError(error, path: path)
    } catch {
      throw ContractLoadError(path: path, keyPath: "", problem: .invalidValue("\(error)"))
    }
    do {
      try ContractValidation.validate(contract)
    } catch let issue as ContractValidation.Issue {
      throw ContractLoadError(
        path: path, keyPath: issue.keyPath, problem: .invalidValue(issue.message))
    } catch {
      throw ContractLoadError(path: path, keyPath: "", problem: .invalidValue("\(error)"))
    }
    return contract
  }

  private static func decodingError(_ error: DecodingError, path: String) -> ContractLoadError {
    switch error {
    case .keyNotFound(let key, let context):
      return ContractLoadError(
        path: path, keyPath: renderKeyPath(context.codingPath + [key]),
        problem: .missingKey(key.stringValue))
    case .typeMismatch(let type, let context):
      return ContractLoadError(
        path: path, keyPath: renderKeyPath(context.codingPath),
        problem: .invalidValue("expected \(typeName(type))"))
    case .valueNotFound(let type, let context):
      return ContractLoadError(
        path: path, keyPath: renderKeyPath(context.codingPath),
        problem: .invalidValue("expected \(typeName(type)), found null"))
    case .dataCorrupted(let context):
      return ContractLoadError(
        path: path, keyPath: renderKeyPath(context.codingPath),
        problem: .invalidValue(context.debugDescription))
    @unknown default:
      return ContractLoadError(path: path, keyPath: "", problem: .invalidValue("\(error)"))
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is Int.Type, is Double.Type: "a number"
    case is [Any].Type: "an array"
    default: "an object"
    }
  }

  /// Turns Foundation's "... around character N." into a line and column.
  private static func syntaxProblem(_ error: any Error, data: Data) -> ContractLoadError.Problem {
    let message =
      ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)
      ?? "not valid JSON"
    var line: Int?
    var column: Int?
    if let range = message.range(of: "character ") {
      let digits = message[range.upperBound...].prefix(while: \.isNumber)
      if let offset = Int(digits) {
        var currentLine = 1
        var currentColumn = 1
        for byte in data.prefix(offset) {
          if byte == UInt8(ascii: "\n") {
            currentLine += 1
            currentColumn = 1
          } else if byte & 0xC0 != 0x80 {
            currentColumn += 1
          }
        }
        line = currentLine
        column = currentColumn
      }
    }
    let reason = message.components(separatedBy: " around ").first ?? message
    return .invalidJSON(line: line, column: column, reason: reason)
  }
}

/// A contract file that cannot be used, with where and why.
///
/// `description`: `Contracts/x.json: steps[2].op: unknown operation "signUpp" (known: ...)`.
public struct ContractLoadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Sendable, Hashable {
    /// The file or directory cannot be read.
    case unreadable(reason: String)
    /// The file is not JSON; position is 1-based when Foundation reports it.
    case invalidJSON(line: Int?, column: Int?, reason: String)
    /// A required key is missing (the key path names where).
    case missingKey(String)
    /// A step's `op` is not an ``OperationName``.
    case unknownOperation(String)
    /// A key the format does not define (often a typo).
    case unknownKey(String, allowed: [String])
    /// A value of the wrong type or meaning.
    case invalidValue(String)
  }

  /// The file (or directory) path.
  public var path: String
  /// Where in the file, e.g. `steps[2].expect.user.sameUserAs`; empty for the whole file.
  public var keyPath: String
  /// What is wrong.
  public var problem: Problem

  /// An error value.
  public init(path: String, keyPath: String, problem: Problem) {
    self.path = path
    self.keyPath = keyPath
    self.problem = problem
  }

  /// `path: keyPath: problem`, one line.
  public var description: String {
    let detail: String =
      switch problem {
      case .unreadable(let reason): reason
      case .invalidJSON(let line, let column, let reason):
        "invalid JSON"
          + (line.map { l in " at line \(l)" + (column.map { ", column \($0)" } ?? "") } ?? "")
          + ": \(reason)"
      case .missingKey(let key): "missing key \"\(key)\""
      case .unknownOperation(let name):
        "unknown operation \"\(name)\" (known: "
          + OperationName.allCases.map(\.rawValue).joined(separator: ", ") + ")"
      case .unknownKey(let key, let allowed):
        "unknown key \"\(key)\""
          + (allowed.isEmpty
            ? " (this object takes no keys)" : " (allowed: \(allowed.joined(separator: ", ")))")
      case .invalidValue(let message): message
      }
    return path + ": " + (keyPath.isEmpty ? "" : keyPath + ": ") + detail
  }
}

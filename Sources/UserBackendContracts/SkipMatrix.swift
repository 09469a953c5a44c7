import Foundation
import UserBackendKit

/// The pinned skip matrix, `Contracts/skips.json`: for each backend, the contracts it
/// skips and the capabilities it lacks for them.
///
/// ```json
/// {
///   "description": "...",
///   "backends": {
///     "firebase": {"username-identifier": ["usernamePassword"]},
///     "ncmb": {"phone-sign-in": ["phoneNumberSignIn"]}
///   }
/// }
/// ```
///
/// A harness belongs to the backend named by its name up to the first `-` (`fake`,
/// `firebase-emulator` -> `firebase`, `ncmb-replay` -> `ncmb`). A run violates the matrix
/// when it is skipped but not pinned (or skipped for another reason than the pinned
/// capabilities), or when it passes although pinned as skipped: a backend that loses a
/// capability, or gains one, changes this file on purpose, never silently.
public struct SkipMatrix: Sendable, Hashable, Codable {
  /// The file name inside the contracts directory; ``ContractLoader`` does not read it as a
  /// contract.
  public static let fileName = "skips.json"

  /// What the file is for (free text).
  public var description: String?
  /// Backend -> contract name -> the capability names it lacks, in the order the runner
  /// reports them (the contract's `requires` order).
  public var backends: [String: [String: [String]]]

  /// A matrix value.
  public init(description: String? = nil, backends: [String: [String: [String]]]) {
    self.description = description
    self.backends = backends
  }

  /// Reads `<directory>/skips.json`; a directory without one pins nothing (every skip is
  /// then a violation).
  /// - Throws: ``ContractLoadError`` when the file exists but cannot be read or decoded.
  public static func load(contractsDirectory directory: URL) throws -> SkipMatrix {
    let url = directory.appendingPathComponent(fileName)
    guard FileManager.default.fileExists(atPath: url.path) else { return SkipMatrix(backends: [:]) }
    let data: Data
    do {
      data = try BoundedFileRead.data(contentsOf: url, limit: BoundedFileRead.smallFileLimit)
    } catch let error as BoundedFileRead.NotRegularFile {
      throw ContractLoadError(
        path: url.path, keyPath: "", problem: .unreadable(reason: error.reason))
    } catch {
      throw ContractLoadError(
        path: url.path, keyPath: "", problem: .unreadable(reason: "cannot read the file"))
    }
    do {
      return try JSONDecoder().decode(SkipMatrix.self, from: data)
    } catch {
      throw ContractLoadError(
        path: url.path, keyPath: "backends",
        problem: .invalidValue(
          "not a skip matrix ({\"backends\": {backend: {contract: [capability]}}})"))
    }
  }

  /// The backend a harness belongs to: its name up to the first `-`.
  public static func backend(ofHarness harness: String) -> String {
    String(harness.prefix { $0 != "-" })
  }

  /// The capabilities `harness` is pinned to lack for `contract`, or `nil` when the pair
  /// is not pinned.
  public func pinned(contract: String, harness: String) -> [String]? {
    backends[Self.backend(ofHarness: harness)]?[contract]
  }

  /// Why `result` violates the matrix, or `nil` when it agrees. A skip caused by the
  /// environment (``ContractResult/skippedByEnvironment``: no controllable clock, no view of
  /// SMS or out-of-band messages, as on a live run) is not judged: the matrix pins what a
  /// backend lacks, and such a skip says nothing about the backend.
  public func violation(_ result: ContractResult) -> String? {
    if result.skippedByEnvironment { return nil }
    let pinned = pinned(contract: result.contract, harness: result.harness)
    let run = "\(result.contract) on \(result.harness)"
    switch (result.outcome, pinned) {
    case (.skipped(let reason), nil):
      return "\(run) was skipped (\(reason)) but \(Self.fileName) does not pin it for "
        + Self.backend(ofHarness: result.harness)
    case (.skipped(let reason), let capabilities?):
      let expected = "missing capability " + capabilities.joined(separator: ", ")
      return reason == expected
        ? nil
        : "\(run) was skipped (\(reason)) but \(Self.fileName) pins it as \"\(expected)\""
    case (.passed, let capabilities?):
      return "\(run) passed but \(Self.fileName) pins it as skipped (missing capability "
        + capabilities.joined(separator: ", ") + "): remove the entry"
    case (.passed, nil), (.failed, _):
      return nil
    }
  }

  /// Every violation in `report`, in report order.
  public func violations(_ report: ContractReport) -> [String] {
    report.results.compactMap(violation)
  }
}

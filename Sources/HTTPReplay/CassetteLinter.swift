import Foundation
import UserBackendKit

/// Checks cassette files: HAR 1.2 structure, the `_replay` block, and a leak scan on decoded
/// values (``DecodedLeakScan``: secret shapes, unredacted rule-named fields, bodies hidden
/// by base64 or gzip/deflate) plus the bytes (``LeakScanner``: every encoded form of the
/// given secrets). Backs `baas cassette lint DIR`.
public enum CassetteLinter {
  /// One problem in one file.
  public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: String, Sendable, Hashable {
      /// A missing or mistyped field.
      case schema
      /// A secret or secret shape.
      case leak
    }

    /// The file, relative to the linted folder (or as given).
    public var file: String
    /// Where: a field path (`log.entries[0].request.url`) or `line L, column C`.
    public var location: String
    /// What is wrong (never a secret value).
    public var message: String
    /// The kind.
    public var kind: Kind

    /// A finding.
    public init(file: String, location: String, message: String, kind: Kind) {
      self.file = file
      self.location = location
      self.message = message
      self.kind = kind
    }

    /// `firebase/sign-up.har: log.entries[0].time: missing (schema)`.
    public var description: String { "\(file): \(location): \(message) (\(kind.rawValue))" }
  }

  /// Lints every `.har` file under `directory` (recursively), in path order. An unreadable
  /// folder or file is reported as a finding.
  /// - Parameter secrets: values to scan for besides the generic shapes.
  public static func lint(directory: URL, secrets: [String] = []) -> [Finding] {
    let root = directory.standardizedFileURL
    guard
      let enumerator = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: nil)
    else {
      return [
        Finding(file: root.path, location: "(folder)", message: "cannot be read", kind: .schema)
      ]
    }
    var files: [URL] = []
    for case let url as URL in enumerator where url.pathExtension.lowercased() == "har" {
      files.append(url.standardizedFileURL)
    }
    var findings: [Finding] = []
    for url in files.sorted(by: { $0.path < $1.path }) {
      var name = url.path
      if name.hasPrefix(root.path + "/") { name.removeFirst(root.path.count + 1) }
      let data: Data
      do {
        data = try BoundedFileRead.data(contentsOf: url, limit: BoundedFileRead.largeFileLimit)
      } catch {
        let message =
          switch error {
          case is BoundedFileRead.TooLarge:
            "is larger than \(BoundedFileRead.largeFileLimit) bytes"
          case let error as BoundedFileRead.NotRegularFile: error.reason
          default: "cannot be read"
          }
        findings.append(Finding(file: name, location: "(file)", message: message, kind: .schema))
        continue
      }
      findings += lint(data: data, file: name, secrets: secrets)
    }
    return findings
  }

  /// Lints one cassette's bytes. Bodies are counted first (``DecodedSizeSurvey``): those
  /// that decode past 10 MiB each get one finding together (the first, and how many
  /// more) and are not scanned; a file whose bodies decode past 64 MiB in total
  /// (``DecodedSizeBudget``, refused bodies' bytes included) gets that one finding and no
  /// scan.
  public static func lint(data: Data, file: String, secrets: [String] = []) -> [Finding] {
    var findings: [Finding] = []
    let parsed = try? JSONSerialization.jsonObject(with: data)
    if let object = parsed {
      // Bodies are counted before any scan: the scans run on decoded bytes, and a file
      // past the budget can never be a cassette the loader reads.
      let survey = DecodedSizeSurvey(object)
      if let finding = survey.finding {
        findings.append(
          Finding(file: file, location: finding.location, message: finding.message, kind: .schema))
      }
      if survey.overrun != nil { return findings }
      // A repeated key means one thing here and another to replay (``JSONRepeatedKeys``).
      if let path = JSONRepeatedKeys.first(in: data) {
        findings.append(
          Finding(file: file, location: path, message: JSONRepeatedKeys.reason, kind: .schema))
      }
      findings += HARSchema.problems(in: object).map {
        Finding(file: file, location: $0.path, message: $0.message, kind: .schema)
      }
      findings += DecodedLeakScan.scan(
        object, secrets: secrets, skippingBodies: survey.refusedTexts
      ).map {
        Finding(file: file, location: $0.path, message: $0.message, kind: .leak)
      }
    } else {
      findings.append(Finding(file: file, location: "(file)", message: "not JSON", kind: .schema))
    }
    // The byte scan adds the encoded forms of configured secrets (base64 inside a header,
    // …); generic shapes come from the decoded scan when the file parses.
    let leaks = LeakScanner.scan(data, secrets: secrets).filter {
      parsed == nil || $0.secretIndex != nil
    }
    findings += leaks.map { leak in
      Finding(
        file: file, location: "line \(leak.line), column \(leak.column)",
        message: leak.secretIndex.map { "\(leak.form) form of secret #\($0 + 1)" }
          ?? "\(leak.form) found", kind: .leak)
    }
    return findings
  }
}
